"""Retrieval latency and store round trips on a team store holding 3 real repositories.

Clones three small public repositories from the local mirrors (default: requests, flask,
vitsalis/PyCG) into a temp dir, starts a throwaway PostgreSQL cluster (tests/pg_server.py)
unless ``--pg URL`` names one, indexes all three into one workspace, then asks the whole
workspace (``repo=*``) the same questions ROUNDS times and prints, per tool, the p50/p95
latency and the store round trips (SQL statements sent) per answer.

Run it once on the unchanged code and once on the changed code; the figures of both runs sit
next to each other in docs/BENCHMARKS.md ("Team scope: batched store reads")::

    PYTHONPATH=/work/main nice python bench/bench_team_scope.py   # before
    PYTHONPATH=$PWD nice python bench/bench_team_scope.py         # after

The physical floor printed next to each figure is one ``SELECT 1`` round trip on the same
connection, measured in the same run. Prints one JSON line per measurement.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.append(str(HERE / "tests"))  # pg_server; the code under test comes from PYTHONPATH (or this checkout)
try:
    import maguyva  # noqa: F401
except ImportError:
    sys.path.insert(0, str(HERE))
    import maguyva  # noqa: F401

MIRROR = Path("/work/.mirror")
REPOS = ("psf+requests", "pallets+flask", "vitsalis+PyCG")
QUERIES = ["how are redirects followed", "def send", "who calls merge_setting", "session cookies persistence",
           "register a blueprint", "url_for build error", "call graph of a function", "resolve imported module",
           "how is the request context pushed", "parse command line arguments"]
SYMBOLS = ["Session", "Blueprint", "merge_setting", "CallGraphGenerator"]


def emit(**fields) -> None:
    print(json.dumps(fields), flush=True)


def checkout(mirror: Path, target: Path) -> Path:
    subprocess.run(["git", "clone", "-q", "--depth", "1", f"file://{mirror}", str(target)], check=True,
                   capture_output=True)
    return target


def counting(store_class) -> dict:
    """Count every SQL statement the store's reads send (``_rows`` / ``_one``)."""
    counter = {"n": 0}
    for name in ("_rows", "_one"):
        original = getattr(store_class, name)

        def wrapped(self, *args, _original=original, **kwargs):
            counter["n"] += 1
            return _original(self, *args, **kwargs)

        setattr(store_class, name, wrapped)
    return counter


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def measure(team, counter: dict, tool: str, calls: list, rounds: int) -> dict:
    for call in calls:  # warm: the file index, the embedder-less route, the connection
        call(team)
    timings, trips = [], []
    for _ in range(rounds):
        for call in calls:
            before = counter["n"]
            started = time.perf_counter()
            call(team)
            timings.append((time.perf_counter() - started) * 1000)
            trips.append(counter["n"] - before)
    return {"tool": tool, "calls": len(timings), "p50_ms": round(statistics.median(timings), 1),
            "p95_ms": round(percentile(timings, 0.95), 1), "round_trips_mean": round(statistics.mean(trips), 1),
            "round_trips_max": max(trips)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pg", help="an existing postgresql:// server (default: a throwaway cluster)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    from maguyva.index.pipeline import index_repository
    from maguyva.store.postgres.store import PostgresStore
    from maguyva.workspace import TeamWorkspace

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
                summary = index_repository(root, f"{url}?workspace={workspace}&repo={root.name}", full=True,
                                           workers=1)
                emit(name="index", repo=root.name, files=summary.files, symbols=summary.symbols,
                     seconds=round(time.perf_counter() - started, 1))
            counter = counting(PostgresStore)
            team = TeamWorkspace(f"{url}?workspace={workspace}")
            try:
                floor = []
                for _ in range(50):
                    started = time.perf_counter()
                    team.conn.execute("SELECT 1").fetchone()
                    floor.append((time.perf_counter() - started) * 1000)
                floor_ms = round(statistics.median(floor), 3)
                code = str(Path(sys.modules["maguyva"].__file__).parent.parent)
                search = [lambda t, q=q: t.intelligent_search(q, limit=10) for q in QUERIES]
                context = [lambda t, q=q: t.gather_task_context(q, token_budget=4000) for q in QUERIES[:4]]
                symbols = [lambda t, s=s: t.find_symbol(s) for s in SYMBOLS]
                for tool, calls in (("intelligent_search", search), ("gather_task_context", context),
                                    ("find_symbol", symbols)):
                    row = measure(team, counter, tool, calls, args.rounds)
                    emit(name="team_scope", repos=len(REPOS), code=code, round_trip_floor_ms=floor_ms, **row)
            finally:
                team.close()
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
