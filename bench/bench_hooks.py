"""Hook handler start-to-exit time per event, and `telemetry report` over a 10k-event store.

Run: .venv/bin/python bench/bench_hooks.py [--n 40] [--loki] [--hostile]
Prints one JSON line per measurement (milliseconds). ``--loki`` adds the hook with the Loki
exporter on, pushing to a local Loki stub and to a dead endpoint, next to the same hook without
it (the floor) in the same run. ``--hostile`` times in-process recording of hostile payloads
next to benign payloads of the same size.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

from telemetry_synth import write_store  # noqa: E402 - found through the sys.path entry above

from orkestra.telemetry.hook import record_hook  # noqa: E402
from orkestra.telemetry.report import report_project  # noqa: E402

BIN = Path(sys.executable).parent
FIXTURES = REPO / "tests" / "fixtures" / "hooks"


def timed(command: list[str], stdin: str, cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(command, input=stdin, cwd=cwd, capture_output=True, text=True, check=True)
    return (time.perf_counter() - start) * 1000


def line(name: str, samples: list[float], **extra: object) -> None:
    ordered = sorted(samples)
    print(
        json.dumps(
            {
                "name": name,
                "n": len(samples),
                "p50_ms": round(statistics.median(ordered), 1),
                "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))], 1),
                **extra,
            }
        ),
        flush=True,
    )


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


def fixture_payloads(project: Path) -> list[str]:
    return [
        json.dumps(json.loads(p.read_text()) | {"cwd": str(project)})
        for p in sorted(FIXTURES.glob("*.json"))
        if p.stem != "codex-notify"
    ]


def bench_loki(project: Path, n: int) -> None:
    """The hook with the Loki exporter on: it forks its flusher, so it must cost what the plain hook costs."""
    from loki_server import free_port, get_json

    # the stub runs in its own process, so serving pushes never competes with this timing loop
    stub = subprocess.Popen(
        [sys.executable, str(REPO / "tests" / "loki_server.py")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    url = stub.stdout.readline().strip()
    hook = str(BIN / "orkestra-hook")
    runs = {
        "orkestra-hook (floor: no exporter)": [hook],
        "orkestra-hook --loki-endpoint (live Loki stub)": [hook, "--loki-endpoint", url],
        "orkestra-hook --loki-endpoint (nothing listening)": [
            hook,
            "--loki-endpoint",
            f"http://127.0.0.1:{free_port()}",
        ],
    }
    try:
        samples: dict[str, list[float]] = {name: [] for name in runs}
        projects = {name: project / f"p{i}" for i, name in enumerate(runs)}  # one store (and outbox) each
        payloads = {}
        for name, command in runs.items():
            (projects[name] / ".git").mkdir(parents=True)
            payloads[name] = fixture_payloads(projects[name])
            timed(command, payloads[name][0], projects[name])
        for i in range(n):  # interleaved, so machine load falls on all three alike
            for name, command in runs.items():
                samples[name].append(timed(command, payloads[name][i % len(payloads[name])], projects[name]))
        for name, values in samples.items():
            line(name, values)
        from orkestra.telemetry.loki import pending_events

        time.sleep(2)  # the last flushers
        query = 'sum(count_over_time({service_name="claude-code-hooks"} [1d]))'
        answer = get_json(f"{url}/loki/api/v1/query?query={urllib.parse.quote(query)}")["data"]["result"]
        kept = {name: pending_events(str(projects[name] / ".orkestra" / "telemetry")) for name in runs}
        print(
            json.dumps(
                {
                    "name": "loki stub received",
                    "entries": int(answer[0]["value"][1]) if answer else 0,
                    "sent": n + 1,
                    "pending_in_outboxes": kept,
                }
            ),
            flush=True,
        )
    finally:
        stub.stdin.close()
        stub.wait()


def bench_hostile(project: Path, repeat: int) -> None:
    """In-process record_hook of hostile payloads next to a benign payload of the same size."""
    store = str(project / "hostile-store")
    cases = {
        "40 KB token": json.dumps(
            {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "A" * 40_000}}
        ),
        "200 KB session_id": json.dumps({"hook_event_name": "Stop", "session_id": "S" * 200_000}),
        "JSON nested 900 deep": '{"hook_event_name":"Stop","x":' + "[" * 900 + "]" * 900 + "}",
        "100k keys": '{"hook_event_name":"Stop","x":{'
        + ",".join(f'"k{i}":{i}' for i in range(100_000))
        + "}}",
    }
    for name, text in cases.items():
        benign = json.dumps({"hook_event_name": "Stop", "note": "w " * (len(text) // 2)})
        for label, payload in ((f"{name} (benign, same size)", benign), (name, text)):
            samples = []
            for _ in range(repeat):
                start = time.perf_counter()
                record_hook(payload, store_dir=store, env={}, cwd=str(project))
                samples.append((time.perf_counter() - start) * 1000)
            line(f"record_hook {label}", samples, chars=len(payload))


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
    parser.add_argument("--loki", action="store_true", help="only the hook with the Loki exporter on")
    parser.add_argument("--hostile", action="store_true", help="only hostile payloads, in-process")
    args = parser.parse_args()
    if args.loki or args.hostile:
        with tempfile.TemporaryDirectory() as tmp:
            project = Path(tmp) / "project"
            (project / ".git").mkdir(parents=True)
            if args.loki:
                bench_loki(project, args.n)
            if args.hostile:
                bench_hostile(project, args.repeat)
        return
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "project"
        (project / ".git").mkdir(parents=True)
        bench_handlers(project, args.n)
        report_root = Path(tmp) / "report"
        report_root.mkdir()
        bench_report(report_root, args.repeat)


if __name__ == "__main__":
    main()
