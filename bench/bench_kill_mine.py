"""kill -9 ``orkestra mine sync`` at random moments: every run must end old-or-new, with no debris.

Builds bench_mine_scale.py's history (``--commits``, default 20,000: two lanes, several gits per lane)
and syncs it twice as references: the *old* index at ``HEAD~--new`` (HEAD pointed at a branch there,
the work tree untouched) and the *new* one at HEAD, each timed (the baselines). Then, ``--kills``
times, the old index is put back and a sync is started (even trials ``mine sync --full``, odd ones an
incremental ``mine sync``) and sent SIGKILL after a delay drawn uniformly from [0, 1.1] × that kind's
baseline, or (every other pair of trials) from [0.8, 1.05] ×, near the end, where the files are appended
and renamed; a sync that finishes first counts as completed. After each kill:

* ``raw``: what a reader (``load_index``) sees at once: ``old``, ``new``, ``refused`` (a clear error:
  the files do not match their state) or ``mixed`` (anything else: must never happen);
* ``lanes``: forked lanes of the killed sync still alive 0.5 s later (must be 0);
* ``after``: the index after the next ``mine sync``; it must be byte for byte the new reference, and
  the state directory must hold no temporary file.

Prints one JSON line per kill and a summary; exits 1 if any run ended mixed, left debris or a lane.

    .venv/bin/python bench/bench_kill_mine.py [--commits 20000] [--new 2000] [--kills 20] [--seed 14]
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_mine_scale import ENV, build_history

from orkestra.errors import OrkestraError
from orkestra.mining.config import load_mining_paths
from orkestra.mining.index import GRAPH_FILE, INDEX_FILE, STATE_FILE, load_index

FILES = (INDEX_FILE, GRAPH_FILE, STATE_FILE)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True, env=ENV
    ).stdout


def sync_cmd(full: bool) -> list[str]:
    return [sys.executable, "-m", "orkestra", "mine", "sync", *(["--full"] if full else [])]


def snapshot(state: Path) -> dict[str, bytes]:
    return {name: (state / name).read_bytes() for name in FILES}


def restore(state: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        (state / name).write_bytes(data)


def timed_sync(repo: Path, full: bool) -> float:
    started = time.perf_counter()
    subprocess.run(sync_cmd(full), cwd=repo, check=True, stdout=subprocess.DEVNULL, env=ENV)
    return time.perf_counter() - started


def python_children(pid: int) -> set[int]:
    """The sync's children that run Python: its forked lanes (and, for an instant, a git between its
    fork and its exec: :func:`lane_alive` tells them apart later)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return set()
    return {int(child) for child in children if lane_alive(int(child))}


def lane_alive(pid: int) -> bool:
    """Whether ``pid`` is a live Python process (not a zombie, not a git it became by exec)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    name, state = stat[stat.index("(") + 1 : stat.rindex(")")], stat.rsplit(")", 1)[1].split()[0]
    return "python" in name and state != "Z"


def kill_one(repo: Path, full: bool, delay: float) -> tuple[str, set[int]]:
    run = subprocess.Popen(
        sync_cmd(full), cwd=repo, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV
    )
    started, lanes = time.monotonic(), set()
    while run.poll() is None and time.monotonic() - started < delay:
        lanes |= python_children(run.pid)
        time.sleep(0.002)
    if run.poll() is not None:
        return "completed", lanes
    run.send_signal(signal.SIGKILL)
    run.wait()
    return "killed", lanes


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--commits", type=int, default=20_000)
    parser.add_argument("--new", type=int, default=2_000, help="commits the new index has beyond the old one")
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="bench-kill-mine-") as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        git(repo, "init", "-q", "-b", "main")
        build_history(repo, args.commits)
        git(repo, "branch", "old", f"HEAD~{args.new}")
        paths = load_mining_paths(repo)
        state = paths.index_dir
        git(repo, "symbolic-ref", "HEAD", "refs/heads/old")
        timed_sync(repo, full=True)
        old = snapshot(state)
        old_count = len(load_index(paths))
        git(repo, "symbolic-ref", "HEAD", "refs/heads/main")
        baseline = {False: timed_sync(repo, full=False)}
        new = snapshot(state)
        new_count = len(load_index(paths))
        baseline[True] = timed_sync(repo, full=True)
        assert snapshot(state) == new, "a full sync and an incremental one wrote different bytes"
        print(
            json.dumps(
                {
                    "history": args.commits,
                    "old": old_count,
                    "new": new_count,
                    "full_s": round(baseline[True], 3),
                    "incremental_s": round(baseline[False], 3),
                }
            )
        )
        tally: Counter = Counter()
        for trial in range(args.kills):
            restore(state, old)
            full = trial % 2 == 0
            late = trial % 4 >= 2  # half the kills near the end, where the files are appended and renamed
            delay = rng.uniform(0.8, 1.05) if late else rng.uniform(0, 1.1)
            delay *= baseline[full]
            ended, lanes = kill_one(repo, full, delay)
            time.sleep(0.5)
            outlived = sum(lane_alive(pid) for pid in lanes)
            try:
                count = len(load_index(paths))
                raw = {old_count: "old", new_count: "new"}.get(count, "mixed")
            except OrkestraError:
                raw = "refused"
            except ValueError:  # a line cut short: what a reader must never be given
                raw = "mixed"
            synced = subprocess.run(
                sync_cmd(False), cwd=repo, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=ENV
            )
            after = "new" if synced.returncode == 0 and snapshot(state) == new else "mixed"
            debris = sorted(
                p.name for p in state.iterdir() if p.name.startswith(".") and p.name != ".gitignore"
            )
            row = {
                "trial": trial,
                "sync": "full" if full else "incremental",
                "delay_s": round(delay, 3),
                "ended": ended,
                "raw": raw,
                "lanes_seen": len(lanes),
                "lanes_outlived": outlived,
                "after": after,
                "debris": debris,
            }
            print(json.dumps(row), flush=True)
            tally.update([f"{ended}", f"raw_{raw}", f"after_{after}"])
            tally["lanes_outlived"] += outlived
            tally["debris"] += len(debris)
        print(json.dumps({"summary": dict(sorted(tally.items()))}))
        bad = tally["raw_mixed"] + tally["after_mixed"] + tally["debris"] + tally["lanes_outlived"]
        sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
