"""The benchmarks a refactor's moved code serves, on two trees in the same run (#33).

Runs each tree's own bench scripts with ``PYTHONPATH`` set to that tree, so the same interpreter
and installed dependencies time the old code and the new. Rounds alternate which tree goes first,
so a load spike on this shared machine lands on both sides. Prints one JSON line per measurement
and tree, then a table of the median of each numeric figure, before → after, with the ratio.

* ``cli``: ``bench_cli.py --only-floors`` — CLI start-up next to ``python -c "import typer"``.
* ``sync``: ``bench_sync.py --cli`` — the no-op ``orkestra sync`` next to ``python -c pass``.
* ``mine``: ``bench_mine.py`` — ``mine sync``, incremental sync and the changelog render.
* ``floor``: ``bench_mine_scale.py`` — ``mine sync --full`` next to the git commands it runs, alone.
* ``index``: ``bench_index.py --skip-stdlib`` — a cold index and one-file updates of one fixed
  corpus (``--corpus``, the *before* tree by default, so both sides index the same files).

    .venv/bin/python bench/bench_before_after.py --before /path/to/old/checkout [--rounds 2]
        [--only cli,sync,mine,floor,index] [--commits 3000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

AFTER = Path(__file__).resolve().parent.parent
LABELS = ("name", "bench", "measure", "command", "corpus", "what")
# the figures the table compares; counts (files, commits, agents…) are the same on both sides
FIGURES = ("ms", "_s", "seconds", "per_s", "ratio", "rss", "mb", "pss")


def commands(args: argparse.Namespace, corpus: Path) -> dict[str, list[str]]:
    return {
        "cli": ["bench_cli.py", "--only-floors", "--repeat", str(args.repeat)],
        "sync": ["bench_sync.py", "--cli", "--repeat", str(args.repeat * 2)],
        "mine": ["bench_mine.py", "--commits", str(args.commits), "--repeat", "1"],
        "floor": ["bench_mine_scale.py", "--commits", str(args.commits * 5)],
        "index": ["bench_index.py", "--skip-stdlib", "--repo", str(corpus), "--updates", "5"],
    }


def run(tree: Path, argv: list[str]) -> list[dict]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, str(tree / "bench" / argv[0]), *argv[1:]],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    if done.returncode:
        print(done.stderr[-2000:], file=sys.stderr)
        raise SystemExit(f"{tree}: {' '.join(argv)} exited {done.returncode}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def label(line: dict, position: int) -> str:
    named = [str(line[key]) for key in LABELS if isinstance(line.get(key), str)]
    return "/".join(named) or f"#{position}"


def numbers(line: dict, prefix: str = "") -> dict[str, float]:
    """Every numeric leaf of one JSON line, keyed by its dotted path."""
    found: dict[str, float] = {}
    for key, value in line.items():
        if isinstance(value, bool):
            continue
        if isinstance(value, (int, float)):
            found[prefix + key] = float(value)
        elif isinstance(value, dict):
            found |= numbers(value, f"{prefix}{key}.")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", type=Path, required=True, help="a checkout of the old code")
    parser.add_argument("--after", type=Path, default=AFTER, help="the new code (this checkout)")
    parser.add_argument("--corpus", type=Path, help="the tree the index bench indexes (default: --before)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--commits", type=int, default=3000)
    parser.add_argument("--only", default="cli,sync,mine,floor,index")
    args = parser.parse_args()
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    table = commands(args, (args.corpus or args.before).resolve())
    figures: dict[tuple[str, str, str], dict[str, list[float]]] = {}
    for bench in args.only.split(","):
        for round_ in range(args.rounds):
            order = list(trees.items()) if round_ % 2 == 0 else list(trees.items())[::-1]
            for side, tree in order:
                for position, line in enumerate(run(tree, table[bench])):
                    print(json.dumps({"bench": bench, "side": side, "round": round_, **line}), flush=True)
                    for metric, value in numbers(line).items():
                        key = (bench, label(line, position), metric)
                        figures.setdefault(key, {}).setdefault(side, []).append(value)
    print(f"\n{'bench':6} {'measurement':42} {'figure':34} {'before':>11} {'after':>11} {'after/before':>12}")
    for (bench, name, metric), sides in figures.items():
        if "before" not in sides or "after" not in sides or not any(f in metric for f in FIGURES):
            continue
        old, new = statistics.median(sides["before"]), statistics.median(sides["after"])
        ratio = f"{new / old:.2f}" if old else "-"
        print(f"{bench:6} {name[:42]:42} {metric[:34]:34} {old:11.4g} {new:11.4g} {ratio:>12}")


if __name__ == "__main__":
    main()
