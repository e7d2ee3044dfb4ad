"""Hook handler start-to-exit time per event, and `telemetry report` over a 10k-event store.

Run: .venv/bin/python bench/bench_hooks.py [--n 40]
Prints one JSON line per measurement (milliseconds).
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

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from telemetry_synth import write_store  # noqa: E402 - found through the sys.path entry above

from orkestra.telemetry.report import report_project  # noqa: E402

BIN = Path(sys.executable).parent
FIXTURES = REPO / "tests" / "fixtures" / "hooks"


def timed(command: list[str], stdin: str, cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(command, input=stdin, cwd=cwd, capture_output=True, text=True, check=True)
    return (time.perf_counter() - start) * 1000


def line(name: str, samples: list[float], **extra: object) -> None:
    ordered = sorted(samples)
    print(json.dumps({"name": name, "n": len(samples), "p50_ms": round(statistics.median(ordered), 1),
                      "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 1), **extra}), flush=True)


def bench_handlers(project: Path, n: int) -> None:
    payloads = []
    for path in sorted(FIXTURES.glob("*.json")):
        if path.stem != "codex-notify":
            payloads.append(json.dumps(json.loads(path.read_text()) | {"cwd": str(project)}))
    runs = {
        "python_startup_baseline": [sys.executable, "-c", "pass"],
        "orkestra-hook": [str(BIN / "orkestra-hook")],
        "orkestra hooks handle": [str(BIN / "orkestra"), "hooks", "handle"],
    }
    for name, command in runs.items():
        count = n if name != "orkestra hooks handle" else max(10, n // 3)
        timed(command, payloads[0], project)  # warm the page cache
        line(name, [timed(command, payloads[i % len(payloads)], project) for i in range(count)])


def bench_report(root: Path, repeat: int) -> None:
    events = write_store(root / ".orkestra" / "telemetry")
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        report = report_project(root)
        samples.append((time.perf_counter() - start) * 1000)
    assert report.totals["events"] == len(events)
    line("telemetry_report_in_process", samples, events=len(events))
    cli = [timed([str(BIN / "orkestra"), "telemetry", "report"], "", root) for _ in range(repeat)]
    line("telemetry_report_cli", cli, events=len(events))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=40, help="hook invocations per handler")
    parser.add_argument("--repeat", type=int, default=5, help="report repetitions")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        (project / ".git").mkdir(parents=True)
        bench_handlers(project, args.n)
        report_root = Path(tmp) / "report"
        report_root.mkdir()
        bench_report(report_root, args.repeat)


if __name__ == "__main__":
    main()
