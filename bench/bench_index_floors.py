"""Issue #17's index targets, each printed next to its floor measured in the same run.

* cold index (a fresh process, ``index_repository(full=True)``) against a plain tree-sitter parse of
  the same files with the same number of processes (a fork pool of ``worker_count()`` workers that
  read each file and parse it, nothing else);
* database size (after a WAL checkpoint) against the bytes of the files it indexes;
* literal search p50, in-process (``maguyva.retrieve.text.literal``), over selective identifiers;
* the no-change incremental check (``index_repository`` with nothing changed, in-process) against
  ``git status --porcelain`` on the same tree;
* one-file update p50 / p95 (a median-sized file edited, then ``index_repository``).

Corpora: the running interpreter's stdlib copied into a temp git repository (as bench_index.py),
and a work tree of svelte cloned from a bare mirror (``--svelte-mirror``); ``--root NAME=REPO``
clones a git repository instead (e.g. ``--root stdlib=/work/bc/stdlib``: the edits of the update
figure then touch the clone only). ``--figures`` picks some of cold (with db_size), literal,
no_change and update. The db_size line lists the largest tables and indexes (SQLite's dbstat).
One JSON line per figure.
Usage: python bench/bench_index_floors.py [--corpus stdlib,svelte] [--root NAME=REPO] [--updates 20]
       [--repeat 5] [--figures cold,literal,no_change,update]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_index import copy_stdlib, git

REPO = Path(__file__).resolve().parent.parent
SVELTE_MIRROR = Path("/work/.mirror/sveltejs+svelte/repo")
CODE = REPO  # the checkout whose maguyva is measured (--code: e.g. main, for a same-run baseline)

CPU = """
import resource
def cpu(who=None):
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    own, kids = own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime
    return {"parent": own, "children": kids}[who] if who else own + kids
"""
COLD = (
    CPU
    + """
import json, sys, time
from maguyva.index.pipeline import index_repository
start = time.perf_counter()
index_repository(sys.argv[1], sys.argv[2], full=True)
print(json.dumps({"seconds": time.perf_counter() - start, "cpu": cpu(), "parent_cpu": cpu("parent")}))
"""
)

PARSE = (
    CPU
    + """
import json, multiprocessing, sys, time
from pathlib import Path
start = time.perf_counter()
from maguyva.index.languages import grammar, has_query
from maguyva.index.parse import parse_source
from maguyva.index.scan import scan_repository
from maguyva.index.workers import worker_count
root = Path(sys.argv[1])
records = [(s.record.path, s.record.language) for s in scan_repository(root).files if has_query(s.record.language)]
for language in {language for _, language in records}:
    grammar(language)

def parse(job):
    for path, language in job:
        parse_source(path, language, (root / path).read_bytes(), 10_000)
    return len(job)

jobs = [records[i:i + 8] for i in range(0, len(records), 8)]
with multiprocessing.get_context("fork").Pool(worker_count()) as pool:
    parsed = sum(pool.imap_unordered(parse, jobs))
print(json.dumps({"seconds": time.perf_counter() - start, "cpu": cpu(), "files": parsed, "workers": worker_count()}))
"""
)


def _cpu() -> float:
    import resource

    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def in_fresh_process(script: str, *args: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", script, *args],
        check=True,
        capture_output=True,
        text=True,
        cwd=CODE,  # python -c puts the working directory first on sys.path
        env={**os.environ, "PYTHONPATH": str(CODE)},
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def db_bytes(store: Path) -> int:
    con = sqlite3.connect(store)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return sum(p.stat().st_size for p in store.parent.glob(store.name + "*"))


def source_bytes(store: Path) -> int:
    con = sqlite3.connect(store)
    try:
        return con.execute("SELECT sum(size) FROM files").fetchone()[0] or 0
    finally:
        con.close()


def table_sizes(store: Path, top: int = 12) -> dict[str, float]:
    """MB per table and index (FTS5 shadow tables by their own names), largest first."""
    con = sqlite3.connect(store)
    try:
        rows = con.execute(
            "SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT ?", (top,)
        ).fetchall()
    finally:
        con.close()
    return {name: round(size / 1e6, 1) for name, size in rows}


def cold(name: str, root: Path, store: Path) -> None:
    # alternate so that load drifts fall on both alike; the floor first warms the page cache for both
    parse = in_fresh_process(PARSE, str(root))
    index = in_fresh_process(COLD, str(root), str(store))
    parse2 = in_fresh_process(PARSE, str(root))
    floor = min(parse["seconds"], parse2["seconds"])
    floor_cpu = min(parse["cpu"], parse2["cpu"])
    print(
        json.dumps(
            {
                "name": f"cold_index/{name}",
                "seconds": round(index["seconds"], 2),
                "floor": "tree-sitter parse, same processes",
                "floor_seconds": round(floor, 2),
                "workers": parse["workers"],
                "parsed_files": parse["files"],
                "ratio": round(index["seconds"] / floor, 2),
                "cpu_s": round(index["cpu"], 2),
                "floor_cpu_s": round(floor_cpu, 2),
                "cpu_ratio": round(index["cpu"] / floor_cpu, 2),
                # the parent's share (stores every row; the workers extract and resolve)
                "parent_cpu_s": round(index["parent_cpu"], 2),
                "target": "<= 2.5",
            }
        ),
        flush=True,
    )
    size, source = db_bytes(store), source_bytes(store)
    print(
        json.dumps(
            {
                "name": f"db_size/{name}",
                "db_mb": round(size / 1e6, 1),
                "source_mb": round(source / 1e6, 1),
                "ratio": round(size / source, 2),
                "target": "<= 3",
                "tables_mb": table_sizes(store),
            }
        ),
        flush=True,
    )


def literal_search(name: str, store: Path, queries: int = 50) -> None:
    from maguyva.retrieve.text import literal
    from maguyva.store import open_store

    db = open_store(store, readonly=True)
    try:
        # schema 9 keeps a symbol's file as files.id (symbols.file), schemas 7 and 8 its path
        column = "file" if "file" in {c[1] for c in db.db.execute("PRAGMA table_info(symbols)")} else "path"
        names = [
            n
            for (n,) in db.db.execute(
                f"SELECT name FROM symbols WHERE length(name) >= 10 GROUP BY name HAVING count(DISTINCT {column}) <= 2"
            )
        ]
        random.Random(17).shuffle(names)
        literal(db, "warm up")
        timings, hits = [], 0
        for text in names[:queries]:
            start = time.perf_counter()
            found = literal(db, text, limit=20)
            timings.append(time.perf_counter() - start)
            hits += bool(found)
    finally:
        db.close()
    timings.sort()
    print(
        json.dumps(
            {
                "name": f"literal_search/{name}",
                "n": len(timings),
                "found": hits,
                "p50_ms": round(statistics.median(timings) * 1000, 2),
                "p95_ms": round(timings[max(0, int(len(timings) * 0.95) - 1)] * 1000, 2),
                "target": "p50 <= 10 ms",
            }
        ),
        flush=True,
    )


def no_change(name: str, root: Path, store: Path, repeat: int) -> None:
    """Both listings against ``git status``: the quick one (git's index as the last run saw it: status
    alone), and the full one (the record dropped, as after a commit or a stat refresh moved git's
    index: status, then ls-files and every stored state)."""
    from maguyva.index.pipeline import index_repository

    index_repository(root, store)  # settle: racy stamps from the cold run get their real value
    index_repository(root, store)
    for listing in ("quick", "full"):
        ours, floor = [], []
        for _ in range(repeat):
            if listing == "full":
                con = sqlite3.connect(store)
                con.execute("DELETE FROM meta WHERE key = 'listing'")
                con.commit()
                con.close()
            start = time.perf_counter()
            subprocess.run(["git", "-C", str(root), "status", "--porcelain"], check=True, capture_output=True)
            floor.append(time.perf_counter() - start)
            start = time.perf_counter()
            summary = index_repository(root, store)
            ours.append(time.perf_counter() - start)
            assert summary.added == summary.changed == summary.deleted == 0, summary
        ours_s, floor_s = statistics.median(ours), statistics.median(floor)
        print(
            json.dumps(
                {
                    "name": f"no_change_check/{name}",
                    "listing": listing,
                    "files": summary.files,
                    "n": repeat,
                    "median_ms": round(ours_s * 1000, 1),
                    "floor": "git status --porcelain",
                    "floor_ms": round(floor_s * 1000, 1),
                    "ratio": round(ours_s / floor_s, 2),
                    "target": "<= 2",
                }
            ),
            flush=True,
        )


def one_file_update(name: str, root: Path, store: Path, count: int) -> None:
    from maguyva.index.pipeline import index_repository

    suffixes = (".py",) if name == "stdlib" else (".js", ".ts")
    candidates = sorted(
        (
            p
            for p in root.rglob("*")
            if p.suffix in suffixes
            and ".git" not in p.parts
            and "node_modules" not in p.parts
            and p.is_file()
            and not p.is_symlink()
        ),
        key=lambda p: (p.stat().st_size, str(p)),
    )
    target = candidates[len(candidates) // 2]
    original = target.read_bytes()
    added = (
        "\n\ndef bench_added_{i}():\n    return {i}\n"
        if name == "stdlib"
        else "\n\nexport function bench_added_{i}() {{ return {i}; }}\n"
    )
    timings, cpu = [], []
    try:
        for i in range(count):
            target.write_bytes(original + added.format(i=i).encode())
            start, start_cpu = time.perf_counter(), _cpu()
            summary = index_repository(root, store)
            timings.append(time.perf_counter() - start)
            cpu.append(_cpu() - start_cpu)
            assert summary.changed == 1, summary
    finally:
        target.write_bytes(original)
        index_repository(root, store)
    timings.sort()
    print(
        json.dumps(
            {
                "name": f"one_file_update/{name}",
                "n": count,
                "file": str(target.relative_to(root)),
                "p50_ms": round(statistics.median(timings) * 1000, 1),
                "p95_ms": round(timings[max(0, int(len(timings) * 0.95) - 1)] * 1000, 1),
                "cpu_p50_ms": round(statistics.median(cpu) * 1000, 1),  # with git's, across both cores
                "target": "p95 <= 250 ms",
            }
        ),
        flush=True,
    )


def svelte_tree(target: Path, mirror: Path) -> Path:
    """A work tree cloned from ``mirror`` (a bare or a work-tree repository)."""
    subprocess.run(["git", "clone", "-q", str(mirror), str(target)], check=True)
    return target


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--corpus", default="stdlib,svelte")
    parser.add_argument("--svelte-mirror", type=Path, default=SVELTE_MIRROR)
    parser.add_argument("--updates", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=None, help="scratch directory (default: a temp dir)")
    parser.add_argument(
        "--root",
        action="append",
        default=[],
        metavar="NAME=REPO",
        help="clone this git repository as corpus NAME",
    )
    parser.add_argument("--figures", default="cold,literal,no_change,update")
    parser.add_argument("--code", type=Path, default=REPO, help="checkout whose maguyva is measured")
    args = parser.parse_args()
    global CODE
    CODE = args.code.resolve()
    sys.path.insert(0, str(CODE))
    roots = dict(item.split("=", 1) for item in args.root)
    figures = set(args.figures.split(","))
    scratch = Path(tempfile.mkdtemp(prefix="bench_floors_", dir=args.dir))
    try:
        for name in args.corpus.split(","):
            if name in roots:
                root = svelte_tree(scratch / name, Path(roots[name]))
            elif name == "stdlib":
                root = copy_stdlib(scratch / "stdlib")
                git(root, "add", "-A")
                git(
                    root, "-c", "user.name=bench", "-c", "user.email=bench@invalid", "commit", "-qm", "corpus"
                )
            elif name == "svelte":
                root = svelte_tree(scratch / "svelte", args.svelte_mirror)
            else:
                raise SystemExit(f"unknown corpus {name!r} (stdlib, svelte)")
            store = scratch / f"{name}.db"
            if "cold" in figures:
                cold(name, root, store)
            else:  # the other figures need an index
                in_fresh_process(COLD, str(root), str(store))
            if "literal" in figures:
                literal_search(name, store)
            if "no_change" in figures:
                no_change(name, root, store, args.repeat)
            if "update" in figures:
                one_file_update(name, root, store, args.updates)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
