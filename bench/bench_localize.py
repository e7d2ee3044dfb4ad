"""Localisation on real GitHub issues: which files must change? intelligent_search against BM25.

Data: ``shared/eval/localization_dev.jsonl`` (SWE-bench issues; see its README). Each issue's
tree is built at its base commit from a bare mirror of the public repository
(``<mirrors>/<owner>+<name>/repo``: ``git archive`` → ``git init/add/commit``), indexed once into
``<index-cache>/<instance_id>/index.db``, then asked the issue text whole with default settings
(no embeddings unless ``--embeddings local``). The BM25 floor of the README (non-test ``.py``
files, path + content, k1 1.2, b 0.75, path tokens ×3, identifiers split on ``_`` and camelCase)
is computed in the same run over the same tree.

    python bench/bench_localize.py [--data FILE] [--mirrors DIR] [--trees DIR] [--index-cache DIR]
                                   [--repo sympy] [--limit N] [--embeddings none|local] [--misses FILE]

Prints one JSON line per repository and one overall (Acc@1, Acc@5, MRR@10 for both rankers, index
seconds, query p50/p95 in-process).

Function level (issues whose ``gold_spans`` name a function, method or class the index holds at the
base commit): a cited place is a result's ``path:line`` and then each further place it lists; it
hits when the path is a gold file and the line lies inside a gold definition's span (a class's
whole span counts). Acc@1/5/10 over the first distinct non-test places, next to a BM25 over
function/class/method-level chunks of the non-test ``.py`` files (``bench_questions.ChunkBM25``).
"""

from __future__ import annotations

import argparse
import collections
import itertools
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from maguyva.answers import MAX_TOKENS  # noqa: E402
from maguyva.index.pipeline import index_repository  # noqa: E402

ASKED = 20  # files asked for, so ten remain after test files are left out
_TEST = re.compile(r"(^|/)(tests?|testing)/|(^|/)(test_[^/]*\.py|conftest\.py)$")
_WORD = re.compile(r"[A-Za-z0-9]+")
_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def emit(**fields) -> None:
    print(json.dumps(fields), flush=True)


def default_data(name: str = "localization_dev.jsonl") -> Path:
    for base in (REPO.parent, REPO.parent.parent):
        candidate = base / "shared" / "eval" / name
        if candidate.is_file():
            return candidate
    return REPO.parent / "shared" / "eval" / name


def is_test(path: str) -> bool:
    return bool(_TEST.search(path))


def build_tree(row: dict, mirrors: Path, trees: Path) -> Path:
    """The issue's tree at its base commit, as a one-commit git repository (cached)."""
    target = trees / row["instance_id"]
    if (target / ".git").is_dir():
        return target
    bare = mirrors / row["repo"].replace("/", "+") / "repo"
    if not bare.is_dir():
        raise SystemExit(f"no mirror of {row['repo']} at {bare} (fetch the public repository there)")
    partial = target.with_name(target.name + ".partial")
    subprocess.run(["rm", "-rf", str(partial)], check=True)
    partial.mkdir(parents=True)
    archive = subprocess.run(
        ["git", f"--git-dir={bare}", "archive", row["base_commit"]], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(partial)], input=archive, check=True)
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "b",
        "GIT_AUTHOR_EMAIL": "b@x",
        "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@x",
    }
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "base", "--no-verify"]):
        subprocess.run(["git", *args], cwd=partial, env=env, check=True, capture_output=True)
    partial.rename(target)
    return target


def index_tree(row: dict, tree: Path, cache: Path) -> tuple[Path, float]:
    """The tree's index (built once; later runs reuse it) and the seconds the build took."""
    place = cache / row["instance_id"]
    marker = place / "done.json"
    done = read_marker(marker)
    if done is not None:
        return place / "index.db", done["seconds"]
    place.mkdir(parents=True, exist_ok=True)
    (place / "index.db").unlink(missing_ok=True)
    started = time.perf_counter()
    summary = index_repository(tree, place / "index.db")
    seconds = time.perf_counter() - started
    partial = marker.with_suffix(".tmp")
    partial.write_text(json.dumps({"seconds": seconds, "files": summary.files, "symbols": summary.symbols}))
    partial.replace(marker)  # a killed build leaves no marker, so the next run rebuilds it
    return place / "index.db", seconds


def read_marker(marker: Path) -> dict | None:
    """The finished build's record, or None when the build never finished (missing or torn marker)."""
    try:
        done = json.loads(marker.read_text())
    except (OSError, ValueError):
        return None
    return done if isinstance(done, dict) and "seconds" in done else None


# ---- the BM25 floor (the README's definition) -----------------------------------------------


def bm25_tokens(text: str) -> list[str]:
    out = []
    for word in _WORD.findall(text.replace("_", " ")):
        parts = _PARTS.findall(word)
        out += [p.lower() for p in parts] if parts else [word.lower()]
    return out


class BM25:
    def __init__(self, tree: Path, k1: float = 1.2, b: float = 0.75, path_weight: int = 3):
        self.k1, self.b = k1, b
        files = subprocess.run(
            ["git", "ls-files", "*.py"], cwd=tree, capture_output=True, text=True, check=True
        ).stdout.split()
        self.paths = [p for p in files if not is_test(p)]
        self.tf: list[collections.Counter] = []
        self.df: collections.Counter = collections.Counter()
        for path in self.paths:
            try:
                text = (tree / path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                text = ""
            counts = collections.Counter(bm25_tokens(text))
            for token in bm25_tokens(path):
                counts[token] += path_weight
            self.tf.append(counts)
            self.df.update(counts.keys())
        self.lengths = [sum(c.values()) for c in self.tf]
        self.average = sum(self.lengths) / max(1, len(self.lengths))

    def rank(self, query: str, limit: int = 10) -> list[str]:
        return bm25_rank(self, self.paths, query, limit)


def bm25_rank(index, documents: list, query: str, limit: int) -> list:
    """Okapi BM25 over ``index``'s ``tf``/``df``/``lengths``/``average`` (k1, b): the best ``documents``."""
    n = len(documents)
    terms = set(bm25_tokens(query))
    idf = {t: math.log(1 + (n - index.df[t] + 0.5) / (index.df[t] + 0.5)) for t in terms if index.df[t]}
    scores = []
    for i, counts in enumerate(index.tf):
        norm = index.k1 * (1 - index.b + index.b * index.lengths[i] / index.average)
        s = sum(idf[t] * counts[t] * (index.k1 + 1) / (counts[t] + norm) for t in idf if t in counts)
        if s > 0:
            scores.append((s, documents[i]))
    scores.sort(key=lambda sd: (-sd[0], sd[1]))
    return [d for _, d in scores[:limit]]


# ---- scoring ---------------------------------------------------------------------------------


def metrics(ranked: list[str], gold: set[str]) -> dict:
    top = list(dict.fromkeys(p for p in ranked if not is_test(p)))[:10]
    first = next((i for i, p in enumerate(top) if p in gold), None)
    return {
        "acc1": float(first is not None and first < 1),
        "acc5": float(first is not None and first < 5),
        "mrr10": 1.0 / (first + 1) if first is not None else 0.0,
    }


def gold_places(api, row: dict) -> list[tuple[str, int, int]]:
    """The gold definitions' spans at the base commit, found by qualified-name suffix in the index."""
    spans = []
    for path, names in (row.get("gold_spans") or {}).items():
        symbols = list(api.store.symbols_in(path))
        for name in names:
            for symbol in symbols:
                if symbol.qualified_name == name or symbol.qualified_name.endswith("." + name):
                    spans.append((path, symbol.line, symbol.end_line))
    return spans


def function_metrics(places: list[tuple[str, int]], gold: list[tuple[str, int, int]]) -> dict:
    top = [p for p in dict.fromkeys(places) if not is_test(p[0])][:10]
    first = next(
        (i for i, (path, line) in enumerate(top) if any(path == g and a <= line <= b for g, a, b in gold)),
        None,
    )
    return {f"acc{k}": float(first is not None and first < k) for k in (1, 5, 10)}


def summary(rows: list[dict]) -> dict:
    out: dict = {"n": len(rows)}
    for ranker in ("maguyva", "bm25"):
        for metric in ("acc1", "acc5", "mrr10"):
            out[f"{ranker}_{metric}"] = round(sum(r[ranker][metric] for r in rows) / max(1, len(rows)), 3)
    spanned = [r for r in rows if r.get("maguyva_fn")]
    out["fn_n"] = len(spanned)
    for ranker in ("maguyva_fn", "bm25_fn"):
        for metric in ("acc1", "acc5", "acc10"):
            if spanned and all(ranker in r for r in spanned):
                out[f"{ranker}_{metric}"] = round(sum(r[ranker][metric] for r in spanned) / len(spanned), 3)
    for key, name in (("seconds", "query"), ("warm_seconds", "warm_query")):
        latencies = sorted(r[key] for r in rows if key in r)
        if latencies:
            out[f"{name}_p50_ms"] = round(latencies[len(latencies) // 2] * 1000, 1)
            out[f"{name}_p95_ms"] = round(
                latencies[min(len(latencies) - 1, int(0.95 * len(latencies)))] * 1000, 1
            )
    out["index_seconds_total"] = round(sum(r["index_seconds"] for r in rows), 1)
    return out


def spread(rows: list[dict], limit: int | None) -> list[dict]:
    """Interleave repositories so that ``--limit N`` covers every one of them."""
    by_repo: dict[str, list[dict]] = collections.defaultdict(list)
    for row in rows:
        by_repo[row["repo"]].append(row)
    mixed = [r for group in itertools.zip_longest(*by_repo.values()) for r in group if r]
    return mixed[:limit] if limit else mixed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=default_data())
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument(
        "--trees", type=Path, default=Path(tempfile.gettempdir()) / "maguyva-localize" / "trees"
    )
    parser.add_argument(
        "--index-cache", type=Path, default=Path(tempfile.gettempdir()) / "maguyva-localize" / "index"
    )
    parser.add_argument("--repo", help="only repositories whose name contains this")
    parser.add_argument("--limit", type=int, help="at most N issues, spread over the repositories")
    parser.add_argument("--embeddings", choices=["none", "local"], default="none")
    parser.add_argument(
        "--results",
        type=Path,
        help="per-issue rankings and gold files (JSONL); issues already "
        "in it are not asked again, so a long run can resume",
    )
    parser.add_argument(
        "--indexed-only",
        action="store_true",
        help="skip issues whose tree has no finished index in --index-cache yet",
    )
    parser.add_argument(
        "--reverse",
        action="store_true",
        help="ask in reverse order (a second process can share the work through its own --results file)",
    )
    parser.add_argument("--no-baseline", action="store_true", help="skip BM25 (a latency-only pass)")
    parser.add_argument("--summary-only", action="store_true", help="only summarise the issues in --results")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.data.read_text().splitlines() if line.strip()]
    if args.repo:
        rows = [r for r in rows if args.repo in r["repo"]]
    rows = spread(rows, args.limit)[:: -1 if args.reverse else 1]
    embedder = None
    if args.embeddings == "local":
        from maguyva.embed.base import EmbeddingSettings, make_embedder

        embedder = make_embedder(EmbeddingSettings.from_config({"backend": "local"}))
    results = []
    done: dict[str, dict] = {}
    if args.results and args.results.is_file():
        done = {r["instance_id"]: r for r in map(json.loads, args.results.read_text().splitlines()) if r}
    out = args.results.open("a") if args.results and not args.summary_only else None
    skipped = 0
    for row in rows:
        if row["instance_id"] in done:
            results.append(done[row["instance_id"]])
            continue
        if args.summary_only or (
            args.indexed_only and read_marker(args.index_cache / row["instance_id"] / "done.json") is None
        ):
            skipped += 1
            continue
        result = ask(row, args, embedder)
        results.append(result)
        if out:
            out.write(json.dumps(result) + "\n")
            out.flush()
    if out:
        out.close()
    for repo, group in itertools.groupby(sorted(results, key=lambda r: r["repo"]), key=lambda r: r["repo"]):
        emit(bench="localize", repo=repo, **summary(list(group)))
    emit(
        bench="localize",
        repo="all",
        embeddings=args.embeddings,
        **summary(results),
        not_indexed_yet=skipped,
        ranker_index_seconds_total=round(sum(r["ranker_seconds"] for r in results), 1),
    )


def ask(row: dict, args, embedder) -> dict:
    """One issue: its tree, its index, our answer and the BM25 floor's, scored."""
    tree = build_tree(row, args.mirrors, args.trees)
    store, index_seconds = index_tree(row, tree, args.index_cache)
    from bench_questions import open_api

    api = open_api(tree, store, embedder)
    started = time.perf_counter()
    api._file_index()  # the ranker's BM25F index: built once per tree (cached next to the index)
    ranker_seconds = time.perf_counter() - started
    started = time.perf_counter()
    answer = api.intelligent_search(row["query"], limit=ASKED, max_tokens=MAX_TOKENS)
    seconds = time.perf_counter() - started
    started = time.perf_counter()
    api.intelligent_search(row["query"], limit=ASKED, max_tokens=MAX_TOKENS)
    warm = time.perf_counter() - started
    gold_spans = gold_places(api, row)
    places = []
    for result in answer["results"]:
        places += [(result["path"], result["line"])] + [
            (result["path"], m["line"]) for m in result.get("more") or []
        ]
    functions = {}
    if gold_spans:
        functions["maguyva_fn"] = function_metrics(places, gold_spans)
        if not args.no_baseline:
            from bench_questions import ChunkBM25

            chunks = ChunkBM25(api, keep=lambda path: path.endswith(".py") and not is_test(path))
            functions["bm25_fn"] = function_metrics(chunks.rank(row["query"], limit=ASKED), gold_spans)
    api.close()
    ours = [r["path"] for r in answer["results"]]
    theirs = BM25(tree).rank(row["query"], limit=ASKED) if not args.no_baseline else []
    gold = set(row["gold_files"])
    return {
        **functions,
        "instance_id": row["instance_id"],
        "repo": row["repo"],
        "maguyva": metrics(ours, gold),
        "bm25": metrics(theirs, gold),
        "seconds": seconds,
        "warm_seconds": warm,
        "index_seconds": index_seconds,
        "ranker_seconds": ranker_seconds,
        "gold": sorted(gold),
        "ours": ours[:10],
        "bm25_top": theirs[:10],
        "intent": answer["intent"],
        "signals": [r.get("signals") for r in answer["results"][:10]],
    }


if __name__ == "__main__":
    main()
