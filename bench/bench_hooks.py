"""Hook handler start-to-exit time per event, and `telemetry report` over a 10k-event store.

Run: .venv/bin/python bench/bench_hooks.py [--n 40] [--loki] [--hostile] [--redaction [--baseline REV]]
Prints one JSON line per measurement (milliseconds). ``--loki`` adds the hook with the Loki
exporter on, pushing to a local Loki stub and to a dead endpoint, next to the same hook without
it (the floor) in the same run. ``--hostile`` times in-process recording of hostile payloads
next to benign payloads of the same size. ``--redaction`` reports, per secret shape of
``tests/secret_shapes.py``, whether the redaction of git revision ``--baseline`` and of this
tree mask it (and keep each look-alike), then times both on the same events in the same run.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path
from types import ModuleType

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


def _module_at(revision: str, folder: Path) -> tuple[ModuleType, Path]:
    """orkestra/telemetry/redact.py as it was at ``revision``, loaded under another name."""
    source = subprocess.run(
        ["git", "show", f"{revision}:orkestra/telemetry/redact.py"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    path = folder / f"redact_{revision}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(f"redact_{revision}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, path


def _masks(module: ModuleType, shape) -> bool:
    out = module.redact({"tool_input": shape.value})
    try:
        text = json.dumps(out, allow_nan=False)
    except ValueError:  # NaN / Infinity stored as non-strict JSON
        return False
    return all(secret not in text for secret in shape.secrets)


def _import_ms(path: Path, runs: int = 9) -> float:
    """Best CPU time to import (compile the patterns of) a redaction module in a fresh interpreter.

    Bytecode is written and reused, as in an installed package (a first run writes it).
    """
    code = (
        "import time, typing, json, importlib.util as u\n"  # typing, json: the hook imports them anyway
        "t = time.process_time()\n"
        f"s = u.spec_from_file_location('r', {str(path)!r}); m = u.module_from_spec(s); s.loader.exec_module(m)\n"
        "print((time.process_time() - t) * 1000)"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    times = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
            ).stdout
        )
        for _ in range(runs + 1)
    ]
    return min(times[1:])


HOOK_IN_TREE = """
import sys
sys.path.insert(0, sys.argv[1])
from orkestra.telemetry.hook import main
sys.exit(main([]))
"""
IMPORT_IN_TREE = """
import sys, time
sys.path.insert(0, sys.argv[1])
start = time.process_time()
import orkestra.telemetry.hook
print((time.process_time() - start) * 1000)
"""


def _tree(revision: str | None, folder: Path) -> Path:
    """A copy of the ``orkestra`` package at ``revision`` (None: this work tree), to run with ``-S``."""
    root = folder / f"tree-{revision or 'this'}"
    root.mkdir()
    if revision:
        archive = subprocess.run(
            ["git", "archive", revision, "orkestra"], cwd=REPO, capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(root)], input=archive.stdout, check=True)
    else:
        shutil.copytree(REPO / "orkestra", root / "orkestra", ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _hook_trees(project: Path, trees: dict[str, Path], fixtures: list[dict], n: int) -> None:
    """The orkestra-hook entry of each tree, start to exit (``python -S``: no site, no editable finder,
    so ``orkestra`` is that tree's), fed the fixture payloads round-robin, interleaved; and its import."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # bytecode as installed
    base = [sys.executable, "-S", "-c"]
    wall: dict[str, list[float]] = {label: [] for label in trees}
    cpu: dict[str, list[float]] = {label: [] for label in trees}
    for i in range(n + 1):  # the first round only writes bytecode
        payload = json.dumps(fixtures[i % len(fixtures)] | {"cwd": str(project)})
        for label, root in trees.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(
                [*base, HOOK_IN_TREE, str(root)], input=payload, text=True, cwd=project, env=env, check=True
            )
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if i:
                wall[label].append((time.perf_counter() - start) * 1000)
                cpu[label].append(
                    (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
                )
    for label, root in trees.items():
        imports = [
            float(
                subprocess.run(
                    [*base, IMPORT_IN_TREE, str(root)], capture_output=True, text=True, env=env, check=True
                ).stdout
            )
            for _ in range(15)
        ]
        print(
            json.dumps(
                {
                    "name": "orkestra-hook start-to-exit per fixture event (python -S, whole tree)",
                    "code": label,
                    "n": n,
                    "wall_p50_ms": round(statistics.median(wall[label]), 1),
                    "cpu_p50_ms": round(statistics.median(cpu[label]), 1),
                    "cpu_mean_ms": round(statistics.fmean(cpu[label]), 1),
                    "import_hook_cpu_ms_best": round(min(imports), 2),
                    "import_hook_cpu_ms_median": round(statistics.median(imports), 2),
                }
            ),
            flush=True,
        )


def _strings(value) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _detect_secrets_figures(fixtures: list[dict], shapes) -> None:
    """detect-secrets (the test extra) as the hook's redactor: import time, cost per event, shapes found."""
    try:
        start = time.perf_counter()
        from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
        from detect_secrets.core.scan import scan_line
        from detect_secrets.settings import transient_settings
    except ImportError:
        print(json.dumps({"name": "detect-secrets", "skipped": "not installed (pip install -e '.[test]')"}))
        return
    imported = (time.perf_counter() - start) * 1000
    skipped = {"Base64HighEntropyString", "HexHighEntropyString", "IPPublicDetector"}
    plugins = [
        c.__name__ for c in get_mapping_from_secret_type_to_class().values() if c.__name__ not in skipped
    ]
    with transient_settings({"plugins_used": [{"name": name} for name in plugins]}):
        start = time.process_time()
        for payload in fixtures:
            for text in _strings(payload):
                list(scan_line(text))
        per_event = (time.process_time() - start) / len(fixtures) * 1000
        found = 0
        for shape in shapes:
            hits = {s.secret_value for text in _strings(shape.value) for s in scan_line(text)}
            found += bool(shape.secrets) and all(any(x in hit for hit in hits) for x in shape.secrets)
    print(
        json.dumps(
            {
                "name": "detect-secrets as the redactor (not used by the hook)",
                "import_ms_wall_in_this_process": round(imported, 1),
                "scan_ms_cpu_per_fixture_event": round(per_event, 2),
                "shapes_whose_secrets_it_finds": f"{found}/{len(shapes)}",
            }
        ),
        flush=True,
    )


def bench_redaction(project: Path, baseline: str, repeat: int) -> None:
    """Secrets found per shape by the baseline's redaction and by ours; time per event for both."""
    from secret_shapes import BENIGN, SHAPES

    from orkestra.telemetry import events, redact

    old, old_path = _module_at(baseline, project)
    modules = {f"baseline {baseline}": old, "this tree": redact}
    for shape in SHAPES:
        found = {label: _masks(module, shape) for label, module in modules.items()}
        print(
            json.dumps(
                {
                    "name": "redaction shape",
                    "shape": shape.name,
                    "family": shape.family,
                    "issue31": bool(shape.issue),
                }
                | {label: "masked" if ok else "LEAKED" for label, ok in found.items()}
            ),
            flush=True,
        )
    for case in BENIGN:
        kept = {
            label: all(x in json.dumps(module.redact(case.value)) for x in case.kept)
            for label, module in modules.items()
        }
        print(
            json.dumps(
                {"name": "redaction look-alike", "case": case.name}
                | {k: "kept" if v else "MASKED" for k, v in kept.items()}
            ),
            flush=True,
        )
    for label, module in modules.items():
        issue = [s for s in SHAPES if s.issue]
        print(
            json.dumps(
                {
                    "name": "redaction summary",
                    "code": label,
                    "issue31_shapes_masked": f"{sum(_masks(module, s) for s in issue)}/{len(issue)}",
                    "all_shapes_masked": f"{sum(_masks(module, s) for s in SHAPES)}/{len(SHAPES)}",
                    "look_alikes_kept": f"{sum(all(x in json.dumps(module.redact(c.value)) for x in c.kept) for c in BENIGN)}/{len(BENIGN)}",
                }
            ),
            flush=True,
        )
    # Time per event: the fixture payloads (benign, what a session sends) and one event per shape.
    fixtures = [json.loads(p.read_text()) for p in sorted(FIXTURES.glob("*.json"))]
    shaped = [{"hook_event_name": "PreToolUse", "session_id": "s1", "tool_input": s.value} for s in SHAPES]
    for corpus, payloads in (("fixture events", fixtures), ("secret-shape events", shaped)):
        samples: dict[str, list[float]] = {label: [] for label in modules}
        for _ in range(repeat):  # interleaved rounds: load falls on both alike; CPU time, not wall
            for label, module in modules.items():
                start = time.process_time()
                for _ in range(20):
                    for payload in payloads:
                        module.redact(payload)
                samples[label].append((time.process_time() - start) / (20 * len(payloads)) * 1e6)
        for label, values in samples.items():
            print(
                json.dumps(
                    {
                        "name": f"redact() per event, {corpus}",
                        "code": label,
                        "events": len(payloads),
                        "best_us": round(min(values), 1),
                        "median_us": round(statistics.median(values), 1),
                    }
                ),
                flush=True,
            )
    # record_hook in-process (parse, redact, append to the day file) with either redaction
    store = str(project / "redaction-store")
    texts = [json.dumps(p | {"cwd": str(project)}) for p in fixtures]
    samples = {label: [] for label in modules}
    for _ in range(repeat):
        for label, module in modules.items():
            events.redact, events.redact_text = module.redact, module.redact_text
            start = time.process_time()
            for text in texts:
                record_hook(text, store_dir=store, env={}, cwd=str(project))
            samples[label].append((time.process_time() - start) / len(texts) * 1e6)
    events.redact, events.redact_text = redact.redact, redact.redact_text
    for label, values in samples.items():
        print(
            json.dumps(
                {
                    "name": "record_hook per fixture event (in-process)",
                    "code": label,
                    "best_us": round(min(values), 1),
                    "median_us": round(statistics.median(values), 1),
                }
            ),
            flush=True,
        )
    _detect_secrets_figures(fixtures, SHAPES)
    ours = project / "redact_this_tree.py"
    ours.write_text(Path(redact.__file__).read_text())
    for label, path in ((f"baseline {baseline}", old_path), ("this tree", ours)):
        print(
            json.dumps(
                {
                    "name": "redaction module import (compile), CPU",
                    "code": label,
                    "best_ms": round(_import_ms(path), 2),
                }
            ),
            flush=True,
        )
    trees = {f"baseline {baseline}": _tree(baseline, project), "this tree": _tree(None, project)}
    _hook_trees(project, trees, fixtures, max(repeat, 30))


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
    parser.add_argument(
        "--redaction", action="store_true", help="only redaction: shapes found, time per event"
    )
    parser.add_argument(
        "--baseline", default="3fc1b73", help="git revision whose redaction --redaction compares"
    )
    args = parser.parse_args()
    if args.redaction:
        with tempfile.TemporaryDirectory() as tmp:
            project = Path(tmp) / "project"
            (project / ".git").mkdir(parents=True)
            bench_redaction(project, args.baseline, max(args.repeat, 15))
        return
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
