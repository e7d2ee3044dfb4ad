"""Maguyva index benchmark: cold index speed, peak RSS, DB size, one-file update latency, PageRank.

Corpora: this repository's files (tracked and untracked, not ignored) and the running
interpreter's standard library, each copied into a temp git repository (the one-file update
benchmark edits files, so nothing runs on a real working tree). Prints one JSON line per
measurement. ``--files N`` adds a cold run over a corpus of at least N files: the stdlib plus
the ``.py`` / ``.md`` files of the running interpreter's site-packages (the issue #3 RSS target is
for 10,000 files). Usage: python bench/bench_index.py [--repo PATH] [--updates N] [--skip-stdlib] [--files N]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
COLD = """
import json, resource, sys, time
from maguyva.index.pipeline import index_repository
start = time.perf_counter()
summary = index_repository(sys.argv[1], sys.argv[2], full=True)
seconds = time.perf_counter() - start
rss = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(json.dumps({"files": summary.files, "symbols": summary.symbols, "edges": summary.edges,
                  "seconds": seconds, "peak_rss_mb": rss / 1024}))
"""


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


def copy_repo(source: Path, target: Path) -> Path:
    listed = git(source, "ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0")
    for rel in filter(None, listed):
        path = source / rel
        if path.is_file() and not path.is_symlink():
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target / rel)
    git(target, "init", "-q")
    return target


def copy_stdlib(target: Path) -> Path:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    shutil.copytree(
        stdlib, target, ignore=shutil.ignore_patterns("site-packages", "__pycache__", "*.pyc"), symlinks=True
    )
    git(target, "init", "-q")
    return target


def copy_large(target: Path, files: int) -> Path:
    """The stdlib, then site-packages ``.py`` / ``.md`` files in path order, until ``files`` are copied."""
    copy_stdlib(target)
    count = sum(1 for p in target.rglob("*") if p.is_file() and ".git" not in p.parts)
    site = Path(sysconfig.get_paths()["purelib"])
    for path in sorted(site.rglob("*")):
        if count >= files:
            break
        if path.suffix in (".py", ".md") and path.is_file() and not path.is_symlink():
            destination = target / "packages" / path.relative_to(site)
            destination.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, destination)
            count += 1
    return target


def line_count(root: Path, store: Path) -> int:
    import sqlite3
    import zlib

    con = sqlite3.connect(store)
    try:
        texts = con.execute("SELECT text FROM files_text")  # zlib-compressed UTF-8 since schema 7
        return sum(zlib.decompress(packed).count(b"\n") + 1 for (packed,) in texts)
    finally:
        con.close()


def cold(name: str, root: Path, store: Path, sha: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", COLD, str(root), str(store)],
        check=True,
        capture_output=True,
        text=True,
        cwd=REPO,
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    size = sum(p.stat().st_size for p in store.parent.glob(store.name + "*"))
    lines = line_count(root, store)
    return {
        "name": f"cold_index/{name}",
        "corpus_sha": sha,
        "n": result["files"],
        "files_per_s": round(result["files"] / result["seconds"], 1),
        "lines_per_s": round(lines / result["seconds"]),
        "seconds": round(result["seconds"], 2),
        "lines": lines,
        "symbols": result["symbols"],
        "edges": result["edges"],
        "peak_rss_mb": round(result["peak_rss_mb"]),
        "db_mb": round(size / 1e6, 1),
    }


def updates(name: str, root: Path, store: Path, count: int, sha: str) -> dict:
    from maguyva.index.pipeline import index_repository

    python_files = sorted(
        (p for p in root.rglob("*.py") if ".git" not in p.parts), key=lambda p: p.stat().st_size
    )
    target = python_files[len(python_files) // 2]  # a median-sized file
    original = target.read_bytes()
    timings = []
    try:
        for i in range(count):
            target.write_bytes(original + f"\n\ndef bench_added_{i}():\n    return {i}\n".encode())
            start = time.perf_counter()
            summary = index_repository(root, store)
            timings.append(time.perf_counter() - start)
            assert summary.changed == 1, summary
    finally:
        target.write_bytes(original)
        index_repository(root, store)
    timings.sort()
    return {
        "name": f"one_file_update/{name}",
        "corpus_sha": sha,
        "n": count,
        "file": str(target.relative_to(root)),
        "p50_ms": round(statistics.median(timings) * 1000, 1),
        "p95_ms": round(timings[max(0, int(len(timings) * 0.95) - 1)] * 1000, 1),
    }


def pagerank_compare(name: str, store: Path, sha: str) -> dict:
    from collections import Counter

    import networkx as nx

    from maguyva.index.graph import pagerank
    from maguyva.store import open_store

    db = open_store(store)
    links = Counter(
        ((e.src_path, e.src_symbol or ""), (e.dst_path, e.dst_symbol or "")) for e in db.all_edges()
    )
    db.close()
    pagerank(Counter({("a", "b"): 1}))  # import numpy outside the timing
    start = time.perf_counter()
    ours = pagerank(links)
    mid = time.perf_counter()
    graph = nx.DiGraph()
    graph.add_weighted_edges_from((s, d, w) for (s, d), w in links.items())
    theirs = nx.pagerank(graph, weight="weight")
    end = time.perf_counter()
    return {
        "name": f"pagerank/{name}",
        "corpus_sha": sha,
        "n": len(ours),
        "numpy_ms": round((mid - start) * 1000, 1),
        "networkx_ms": round((end - mid) * 1000, 1),
        "max_abs_diff": max(abs(ours[k] - theirs[k]) for k in ours) if ours else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repo", type=Path, default=REPO)
    parser.add_argument("--updates", type=int, default=20)
    parser.add_argument("--skip-stdlib", action="store_true")
    parser.add_argument(
        "--files", type=int, default=0, help="also a cold run over a corpus of at least N files"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench_index_") as tmp:
        corpora = [("repo", copy_repo(args.repo.resolve(), Path(tmp) / "repo"))]
        if not args.skip_stdlib:
            corpora.append(("stdlib", copy_stdlib(Path(tmp) / "stdlib")))
        for name, root in corpora:
            sha = (
                git(args.repo, "rev-parse", "--short", "HEAD").strip()
                if name == "repo"
                else f"python-{sys.version.split()[0]}"
            )
            store = Path(tmp) / f"{name}.db"
            print(json.dumps(cold(name, root, store, sha)), flush=True)
            print(json.dumps(updates(name, root, store, args.updates, sha)), flush=True)
            print(json.dumps(pagerank_compare(name, store, sha)), flush=True)
        if args.files:
            root = copy_large(Path(tmp) / "large", args.files)
            sha = f"python-{sys.version.split()[0]}+site-packages"
            print(
                json.dumps(cold(f"stdlib+site-packages/{args.files}", root, Path(tmp) / "large.db", sha)),
                flush=True,
            )


if __name__ == "__main__":
    main()
