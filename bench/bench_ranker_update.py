"""One-file index updates with the ranker's BM25F cache prepared, next to the floor without it.

A git checkout (``--tree``, e.g. ``git archive HEAD | tar -x -C /tmp/upd`` then ``git init`` and a
commit) is indexed once from nothing; then, ``--rounds`` times, one file (``--file``) gets a new
function and the tree is indexed again, alternately with ``maguyva.retrieve.cache.prepare`` and
with it replaced by a no-op (the floor: every other stage of the update). The first round is a
warm-up. The file is restored at the end. Prints one JSON line per mode (median and each run, ms).
Run it from ``git archive`` of an older commit (``PYTHONPATH=...``) to time the code before a change
in the same sitting. Usage:
python bench/bench_ranker_update.py --tree /tmp/upd [--store /tmp/upd.db] [--file PATH] [--rounds 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy  # noqa: F401  imported up front: not an update's cost

import maguyva.retrieve.cache as cache
from maguyva.index.pipeline import index_repository


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tree", type=Path, required=True)
    parser.add_argument("--store", type=Path, default=None)
    parser.add_argument("--file", default="maguyva/retrieve/fuse.py")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    store = args.store or args.tree.with_name(args.tree.name + ".db")
    start = time.perf_counter()
    index_repository(args.tree, store, full=True)
    print(json.dumps({"cold_s": round(time.perf_counter() - start, 2), "files": _files(store)}))
    edited = args.tree / args.file
    original = edited.read_text()
    real = cache.prepare
    times: dict[str, list[float]] = {"with_ranker": [], "floor_without_ranker": []}
    try:
        for round_ in range(args.rounds):
            for mode in times:
                edited.write_text(original + f"\n\ndef added_{round_}_{time.time_ns()}():\n    return 1\n")
                cache.prepare = real if mode == "with_ranker" else (lambda *a, **k: None)
                start = time.perf_counter()
                index_repository(args.tree, store)
                if round_:
                    times[mode].append((time.perf_counter() - start) * 1000)
    finally:
        edited.write_text(original)
        cache.prepare = real
    for mode, runs in times.items():
        print(
            json.dumps(
                {
                    "mode": mode,
                    "median_ms": round(statistics.median(runs)),
                    "runs_ms": [round(t) for t in runs],
                }
            )
        )


def _files(store: Path) -> int:
    from maguyva.store import open_store

    opened = open_store(store, readonly=True)
    try:
        return len(opened.file_states())
    finally:
        opened.close()


if __name__ == "__main__":
    main()
