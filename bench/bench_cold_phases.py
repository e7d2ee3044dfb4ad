"""A cold index's phases: wall time of the extraction, the resolution (with the bulk load's steps the
parent takes meanwhile), the graph (centrality beside the last index builds) and the tail (commit,
move into place), and the CPU of the parent and of its children after the extraction. One JSON line
per run; run it alternately with ``PYTHONPATH`` on two checkouts to compare them (issue #17).

Usage: PYTHONPATH=CHECKOUT python bench/bench_cold_phases.py [--root /work/bc/stdlib] [--repeat 1]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path


def _cpu() -> tuple[float, float]:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime


def run(root: Path) -> dict:
    from maguyva.index.pipeline import index_repository

    marks: dict[str, tuple[float, float, float]] = {}

    def progress(stage: str, done: int, total: int) -> None:
        if (stage, done) in (("resolve", 0), ("graph", 0), ("graph", 1)):
            marks[f"{stage}{done}"] = (time.perf_counter(), *_cpu())

    scratch = Path(tempfile.mkdtemp(prefix="bench-cold-phases-"))
    try:
        start = time.perf_counter()
        index_repository(root, scratch / "index.db", full=True, progress=progress)
        end = (time.perf_counter(), *_cpu())
    finally:
        shutil.rmtree(scratch)
    resolve, graph, graphed = marks["resolve0"], marks["graph0"], marks["graph1"]
    # a child's CPU counts once it is reaped: the extraction pool's by resolve0, the resolution pool's by graph0
    return {
        "total_s": round(end[0] - start, 2),
        "extract_s": round(resolve[0] - start, 2),
        "after_extract_s": round(end[0] - resolve[0], 2),
        "resolve_s": round(graph[0] - resolve[0], 2),
        "graph_s": round(graphed[0] - graph[0], 2),
        "tail_s": round(end[0] - graphed[0], 2),
        "after_extract_parent_cpu_s": round(end[1] - resolve[1], 2),
        "after_extract_children_cpu_s": round(end[2] - resolve[2], 2),
        "cpu_s": round(end[1] + end[2], 2),
        "load": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("/work/bc/stdlib"))
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    for _ in range(args.repeat):
        print(json.dumps({"name": f"cold_phases/{args.root.name}", **run(args.root)}), flush=True)


if __name__ == "__main__":
    main()
