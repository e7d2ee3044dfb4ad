"""Retrieval quality and latency: MRR@10 and Recall@5 per query class, per modality and fused.

Corpora: this repository, and an installed third-party package (jinja2) copied into a temp
git repository. Labels are hand-written in bench/data/retrieval_queries.jsonl (file-level
relevance). Latency is measured on a stdlib-sized index (the running interpreter's standard
library copied into a temp git repository) against ripgrep when it is installed.

    python bench/bench_retrieval.py [--embeddings none|local] [--skip-latency] [--stdlib-files N]

Prints one JSON line per measurement.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from maguyva.api import Maguyva  # noqa: E402
from maguyva.index.pipeline import index_repository  # noqa: E402

QUERIES = REPO / "bench" / "data" / "retrieval_queries.jsonl"
CONFIGS = {"text": ["text"], "structure": ["structure"], "graph": ["graph"], "semantic": ["semantic"]}


def emit(**fields) -> None:
    print(json.dumps(fields), flush=True)


def git_repo_from(source: Path, target: Path, subdir: str | None = None, limit: int | None = None) -> Path:
    dest = target / subdir if subdir else target
    files = [
        p
        for p in sorted(source.rglob("*"))
        if p.is_file()
        and p.suffix in (".py", ".md", ".txt", ".rst", ".pyi")
        and not {"__pycache__", "site-packages"} & set(p.relative_to(source).parts)
    ]
    for path in files[:limit]:
        out = dest / path.relative_to(source)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, out)
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "b",
        "GIT_AUTHOR_EMAIL": "b@x",
        "GIT_COMMITTER_NAME": "b",
        "GIT_COMMITTER_EMAIL": "b@x",
    }
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "chore: corpus"]):
        subprocess.run(["git", *args], cwd=target, env=env, check=True, capture_output=True)
    return target


def open_corpus(name: str, base: Path, embedder) -> Maguyva:
    store = base / f"{name}.db"
    if name == "self":
        root = REPO
    else:
        import jinja2

        root = git_repo_from(Path(jinja2.__file__).parent, base / "jinja2-repo", subdir="jinja2")
    index_repository(root, store)
    api = Maguyva.open(root, str(store))
    if embedder is not None:
        from maguyva.embed.cache import EmbeddingCache, default_cache_path
        from maguyva.embed.pipeline import embed_index

        with EmbeddingCache(default_cache_path()) as cache:
            summary = embed_index(api.store, embedder, cache)
        emit(bench="retrieval", corpus=name, embedded=summary.to_dict())
        api.embedder = embedder
    return api


def score(results: list[dict], expected: list[str]) -> tuple[float, float]:
    # the benchmark's own files (this query set among them) are not answers
    paths = [r["path"] for r in results if not r["path"].startswith("bench/")]
    rr = 0.0
    for rank, path in enumerate(paths[:10], start=1):
        if path in expected:
            rr = 1.0 / rank
            break
    recall = len(set(paths[:5]) & set(expected)) / len(expected)
    return rr, recall


def quality(apis: dict[str, Maguyva], queries: list[dict], semantic: bool) -> None:
    configs = dict(CONFIGS) if semantic else {k: v for k, v in CONFIGS.items() if k != "semantic"}
    configs["fusion"] = None
    table: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for query in queries:
        api = apis[query["corpus"]]
        for config, modalities in configs.items():
            answer = api.intelligent_search(query["query"], limit=20, modalities=modalities)
            table.setdefault((config, query["class"]), []).append(score(answer["results"], query["expected"]))
            table.setdefault((config, "all"), []).append(score(answer["results"], query["expected"]))
    for (config, klass), values in sorted(table.items()):
        emit(
            bench="retrieval",
            metric="quality",
            config=config,
            query_class=klass,
            n=len(values),
            mrr_at_10=round(statistics.mean(v[0] for v in values), 3),
            recall_at_5=round(statistics.mean(v[1] for v in values), 3),
            semantic_available=semantic,
        )


def percentiles(samples: list[float]) -> dict:
    ordered = sorted(samples)
    p = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {"p50_ms": round(p(0.5) * 1000, 2), "p95_ms": round(p(0.95) * 1000, 2), "n": len(ordered)}


def latency(base: Path, max_files: int | None) -> None:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    root = base / "stdlib"
    root.mkdir()
    started = time.perf_counter()
    git_repo_from(stdlib, root, limit=max_files)
    store = base / "stdlib.db"
    summary = index_repository(root, store)
    emit(
        bench="retrieval",
        metric="stdlib_index",
        files=summary.files,
        symbols=summary.symbols,
        seconds=round(time.perf_counter() - started, 1),
    )
    api = Maguyva.open(root, str(store))
    rng = random.Random(7)
    names = sorted(
        {
            s.name
            for p in list(api.store.known_paths())[:400]
            for s in api.store.symbols_in(p)
            if len(s.name) > 5 and not s.name.startswith("_")
        }
    )
    sample = rng.sample(names, min(200, len(names)))
    timings = []
    for name in sample:
        t = time.perf_counter()
        api.find_symbol(name)
        timings.append(time.perf_counter() - t)
    emit(bench="retrieval", metric="latency", tool="find_symbol", target_p50_ms=10, **percentiles(timings))
    queries = (
        [f"def {n}" for n in sample[:30]]
        + [f"who calls {n}" for n in sample[30:60]]
        + [f"what depends on {n}" for n in sample[60:75]]
        + [
            "how are sockets closed on timeout",
            "parse command line options",
            "compress data with zlib",
            "read a csv file into rows",
            "format dates in iso format",
            "escape html entities",
            "spawn a subprocess and wait",
            "thread pool executor shutdown",
            "decode json text",
            "temporary directory cleanup",
        ]
        * 2
        + [f'"{n}"' for n in sample[75:95]]
    )
    timings = []
    for query in queries:
        t = time.perf_counter()
        api.intelligent_search(query)
        timings.append(time.perf_counter() - t)
    emit(
        bench="retrieval",
        metric="latency",
        tool="intelligent_search",
        target_p95_ms=150,
        **percentiles(timings),
    )
    # selective literals: identifiers that occur in at most two files of the corpus
    literals = [n for n in sample[95:] if len({s.path for s in api.store.search_literal(n, 500)}) <= 2][:50]
    ours = []
    for literal in literals:
        t = time.perf_counter()
        api.search_text(literal, limit=50)
        ours.append(time.perf_counter() - t)
    line = {
        "bench": "retrieval",
        "metric": "latency",
        "tool": "search_text(literal, selective)",
        "target_p50_ms": 10,
        **percentiles(ours),
    }
    rg = shutil.which("rg")
    if rg:
        theirs = []
        for literal in literals:
            t = time.perf_counter()
            subprocess.run(
                [rg, "-F", "-i", "-n", "--max-count", "50", literal, str(root)], capture_output=True
            )
            theirs.append(time.perf_counter() - t)
        line["rg"] = percentiles(theirs)
        line["speedup_vs_rg_p50"] = round(statistics.median(theirs) / statistics.median(ours), 1)
    emit(**line)
    api.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embeddings", choices=["none", "local"], default="none")
    parser.add_argument("--skip-latency", action="store_true")
    parser.add_argument("--skip-quality", action="store_true")
    parser.add_argument("--stdlib-files", type=int, default=None)
    args = parser.parse_args()
    embedder = None
    if args.embeddings == "local":
        from maguyva.embed.base import EmbeddingSettings, make_embedder

        embedder = make_embedder(EmbeddingSettings.from_config({"backend": "local"}))
    queries = [json.loads(line) for line in QUERIES.read_text().splitlines() if line.strip()]
    with tempfile.TemporaryDirectory(prefix="bench-retrieval-") as tmp:
        base = Path(tmp)
        if not args.skip_quality:
            apis = {name: open_corpus(name, base, embedder) for name in ("self", "jinja2")}
            quality(apis, queries, semantic=embedder is not None)
            for api in apis.values():
                api.close()
        if not args.skip_latency:
            latency(base, args.stdlib_files)


if __name__ == "__main__":
    main()
