"""Retrieval latency and store round trips on a team store holding 3 real repositories.

Clones three small public repositories from the local mirrors (default: requests, flask,
vitsalis/PyCG) into a temp dir, starts a throwaway PostgreSQL cluster (tests/pg_server.py)
unless ``--pg URL`` names one, indexes all three into one workspace, then asks the whole
workspace (``repo=*``) the same questions ROUNDS times and prints, per tool, the p50/p95
latency and the store round trips (SQL statements sent) per answer.

Compare two checkouts in one run (``--code`` twice: before, then after). Each measuring process
runs one code base against the same indexed workspace, and the processes are interleaved so both
see the same machine load; the ratio line compares their medians (docs/BENCHMARKS.md, "Team
scope: batched store reads")::

    nice python bench/bench_team_scope.py --code /work/main --code $PWD

The physical floor printed next to each figure is one ``SELECT 1`` round trip on the same
connection, measured in the same process. Prints one JSON line per measurement.
"""

from __future__ import annotations

import argparse
import collections
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.append(str(HERE / "tests"))  # pg_server; the code under test comes from PYTHONPATH
if importlib.util.find_spec("maguyva") is None:  # or from this checkout
    sys.path.insert(0, str(HERE))

MIRROR = Path("/work/.mirror")
REPOS = ("psf+requests", "pallets+flask", "vitsalis+PyCG")
QUERIES = [
    "how are redirects followed",
    "def send",
    "who calls merge_setting",
    "session cookies persistence",
    "register a blueprint",
    "url_for build error",
    "call graph of a function",
    "resolve imported module",
    "how is the request context pushed",
    "parse command line arguments",
]
SYMBOLS = ["Session", "Blueprint", "merge_setting", "CallGraphGenerator"]


def emit(**fields) -> None:
    print(json.dumps(fields), flush=True)


def checkout(mirror: Path, target: Path) -> Path:
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{mirror}", str(target)],
        check=True,
        capture_output=True,
    )
    return target


def counting(store_class) -> dict:
    """Count every SQL statement the store's reads send (``_rows`` / ``_one``), and which method sent it."""
    counter = {"n": 0, "by": collections.Counter()}
    for name in ("_rows", "_one"):
        original = getattr(store_class, name)

        def wrapped(self, *args, _original=original, **kwargs):
            counter["n"] += 1
            frame = sys._getframe(1)
            caller = frame.f_code.co_name
            if caller.startswith("_"):  # a shared helper (_symbols, _edges): name the public read above it
                caller = frame.f_back.f_code.co_name
            counter["by"][caller] += 1
            return _original(self, *args, **kwargs)

        setattr(store_class, name, wrapped)
    return counter


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def measure(team, counter: dict, tool: str, calls: list, rounds: int) -> dict:
    for call in calls:  # warm: the file index, the embedder-less route, the connection
        call(team)
    timings, trips = [], []
    counter["by"].clear()
    for _ in range(rounds):
        for call in calls:
            before = counter["n"]
            started = time.perf_counter()
            call(team)
            timings.append((time.perf_counter() - started) * 1000)
            trips.append(counter["n"] - before)
    return {
        "tool": tool,
        "calls": len(timings),
        "p50_ms": round(statistics.median(timings), 1),
        "p95_ms": round(percentile(timings, 0.95), 1),
        "round_trips_mean": round(statistics.mean(trips), 1),
        "round_trips_max": max(trips),
        "reads_per_call": {k: round(v / len(timings), 1) for k, v in counter["by"].most_common(6)},
    }


def measure_child(url: str, rounds: int) -> None:
    """One process, one code base: warm, then measure every tool over the workspace at ``url``."""
    from maguyva.store.postgres.store import PostgresStore
    from maguyva.workspace import TeamWorkspace

    counter = counting(PostgresStore)
    team = TeamWorkspace(url)
    try:
        floor = []
        for _ in range(50):
            started = time.perf_counter()
            team.conn.execute("SELECT 1").fetchone()
            floor.append((time.perf_counter() - started) * 1000)
        search = [lambda t, q=q: t.intelligent_search(q, limit=10) for q in QUERIES]
        context = [lambda t, q=q: t.gather_task_context(q, token_budget=4000) for q in QUERIES[:4]]
        symbols = [lambda t, s=s: t.find_symbol(s) for s in SYMBOLS]
        for tool, calls in (
            ("intelligent_search", search),
            ("gather_task_context", context),
            ("find_symbol", symbols),
        ):
            row = measure(team, counter, tool, calls, rounds)
            emit(round_trip_floor_ms=round(statistics.median(floor), 3), **row)
    finally:
        team.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pg", help="an existing postgresql:// server (default: a throwaway cluster)")
    parser.add_argument(
        "--code",
        action="append",
        default=[],
        help="a checkout whose maguyva is measured; repeat to compare (default: this one)",
    )
    parser.add_argument(
        "--rounds", type=int, default=5, help="measuring processes per code base, interleaved"
    )
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # child mode: the workspace URL
    args = parser.parse_args()
    if args.measure:
        measure_child(args.measure, 1)
        return

    from maguyva.index.pipeline import index_repository

    codes = args.code or [str(HERE)]
    server = None
    if args.pg is None:
        from pg_server import TempPostgres

        server = TempPostgres().start()
    url = args.pg or server.url
    workspace = f"scope{int(time.time())}"
    try:
        with tempfile.TemporaryDirectory(prefix="bench-scope-", dir="/tmp") as base:
            for name in REPOS:
                root = checkout(MIRROR / name / "repo", Path(base) / name.split("+")[1])
                started = time.perf_counter()
                summary = index_repository(
                    root, f"{url}?workspace={workspace}&repo={root.name}", full=True, workers=1
                )
                emit(
                    name="index",
                    repo=root.name,
                    files=summary.files,
                    symbols=summary.symbols,
                    seconds=round(time.perf_counter() - started, 1),
                )
            rows: dict = collections.defaultdict(list)
            for _ in range(args.rounds):  # interleaved, so both code bases see the same machine load
                for code in codes:
                    child = subprocess.run(
                        [sys.executable, __file__, "--measure", f"{url}?workspace={workspace}"],
                        env={**os.environ, "PYTHONPATH": code},
                        capture_output=True,
                        text=True,
                        check=False,
                    )
                    if child.returncode != 0:
                        raise SystemExit(f"measuring {code} failed:\n{child.stderr}")
                    for line in child.stdout.splitlines():
                        row = json.loads(line)
                        rows[(code, row["tool"])].append(row)
            summary_rows = {}
            for (code, tool), found in rows.items():
                p50 = statistics.median(r["p50_ms"] for r in found)
                summary_rows[(code, tool)] = p50
                emit(
                    name="team_scope",
                    repos=len(REPOS),
                    code=code,
                    tool=tool,
                    processes=len(found),
                    p50_ms=round(p50, 1),
                    p95_ms=round(statistics.median(r["p95_ms"] for r in found), 1),
                    round_trips_mean=found[-1]["round_trips_mean"],
                    round_trips_max=found[-1]["round_trips_max"],
                    round_trip_floor_ms=found[-1]["round_trip_floor_ms"],
                    reads_per_call=found[-1]["reads_per_call"],
                )
            if len(codes) == 2:
                for tool in ("intelligent_search", "gather_task_context", "find_symbol"):
                    before, after = summary_rows[(codes[0], tool)], summary_rows[(codes[1], tool)]
                    emit(name="team_scope_ratio", tool=tool, after_over_before=round(after / before, 3))
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
