"""Mining a history with a huge commit message, against the same history with a short one (same run).

Builds two two-commit histories with `git fast-import`: one whose second commit has a message of
``--mb`` MiB (and a 200 KB author name), one with a four-line message. Runs ``mine sync --full`` from
the CLI on each, ``--repeat`` times, pinned to one CPU (so one process reads every commit) and prints
that process's own peak RSS and CPU time (its git, which holds each commit object whole, is not
counted), then the ratio. With ``--log FILE`` (a ``git log -z`` capture of mining's format) it also
times the token reader over it against the floor of decoding and splitting the whole capture at once.

    python bench/bench_mine_huge_fields.py [--mb 40] [--repeat 3] [--log /tmp/log60k.bin]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILLER = b"filler line of a hostile commit\n"
WRAPPER = """
import atexit, os, resource, runpy, sys
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
def report():
    r = resource.getrusage(resource.RUSAGE_SELF)
    try:  # this program's own peak (ru_maxrss also counts the parent's pages at fork)
        with open("/proc/self/status") as status:
            peak = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))
    except (OSError, StopIteration):
        peak = r.ru_maxrss
    sys.stderr.write("\\nRUSAGE %d %.4f\\n" % (peak, r.ru_utime + r.ru_stime))
atexit.register(report)
sys.argv = ["orkestra", "mine", "sync", "--full", "--json"]
runpy.run_module("orkestra", run_name="__main__", alter_sys=True)
"""


def history(repo: Path, lines: int, author: bytes) -> None:
    subprocess.run(["git", "init", "-q", "-b", "main", str(repo)], check=True)
    message = b"feat(core)!: a huge message\n\n" + FILLER * lines + b"\nBREAKING-CHANGE: the API moved\n"
    stream = (
        b"commit refs/heads/main\nmark :1\ncommitter T <t@example.com> 1767225600 +0000\n"
        b"data 11\nfeat: base\n\nM 100644 inline a.txt\ndata 2\na\n\n"
        b"commit refs/heads/main\nmark :2\nauthor " + author + b" <t@example.com> 1767225660 +0000\n"
        b"committer T <t@example.com> 1767225660 +0000\n"
        b"data %d\n" % len(message) + message + b"\nM 100644 inline b.txt\ndata 2\nb\n\n"
    )
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=stream, check=True)


def sync(repo: Path) -> tuple[int, float]:
    done = subprocess.run(
        [sys.executable, "-c", WRAPPER],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        check=True,
    )
    rss, cpu = done.stderr.rsplit("RUSAGE ", 1)[1].split()
    return int(rss), float(cpu)


def tokens(log: Path, repeat: int) -> dict:
    sys.path.insert(0, str(ROOT))
    from orkestra.mining.log_tokens import token_lists

    data = log.read_bytes()
    reader, floor = [], []
    for _ in range(repeat):
        started = time.process_time()
        for _batch in token_lists(io.BytesIO(data)):
            pass
        reader.append(time.process_time() - started)
        started = time.process_time()
        data.decode("utf-8", "replace").split("\0")
        floor.append(time.process_time() - started)
    return {
        "log_mb": round(len(data) / 2**20, 1),
        "reader_cpu_s": round(statistics.median(reader), 4),
        "floor_cpu_s": round(statistics.median(floor), 4),
        "ratio": round(statistics.median(reader) / statistics.median(floor), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--log", type=Path)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        short, huge = Path(tmp, "short"), Path(tmp, "huge")
        history(short, 4, b"Short Name")
        history(huge, (args.mb << 20) // len(FILLER), b"n" * 200_000)
        runs: dict[str, list[tuple[int, float]]] = {"short": [], "huge": []}
        for _ in range(args.repeat):  # interleaved, so load hits both alike
            runs["short"].append(sync(short))
            runs["huge"].append(sync(huge))
        line = json.loads(
            (huge / ".orkestra/mining/commits.jsonl").read_text(encoding="utf-8").splitlines()[-1]
        )
    figures = {
        name: {
            "peak_rss_mb": round(min(r for r, _ in v) / 1024, 1),
            "cpu_s": round(statistics.median(c for _, c in v), 3),
        }
        for name, v in runs.items()
    }
    print(
        json.dumps(
            {
                "bench": "mine_huge_fields",
                "message_mb": args.mb,
                **figures,
                "rss_ratio": round(figures["huge"]["peak_rss_mb"] / figures["short"]["peak_rss_mb"], 3),
                "cpu_ratio": round(figures["huge"]["cpu_s"] / figures["short"]["cpu_s"], 3),
                "stored_body_chars": len(line["body"]),
                "footers": line["footers"],
                "load": os.getloadavg()[0],
            }
        )
    )
    if args.log:
        print(json.dumps({"bench": "mine_token_reader", **tokens(args.log, args.repeat * 3)}))


if __name__ == "__main__":
    main()
