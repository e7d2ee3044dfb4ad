"""kill -9 `orkestra code index --full` at random moments: every run must end old-or-new, with no debris.

The CPython standard library is copied into a temp git repository and indexed once (the
baseline: an uninterrupted --full run, timed in this same run). Then, ``--runs`` times, a
rebuild is started and sent SIGKILL after a random delay in [0, 1.1 x baseline]; a rebuild that
finishes first counts as completed. Between runs one file is added or removed, so the old and
new index differ. After each run the store must serve exactly the old state or the new one
(files and symbols counted, ``find_symbol`` answering through the API, ``code status`` exit 0),
and hold nothing but ``index.db`` and its ``-wal`` / ``-shm``. Prints one JSON line per run and
a summary line. ``--compare N`` first times N interleaved pairs of a rebuild from nothing (what
``--full`` did before: delete the file, then index) and an in-place rebuild (clear inside the
transaction), to show what atomicity costs. Usage:
python bench/bench_kill_index.py [--runs 20] [--seed 14] [--source PATH] [--compare N]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_index import REPO, copy_stdlib, git

ALLOWED = {"index.db", "index.db-wal", "index.db-shm"}
EXTRA = "zz_kill_bench_extra.py"
ENV = {**os.environ, "PYTHONPATH": f"{REPO}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}


def index_cmd(root: Path) -> list[str]:
    return [sys.executable, "-m", "orkestra", "code", "index", "--full", str(root)]


def counts(db: Path) -> tuple[int, int]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT (SELECT count(*) FROM files), (SELECT count(*) FROM symbols)").fetchone()
    finally:
        con.close()


def first_answer(root: Path, db: Path, name: str) -> tuple[float, int]:
    """Seconds until a fresh reader answers find_symbol (WAL recovery included), and its count."""
    started = time.perf_counter()
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            (
                "import sys, json; from maguyva.api import Maguyva\n"
                "api = Maguyva.open(sys.argv[1], sys.argv[2]); print(json.dumps(api.find_symbol(sys.argv[3])['count']))"
            ),
            str(root),
            str(db),
            name,
        ],
        capture_output=True,
        text=True,
        env=ENV,
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"no reader could open the index after a kill: {done.stderr}")
    return seconds, json.loads(done.stdout)


def toggle_extra(root: Path) -> None:
    extra = root / EXTRA
    if extra.exists():
        extra.unlink()
    else:
        extra.write_text("def kill_bench_marker():\n    return 1\n")


def compare(root: Path, db: Path, pairs: int) -> None:
    """Interleaved timings: delete-then-index (the old --full) against the in-place, atomic rebuild."""
    fresh, in_place = [], []
    for _ in range(pairs):
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        started = time.perf_counter()
        subprocess.run(index_cmd(root), check=True, capture_output=True, env=ENV)
        fresh.append(time.perf_counter() - started)
        started = time.perf_counter()
        subprocess.run(index_cmd(root), check=True, capture_output=True, env=ENV)
        in_place.append(time.perf_counter() - started)
    print(
        json.dumps(
            {
                "rebuild_from_nothing_s": [round(x, 2) for x in fresh],
                "rebuild_in_place_s": [round(x, 2) for x in in_place],
                "in_place_over_fresh": round(sum(in_place) / sum(fresh), 3),
                "load": os.getloadavg(),
            }
        ),
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--source", type=Path, default=None, help="a directory to copy instead of the stdlib")
    parser.add_argument("--compare", type=int, default=0, help="time N fresh vs in-place rebuild pairs first")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="bench-kill-") as tmp:
        root = Path(tmp) / "corpus"
        if args.source:
            import shutil

            shutil.copytree(args.source, root, symlinks=True)
            git(root, "init", "-q")
        else:
            copy_stdlib(root)
        git(root, "add", "-A")
        git(
            root, "-c", "user.name=bench", "-c", "user.email=bench@example.invalid", "commit", "-qm", "corpus"
        )
        db = root / ".git" / "maguyva" / "index.db"
        started = time.perf_counter()
        subprocess.run(index_cmd(root), check=True, capture_output=True, env=ENV)
        baseline = time.perf_counter() - started
        con = sqlite3.connect(db)
        (name,) = con.execute(
            "SELECT name FROM symbols GROUP BY name ORDER BY count(*) DESC LIMIT 1"
        ).fetchone()
        con.close()
        normal_open, _ = first_answer(root, db, name)
        if args.compare:
            compare(root, db, args.compare)
        print(
            json.dumps(
                {
                    "baseline_full_index_s": round(baseline, 2),
                    "files_symbols": counts(db),
                    "reader_first_answer_s": round(normal_open, 3),
                    "load": os.getloadavg(),
                }
            ),
            flush=True,
        )
        tally = {"old": 0, "new": 0, "neither": 0, "debris": 0, "killed": 0, "completed": 0}
        recoveries, wal_sizes = [], []
        for run in range(args.runs):
            old = counts(db)
            toggle_extra(root)
            delay = rng.uniform(0, baseline * 1.1)
            process = subprocess.Popen(
                index_cmd(root), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV
            )
            deadline = time.monotonic() + delay
            while process.poll() is None and time.monotonic() < deadline:
                time.sleep(0.01)
            killed = process.poll() is None
            if killed:
                process.send_signal(signal.SIGKILL)
            process.wait()
            tally["killed" if killed else "completed"] += 1
            wal = db.parent / "index.db-wal"
            wal_sizes.append(wal.stat().st_size if wal.exists() else 0)
            seconds, found = first_answer(root, db, name)
            recoveries.append(seconds)
            now = counts(db)
            status = subprocess.run(
                [sys.executable, "-m", "orkestra", "code", "status", str(root)],
                capture_output=True,
                text=True,
                env=ENV,
            )
            status_files = json.loads(status.stdout)["totals"]["files"] if status.returncode == 0 else None
            extra_now = (root / EXTRA).exists()
            new_files = old[0] + (1 if extra_now else -1)
            state = "old" if now == old else "new" if now[0] == new_files else "neither"
            if status_files != now[0] or found == 0:
                state = "neither"
            tally[state] += 1
            debris = sorted({p.name for p in db.parent.iterdir()} - ALLOWED)
            stray = [
                line
                for line in git(root, "status", "--porcelain", "--ignored").splitlines()
                if EXTRA not in line and not line.endswith("__pycache__/")
            ]
            if debris or stray:
                tally["debris"] += 1
            print(
                json.dumps(
                    {
                        "run": run,
                        "delay_s": round(delay, 2),
                        "killed": killed,
                        "state": state,
                        "files": now[0],
                        "symbols": now[1],
                        "old_files": old[0],
                        "debris": debris + stray,
                        "wal_mb": round(wal_sizes[-1] / 2**20, 1),
                        "first_answer_s": round(seconds, 3),
                    }
                ),
                flush=True,
            )
            if state == "old":  # the index still describes the previous tree: put it back
                toggle_extra(root)
        recoveries = sorted(recoveries) or [0.0]
        print(
            json.dumps(
                {
                    "summary": tally,
                    "runs": args.runs,
                    "first_answer_after_kill_p50_s": round(recoveries[len(recoveries) // 2], 3),
                    "first_answer_after_kill_max_s": round(recoveries[-1], 3),
                    "first_answer_normal_s": round(normal_open, 3),
                    "max_wal_mb": round(max(wal_sizes, default=0) / 2**20, 1),
                    "baseline_full_index_s": round(baseline, 2),
                    "load_end": os.getloadavg(),
                }
            ),
            flush=True,
        )
        if tally["neither"] or tally["debris"]:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
