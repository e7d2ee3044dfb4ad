"""The Loki push exporter against Loki: Grafana's binary when installed, and always a local stub.

One server per backend per test session; each test pushes under its own ``service_name`` so
tests never see each other's events. The real backend skips with the reason when no Grafana
Loki binary exists (Debian's ``loki`` package is an unrelated genetics program and no PyPI or
npm package ships one); the stub speaks the same HTTP API, so the exporter's real client code,
the outbox and every dashboard query run either way.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
import uuid
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from clirun import run_cli
from loki_server import Parser, RealLoki, StubLoki, free_port, get_json, real_loki_binary
from telemetry_synth import synthetic_events

from orkestra.telemetry import loki
from orkestra.telemetry.events import Event, timestamp
from orkestra.telemetry.grafana import expand, panel_specs
from orkestra.telemetry.hook import record_hook

FIXTURES = Path(__file__).parent / "fixtures" / "hooks"
HOOK = str(Path(sys.executable).parent / "orkestra-hook")
SCHEMA = {"service_name", "agent_tool", "event", "tool_type", "mcp_server"}


@pytest.fixture(scope="session", params=["grafana-loki", "stub"])
def server(request):
    if request.param == "grafana-loki":
        binary, why = real_loki_binary()
        if not binary:
            print(f"\nskipping the real-Loki tests: {why}")
            pytest.skip(why)
        backend = RealLoki(binary)
    else:
        backend = StubLoki()
    backend.start()
    yield backend
    backend.close()


def service() -> str:
    return f"hooks-test-{uuid.uuid4().hex[:8]}"


def recent(events: list[Event], minutes: int = 30) -> list[Event]:
    """The events moved to end a minute ago, spacing kept (Loki refuses samples far in the past)."""
    shift = (
        datetime.now(UTC)
        - timedelta(minutes=1)
        - datetime.strptime(events[-1].ts, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    )
    out = []
    for event in events:
        moment = datetime.strptime(event.ts, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC) + shift
        out.append(event._replace(ts=timestamp(moment)))
    assert datetime.now(UTC) - datetime.strptime(out[0].ts, "%Y-%m-%dT%H:%M:%S.%fZ").replace(
        tzinfo=UTC
    ) < timedelta(minutes=minutes)
    return out


def seeded(sessions: int = 2, blocks: int = 3) -> list[Event]:
    """The first ``blocks`` blocks of the first ``sessions`` synthetic sessions (known counts)."""
    events = synthetic_events()
    per_session = len(events) // 10
    block = per_session // 50
    chosen = [e for s in range(sessions) for e in events[s * per_session : s * per_session + blocks * block]]
    spaced = [
        e._replace(ts=timestamp(datetime(2026, 3, 1, tzinfo=UTC) + timedelta(seconds=i)))
        for i, e in enumerate(chosen)
    ]
    return recent(spaced)


def query(backend, path: str, logql: str, **args: str) -> dict:
    now = time.time_ns()
    params = {"query": logql, "limit": "5000", **args}
    if path == "query_range":
        params.setdefault("start", str(now - 3600 * 10**9))
        params.setdefault("end", str(now + 60 * 10**9))
        params.setdefault("step", "60")
    else:
        params.setdefault("time", str(now + 60 * 10**9))
    body = get_json(f"{backend.url}/loki/api/v1/{path}?{urllib.parse.urlencode(params)}")
    assert body["status"] == "success", body
    return body["data"]


def wait_for(check, seconds: float = 30.0):
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.2)


def entries(data: dict) -> list[tuple[dict, str]]:
    return [(stream["stream"], value[1]) for stream in data["result"] for value in stream["values"]]


def totals(data: dict, label: str) -> dict[str, float]:
    """A metric result summed per ``label`` over its points (instant: the one value)."""
    out: dict[str, float] = {}
    for series in data["result"]:
        points = series.get("values") or [series["value"]]
        key = series["metric"].get(label, "")
        out[key] = out.get(key, 0) + sum(float(v) for _, v in points)
    return out


def test_pushed_events_come_back_with_the_schema_labels(server, git_repo):
    name = service()
    names = [
        "SessionStart",
        "UserPromptSubmit",
        "PreToolUse-mcp",
        "PostToolUse-mcp",
        "PostToolUseFailure-bash",
        "PostToolUse-skill",
        "SubagentStart",
    ]
    base = datetime.now(UTC) - timedelta(minutes=2)
    for i, fixture in enumerate(names):
        payload = json.loads((FIXTURES / f"{fixture}.json").read_text()) | {"cwd": str(git_repo)}
        recorded = record_hook(
            json.dumps(payload),
            env={"ORKESTRA_LOKI_AUTH": "u:p"},
            cwd=str(git_repo),
            loki_endpoint=server.url,
            loki_service=name,
            ts=timestamp(base + timedelta(seconds=i)),
        )
        assert recorded.warnings == []
    data = wait_for(
        lambda: (
            (d := query(server, "query_range", f'{{service_name="{name}"}}'))
            and len(entries(d)) == len(names)
            and d
        )
    )
    got = entries(data)
    assert len(got) == len(names)
    mcp = [(labels, json.loads(line)) for labels, line in got if labels.get("tool_type") == "mcp"]
    assert len(mcp) == 2
    labels, line = mcp[0]
    assert {k: labels[k] for k in SCHEMA} == {
        "service_name": name,
        "agent_tool": "claude-code",
        "event": labels["event"],
        "tool_type": "mcp",
        "mcp_server": "maguyva",
    }
    assert labels["session_id"] == "7f3c2a10-5b1e-4c6e-9d1a-2f4b8e6c0a11"  # structured metadata
    assert labels["repository"] == git_repo.name
    assert line["tool_name"] == "mcp__maguyva__find_symbol"
    assert "session_id" not in line
    indexed = set(get_json(f"{server.url}/loki/api/v1/labels")["data"])
    assert indexed >= SCHEMA
    assert not indexed & {"session_id", "tool_name", "repository", "bash_cli", "skill"}
    # the seeds' own queries, verbatim but for the service name
    bash = query(server, "query_range", f'{{service_name="{name}"}} | json | bash_cli="git"')
    assert [json.loads(line)["tool_name"] for _, line in entries(bash)] == ["Bash"]
    codex = query(server, "query_range", f'{{service_name="{name}"}} | agent_tool="codex-cli"')
    assert entries(codex) == []
    if isinstance(server, StubLoki):
        assert server.headers[-1]["Authorization"] == "Basic dTpw"  # the credential, from the environment


def test_every_dashboard_query_runs_and_returns_the_seeded_events(server, tmp_path):
    name = service()
    events = seeded()
    for event in events:
        loki.enqueue(str(tmp_path), event, "shop")
    result = loki.flush(str(tmp_path), loki.target(server.url, service_name=name), {})
    assert (result.sent, result.pending, result.rejected) == (len(events), 0, 0)
    specs = panel_specs(name)
    assert len(specs) >= 15
    answers = {}
    for spec in specs:
        logql = expand(spec.expr, {"__range": "2h"})
        Parser(logql).query()  # the stub's parser accepts it too
        path = "query" if spec.instant else "query_range"
        data = wait_for(
            lambda logql=logql, path=path: (d := query(server, path, logql)) and d["result"] and d
        )
        assert data, (spec.title, logql)
        assert data["result"], (spec.title, logql)
        answers[spec.title, spec.kind] = data
    calls = sum(e.name == "PreToolUse" for e in events)
    assert totals(answers["Events", "stat"], "") == {"": len(events)}
    assert totals(answers["Tool calls", "stat"], "") == {"": calls}
    assert totals(answers["MCP servers", "piechart"], "mcp_server") == {"github": 6, "maguyva": 6}
    assert totals(answers["Shell command families", "barchart"], "bash_cli") == {
        "git": 6,
        "pytest": 6,
        "npm": 6,
    }
    assert totals(answers["Skills", "barchart"], "skill") == {"systematic-debugging": 6}
    assert totals(answers["Subagents dispatched", "barchart"], "subagent_type") == {"code-reviewer": 6}
    assert totals(answers["Built-in tools", "barchart"], "tool_name") == {"Read": 6}
    assert totals(answers["Failures by tool", "barchart"], "tool_name") == {
        "Bash": sum(e.name == "PostToolUseFailure" and e.labels.get("tool_name") == "Bash" for e in events),
        "mcp__github__create_issue": 4,
    }
    assert len(entries(answers["Activity feed", "logs"])) == len(events)
    # the variables narrow every panel: one session, an unknown repository
    one = query(server, "query", expand(specs[0].expr, {"__range": "2h", "session": "s1"}))
    assert totals(one, "") == {"": len(events) / 2}
    none = query(server, "query", expand(specs[0].expr, {"__range": "2h", "repository": "elsewhere"}))
    assert none["result"] == []


class KillingProxy:
    """Forwards to a backend; on the ``kill_on``-th push it kills the backend and drops the connection.

    ``after_forward``: the backend stores that push first, so only its answer is lost.
    """

    def __init__(self, backend, kill_on: int, after_forward: bool = False):
        self.backend, self.kill_on, self.after_forward, self.pushes = backend, kill_on, after_forward, 0
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                proxy.pushes += 1
                kill = proxy.pushes == proxy.kill_on
                if kill and not proxy.after_forward:
                    proxy.backend.stop()  # mid-batch: the flusher sees the connection drop
                    self.close_connection = True
                    return
                request = urllib.request.Request(
                    proxy.backend.url + self.path,
                    data=body,
                    method="POST",
                    headers={"Content-Type": "application/json"},
                )
                try:
                    with urllib.request.urlopen(request, timeout=10) as response:
                        code = response.status
                except OSError:
                    self.close_connection = True
                    return
                if kill:  # stored, but the answer never arrives
                    proxy.backend.stop()
                    self.close_connection = True
                    return
                self.send_response(code)
                self.end_headers()

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize("after_forward", [False, True], ids=["push-lost", "answer-lost"])
def test_killing_loki_mid_batch_loses_nothing_and_the_next_run_sends_it(server, tmp_path, after_forward):
    name = service()
    events = seeded(sessions=10, blocks=6)  # three pushes of BATCH_EVENTS=500
    for event in events:
        loki.enqueue(str(tmp_path), event, "shop")
    proxy = KillingProxy(server, kill_on=2, after_forward=after_forward)
    try:
        first = loki.flush(str(tmp_path), loki.target(proxy.url, service_name=name), {}, backoff=(0.01, 0.02))
    finally:
        proxy.close()
    assert first.sent == loki.BATCH_EVENTS
    assert first.pending == len(events) - loki.BATCH_EVENTS
    assert "kept for the next run" in first.warnings[0]
    assert loki.pending_events(str(tmp_path)) == first.pending
    server.start()  # same port, same data
    second = loki.flush(str(tmp_path), loki.target(server.url, service_name=name), {})
    assert (second.sent, second.pending, second.warnings) == (first.pending, 0, [])
    count = f'sum(count_over_time({{service_name="{name}"}} [2h]))'  # exactly once: a resent entry is dropped
    data = wait_for(lambda: (d := query(server, "query", count)) and totals(d, "") == {"": len(events)} and d)
    assert data
    assert totals(data, "") == {"": len(events)}


def test_the_hook_never_waits_for_loki_and_keeps_what_it_cannot_send(git_repo):
    stub = StubLoki()
    stub.start()
    try:
        payload = json.loads((FIXTURES / "PostToolUse-mcp.json").read_text()) | {"cwd": str(git_repo)}
        sent = subprocess.run(
            [HOOK, "--loki-endpoint", stub.url, "--loki-service", "hooks-live"],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            cwd=git_repo,
            check=False,
        )
        assert (sent.returncode, sent.stdout, sent.stderr) == (0, "", "")
        assert wait_for(lambda: stub.pushes == 1, 20)  # the detached flusher pushed it
        assert loki.pending_events(str(git_repo / ".orkestra" / "telemetry")) == 0
    finally:
        stub.stop()
    down = f"http://127.0.0.1:{free_port()}"  # nothing listens there
    (git_repo / "orkestra.yaml").write_text(f"version: 1\ntelemetry:\n  loki:\n    endpoint: {down}\n")
    fast = {**os.environ, "ORKESTRA_LOKI_BACKOFF": "0.05,0.1"}  # the detached flusher's retries, shortened
    kept = subprocess.run(
        [HOOK, "--loki-endpoint", down],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        cwd=git_repo,
        check=False,
        env=fast,
    )
    assert (kept.returncode, kept.stdout, kept.stderr) == (0, "", "")
    store = str(git_repo / ".orkestra" / "telemetry")
    assert wait_for(lambda: loki.pending_events(store) == 1 and not _flusher_running(store), 30)
    failed = run_cli("telemetry", "flush", cwd=git_repo, env={"ORKESTRA_LOKI_BACKOFF": ""})
    assert failed.returncode == 1
    assert json.loads(failed.stdout)["pending"] == 1
    stub = StubLoki()
    stub.start()
    try:
        config = f"version: 1\ntelemetry:\n  loki:\n    endpoint: {stub.url}\n    service_name: hooks-later\n"
        (git_repo / "orkestra.yaml").write_text(config)
        flushed = run_cli("telemetry", "flush", cwd=git_repo)
        assert flushed.returncode == 0, flushed.stderr
        assert json.loads(flushed.stdout) == {"sent": 1, "pending": 0, "rejected": 0, "warnings": []}
        [stream] = query(stub, "query_range", '{service_name="hooks-later"}')["result"]
        assert stream["stream"]["mcp_server"] == "maguyva"
    finally:
        stub.stop()


def _flusher_running(store: str) -> bool:
    import fcntl

    path = os.path.join(store, "loki", "lock")
    if not os.path.exists(path):
        return False
    with open(path) as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return True
        fcntl.flock(handle, fcntl.LOCK_UN)
        return False


def test_a_batch_loki_refuses_is_set_aside_not_retried(tmp_path):
    stub = StubLoki()
    stub.start()
    try:
        bad = Event(timestamp(), {"event": "Stop", "agent_tool": "claude-code"}, {"session_id": "s1"})
        loki.enqueue(str(tmp_path), bad, None)
        result = loki.flush(
            str(tmp_path), loki.target(stub.url, service_name=" "), {}
        )  # stub: empty label → 400
    finally:
        stub.stop()
    assert (result.sent, result.pending, result.rejected) == (0, 0, 1)
    [kept] = list((tmp_path / "loki" / "rejected").glob("batch-*.jsonl"))
    assert json.loads(kept.read_text())["event"]["fields"] == {"session_id": "s1"}


def test_pushes_are_capped_in_events_and_bytes():
    small = [
        (Event(timestamp(), {"event": "Stop", "agent_tool": "claude-code"}, {"n": i}), None)
        for i in range(1201)
    ]
    assert loki.chunks(small) == [(0, 500), (500, 1000), (1000, 1201)]
    big = [
        (Event(timestamp(), {"event": "Stop", "agent_tool": "claude-code"}, {"blob": "x" * 60_000}), None)
    ] * 40
    sizes = [end - start for start, end in loki.chunks(big)]
    # 17 × ~60 KB ≤ 1 MiB
    assert sum(sizes) == 40
    assert max(sizes) == 17
    assert loki.chunks([]) == []


@pytest.mark.filterwarnings(
    "error::pytest.PytestUnhandledThreadExceptionWarning"
)  # a flusher that raises fails
def test_hooks_appending_while_flushers_run_lose_nothing_and_duplicate_nothing(tmp_path):
    """8 writer threads append (like concurrent hooks) while 3 flushers rename and push the outbox."""
    stub = StubLoki()
    stub.start()
    store, where = str(tmp_path), loki.target(stub.url, service_name="hooks-race")
    base = datetime.now(UTC) - timedelta(minutes=5)
    done = threading.Event()

    def writer(w: int) -> None:
        for i in range(150):
            moment = base + timedelta(milliseconds=w * 1000 + i)
            loki.enqueue(
                store,
                Event(
                    timestamp(moment),
                    {"event": "Stop", "agent_tool": "claude-code"},
                    {"session_id": f"w{w}", "i": i},
                ),
                "shop",
            )

    def flusher() -> None:
        while not done.is_set():
            loki.flush(store, where, {}, backoff=())

    flushers = [threading.Thread(target=flusher) for _ in range(3)]
    writers = [threading.Thread(target=writer, args=(w,)) for w in range(8)]
    try:
        for thread in flushers + writers:
            thread.start()
        for thread in writers:
            thread.join()
        done.set()
        for thread in flushers:
            thread.join()
        final = loki.flush(store, where, {})
        assert final.pending == 0
        assert loki.pending_events(store) == 0
        data = query(stub, "query", 'sum by (session_id) (count_over_time({service_name="hooks-race"} [1h]))')
        assert totals(data, "session_id") == {f"w{w}": 150 for w in range(8)}
        assert sum(len(v) for v in stub.store.streams.values()) == 1200
    finally:
        stub.stop()
