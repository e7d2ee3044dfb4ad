"""Optional OTLP/HTTP export, received by a stub collector on 127.0.0.1."""

from __future__ import annotations

import http.server
import json
import threading
from pathlib import Path

import pytest

from orkestra.telemetry.export import SERVICE_NAME, export_events, logs_url
from orkestra.telemetry.hook import record_hook

logs_service = pytest.importorskip(
    "opentelemetry.proto.collector.logs.v1.logs_service_pb2",
    reason="the 'otel' extra is not installed (pip install 'orkestra[otel]')",
)

FIXTURES = Path(__file__).parent / "fixtures" / "hooks"


@pytest.fixture
def collector():
    received: list[tuple[str, str, bytes]] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # http.server's name for it
            body = self.rfile.read(int(self.headers["Content-Length"]))
            received.append((self.path, self.headers["Content-Type"], body))
            self.send_response(200)
            self.send_header("Content-Type", "application/x-protobuf")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", received
    server.shutdown()
    server.server_close()


def test_a_recorded_hook_event_is_posted_as_an_otlp_log_record(collector, git_repo):
    endpoint, received = collector
    payload = json.loads((FIXTURES / "PostToolUse-mcp.json").read_text()) | {"cwd": str(git_repo)}
    recorded = record_hook(
        json.dumps(payload),
        otlp_endpoint=endpoint,
        env={},
        cwd=str(git_repo),
        ts="2026-03-01T10:00:00.250000Z",
    )
    assert recorded.warnings == []
    [(path, content_type, body)] = received
    assert (path, content_type) == ("/v1/logs", "application/x-protobuf")
    request = logs_service.ExportLogsServiceRequest.FromString(body)
    [resource_logs] = request.resource_logs
    resource = {a.key: a.value.string_value for a in resource_logs.resource.attributes}
    assert resource["service.name"] == SERVICE_NAME
    [record] = resource_logs.scope_logs[0].log_records
    assert {a.key: a.value.string_value for a in record.attributes} == recorded.event.labels
    assert record.time_unix_nano == 1772359200_250000000
    assert json.loads(record.body.string_value) == recorded.event.fields
    assert record.event_name == "PostToolUse"


def test_an_unreachable_collector_is_a_warning_not_an_error(git_repo):
    import socket

    with socket.socket() as probe:  # a port that nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    warnings = export_events([], f"http://127.0.0.1:{port}", timeout=0.5)
    assert warnings == []  # nothing to send, nothing sent
    recorded = record_hook(
        '{"hook_event_name": "Stop", "session_id": "s"}',
        otlp_endpoint=f"http://127.0.0.1:{port}",
        env={"CLAUDE_PROJECT_DIR": str(git_repo)},
        cwd="/",
    )
    assert recorded.warnings == [f"OTLP export of 1 event(s) to http://127.0.0.1:{port}/v1/logs failed"]
    assert Path(recorded.path).read_text().count("\n") == 1  # stored locally all the same


def test_logs_url_appends_the_signal_path_once():
    assert logs_url("http://c:4318") == "http://c:4318/v1/logs"
    assert logs_url("http://c:4318/v1/logs/") == "http://c:4318/v1/logs"
