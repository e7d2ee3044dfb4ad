"""Agent questions: does the cited ``path:line`` fall inside the function that answers? Maguyva against BM25.

Data: ``shared/eval/agent_questions_dev.jsonl`` (see its README): short questions of the kinds coding
agents ask (a behaviour in plain words, how-does-X-work, a named definition, a pasted error message,
a setting, who-calls) on public repositories at a pinned commit. Each tree is built from a bare mirror
(``<mirrors>/<owner>+<name>/repo``), indexed once into ``<index-cache>/<repo>@<commit>/index.db``, and
asked every question whole with default settings (no embeddings unless ``--embeddings local``).

Scoring (the README's): a cited place is a result's ``path:line`` and then each further place that
result lists (``more``), in order; it hits a gold answer when the path is equal and the line lies in
``[start, end]``. Place Acc@k and MRR@10 over all kinds but ``callers``; file Acc@5 (a gold path among
the first five distinct files); ``callers`` by recall of the gold set over the first ten places.

The baseline, computed in the same run over the same tree and scored the same way: BM25 over
function/class/method-level chunks (one chunk per definition the index holds; its lines, plus the
path's tokens; identifiers split on camelCase and snake_case; k1 1.2, b 0.75).

    python bench/bench_questions.py [--data FILE] [--mirrors DIR] [--repo click] [--kind error]
                                    [--misses] [--embeddings none|local]

Prints one JSON line per kind and one overall, then the first-question latency after a fresh open.
"""

from __future__ import annotations

import argparse
import collections
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from bench_localize import bm25_rank, bm25_tokens, build_tree, default_data, emit, index_tree  # noqa: E402

from maguyva.api import Maguyva  # noqa: E402

KINDS = ("concept", "how", "definition", "error", "config", "callers")
CHUNK_KINDS = frozenset({"function", "method", "class", "interface", "struct", "constructor", "type"})


def tree_key(row: dict) -> dict:
    """The per-tree row ``bench_localize``'s tree and index builders expect."""
    return {
        "instance_id": f"{row['repo'].replace('/', '+')}@{row['commit'][:12]}",
        **row,
        "base_commit": row["commit"],
    }


# ---- places and scores -------------------------------------------------------------------------


def our_places(answer) -> list[tuple[str, int]]:
    places = []
    for result in answer["results"]:
        places.append((result["path"], result["line"]))
        places += [(result["path"], more["line"]) for more in result.get("more") or []]
    return places


def distinct(places: list[tuple[str, int]]) -> list[tuple[str, int]]:
    return list(dict.fromkeys(places))


def hits(place: tuple[str, int], gold: dict) -> bool:
    return place[0] == gold["path"] and gold["start"] <= place[1] <= gold["end"]


def score(places: list[tuple[str, int]], golds: list[dict], kind: str) -> dict:
    top = distinct(places)
    if kind == "callers":
        found = {i for i, g in enumerate(golds) for p in top[:10] if hits(p, g)}
        return {"recall10": len(found) / max(1, len(golds))}
    first = next((i for i, p in enumerate(top[:10]) if any(hits(p, g) for g in golds)), None)
    files = list(dict.fromkeys(p for p, _ in top))[:5]
    return {
        "acc1": float(first is not None and first < 1),
        "acc5": float(first is not None and first < 5),
        "mrr10": 1.0 / (first + 1) if first is not None else 0.0,
        "file_acc5": float(any(g["path"] in files for g in golds)),
    }


# ---- the baseline: BM25 over definition-level chunks ---------------------------------------------


class ChunkBM25:
    """One chunk per function, method or class the index holds (its lines plus its path's tokens)."""

    def __init__(self, api: Maguyva, k1: float = 1.2, b: float = 0.75, keep=lambda path: True):
        self.k1, self.b = k1, b
        self.places: list[tuple[str, int]] = []
        self.tf: list[collections.Counter] = []
        self.df: collections.Counter = collections.Counter()
        for path in sorted(p for p in api.store.known_paths() if keep(p)):
            text = api.store.file_text(path) or ""
            lines = text.splitlines()
            path_words = bm25_tokens(path)
            for symbol in api.store.symbols_in(path):
                if symbol.kind not in CHUNK_KINDS:
                    continue
                body = "\n".join(lines[symbol.line - 1 : symbol.end_line])
                counts = collections.Counter(bm25_tokens(body) + path_words)
                self.places.append((path, symbol.line))
                self.tf.append(counts)
                self.df.update(counts.keys())
        self.lengths = [sum(c.values()) for c in self.tf]
        self.average = sum(self.lengths) / max(1, len(self.lengths))

    def rank(self, query: str, limit: int = 10) -> list[tuple[str, int]]:
        return bm25_rank(self, self.places, query, limit)


# ---- the run -----------------------------------------------------------------------------------


def summarise(rows: list[dict], ranker: str) -> dict:
    out: dict = {}
    asked = [r for r in rows if r["kind"] != "callers"]
    for metric in ("acc1", "acc5", "mrr10", "file_acc5"):
        if asked:
            out[metric] = round(sum(r[ranker][metric] for r in asked) / len(asked), 3)
    callers = [r for r in rows if r["kind"] == "callers"]
    if callers:
        out["callers_recall10"] = round(sum(r[ranker]["recall10"] for r in callers) / len(callers), 3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=default_data("agent_questions_dev.jsonl"))
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    base = Path(tempfile.gettempdir()) / "maguyva-questions"
    parser.add_argument("--trees", type=Path, default=base / "trees")
    parser.add_argument("--index-cache", type=Path, default=base / "index")
    parser.add_argument("--repo", help="only repositories whose name contains this")
    parser.add_argument("--kind", choices=KINDS, help="only questions of this kind")
    parser.add_argument("--misses", action="store_true", help="print each question we miss at place Acc@1")
    parser.add_argument("--embeddings", choices=["none", "local"], default="none")
    parser.add_argument(
        "--latency-tree",
        type=Path,
        help="also time the first question after a fresh index of this tree (e.g. a sympy checkout)",
    )
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.data.read_text().splitlines() if line.strip()]
    rows = [
        r
        for r in rows
        if (not args.repo or args.repo in r["repo"]) and (not args.kind or r["kind"] == args.kind)
    ]
    embedder = None
    if args.embeddings == "local":
        from maguyva.embed.base import EmbeddingSettings, make_embedder

        embedder = make_embedder(EmbeddingSettings.from_config({"backend": "local"}))
    results = []
    first_latency, second_latency = [], []
    by_tree = collections.defaultdict(list)
    for row in rows:
        by_tree[tree_key(row)["instance_id"]].append(row)
    warmed = False
    for group in by_tree.values():
        key = tree_key(group[0])
        tree = build_tree(key, args.mirrors, args.trees)
        store, _ = index_tree(key, tree, args.index_cache)
        if not warmed:  # the process's imports are paid once, as a server pays them at start, not timed
            warm = open_api(tree, store, embedder)
            warm.intelligent_search(group[0]["question"])
            warm.close()
            warmed = True
        api = open_api(tree, store, embedder)  # opened anew: its ranker index is read from disk again
        started = time.perf_counter()  # the first question after opening: whatever the ranker reads lazily
        api.intelligent_search(group[0]["question"])
        first_latency.append(time.perf_counter() - started)
        started = time.perf_counter()
        api.intelligent_search(group[0]["question"])
        second_latency.append(time.perf_counter() - started)
        baseline = ChunkBM25(api)
        for row in group:
            answer = api.intelligent_search(row["question"])
            ours = our_places(answer)
            theirs = baseline.rank(row["question"], limit=10)
            result = {
                "id": row["id"],
                "kind": row["kind"],
                "maguyva": score(ours, row["gold"], row["kind"]),
                "bm25": score(theirs, row["gold"], row["kind"]),
            }
            results.append(result)
            if args.misses and (
                result["maguyva"].get("acc1") == 0.0 or result["maguyva"].get("recall10", 1) < 1
            ):
                emit(
                    miss=row["id"],
                    kind=row["kind"],
                    intent=answer["intent"],
                    question=row["question"][:100],
                    gold=[f"{g['path']}:{g['start']}-{g['end']} {g['symbol']}" for g in row["gold"]][:4],
                    ours=[
                        f"{r['path']}:{r['line']} {r.get('symbol')}"
                        + "".join(f" | {m['line']} {m.get('symbol')}" for m in r.get("more") or [])
                        for r in answer["results"][:4]
                    ],
                    bm25=[f"{p}:{n}" for p, n in theirs[:3]],
                )
        api.close()
    for kind in KINDS:
        group = [r for r in results if r["kind"] == kind]
        if group:
            emit(
                bench="questions",
                kind=kind,
                n=len(group),
                maguyva=summarise(group, "maguyva"),
                bm25=summarise(group, "bm25"),
            )
    emit(
        bench="questions",
        kind="all",
        n=len(results),
        maguyva=summarise(results, "maguyva"),
        bm25=summarise(results, "bm25"),
        first_question_ms=[round(s * 1000, 1) for s in first_latency],
        second_question_ms=[round(s * 1000, 1) for s in second_latency],
        first_over_second=round(
            statistics.mean(first_latency) / max(1e-9, statistics.mean(second_latency)), 2
        )
        if first_latency
        else None,
    )
    if args.latency_tree:
        emit(bench="questions", latency=latency(args.latency_tree, args.index_cache.parent))


# questions of each kind for the latency pass (any large tree; the defaults suit sympy)
LATENCY_QUESTIONS = (
    "Where is the derivative of a product of functions computed?",
    "How does simplify decide which of two expressions is simpler?",
    "Who calls sympify?",
    "ValueError: Cannot convert expression to float",
    "Where is the LaTeX printer for matrices?",
    "How are assumptions like positive or integer propagated to a Symbol?",
    "Where does solve pick the method for a polynomial equation?",
    "SympifyError: Sympify of expression 'could not parse' failed",
    "Which code reads the SYMPY_USE_CACHE environment variable?",
    "How does Integral.doit choose between Risch and heuristic integration?",
    "Where is the greatest common divisor of two polynomials computed?",
    "What depends on sympy.core.cache?",
    "Where are rational numbers reduced to lowest terms?",
    "How does the pretty printer lay out a fraction?",
    "Where is a matrix determinant computed with the Bareiss algorithm?",
    "TypeError: unsupported operand type(s) for +: 'Symbol' and 'str'",
    "Where are series expansions around infinity handled?",
    "How does lambdify turn an expression into a numpy function?",
    "Where are units converted between unit systems?",
    "Where is the Piecewise condition checked for being exhaustive?",
)


def latency(tree: Path, scratch: Path) -> dict:
    """The first question after a fresh index against the second, in one process whose modules are loaded.

    The tree is indexed into a new store (``index_repository``, which also builds the ranker's index);
    the process has already answered questions on other trees, so imports are not counted; then the
    first question on a newly opened index, the same question again, and the p95 of the others."""
    from maguyva.index.pipeline import index_repository

    store = scratch / "latency" / "index.db"
    store.parent.mkdir(parents=True, exist_ok=True)
    for leftover in store.parent.glob("index.db*"):
        leftover.unlink()
    started = time.perf_counter()
    index_repository(tree, store)
    indexed = time.perf_counter() - started
    api = open_api(tree, store, None)
    timings = []
    for question in (LATENCY_QUESTIONS[0], *LATENCY_QUESTIONS):
        started = time.perf_counter()
        api.intelligent_search(question)
        timings.append(time.perf_counter() - started)
    api.close()
    first, second, rest = timings[0], timings[1], sorted(timings[1:])
    return {
        "tree": tree.name,
        "index_seconds": round(indexed, 1),
        "first_ms": round(first * 1000, 1),
        "second_ms": round(second * 1000, 1),
        "first_over_second": round(first / max(second, 1e-9), 2),
        "p50_ms": round(rest[len(rest) // 2] * 1000, 1),
        "p95_ms": round(rest[min(len(rest) - 1, int(0.95 * len(rest)))] * 1000, 1),
    }


def open_api(tree: Path, store: Path, embedder) -> Maguyva:
    api = Maguyva.open(tree, str(store))
    if embedder is None:
        api.embedding_settings = None
    else:
        from maguyva.embed.cache import EmbeddingCache, default_cache_path
        from maguyva.embed.pipeline import embed_index

        with EmbeddingCache(default_cache_path()) as cache:
            embed_index(api.store, embedder, cache)
        api.embedder = embedder
    return api


if __name__ == "__main__":
    main()
