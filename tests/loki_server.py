"""Loki for the tests: Grafana's real binary when one is installed, else a local stub that speaks its API.

``real_loki_binary()`` finds a Grafana Loki (``$ORKESTRA_LOKI_BIN``, else ``loki`` on PATH that
answers ``-version`` as Grafana Loki; Debian's ``loki`` package is an unrelated genetics tool).
``RealLoki`` starts it on 127.0.0.1 with a throwaway config and data dir. ``StubLoki`` is a
threaded HTTP server implementing ``/loki/api/v1/push`` (JSON, with structured metadata),
``/query_range``, ``/query`` and ``/labels`` with a LogQL subset evaluator: stream selectors,
``| json``, label filters (stream labels, structured metadata, extracted fields), line filters,
``count_over_time``/``rate`` and ``sum by``. Like Loki it drops an entry identical to one it holds.
Both expose ``url``, ``stop()`` (a hard kill) and ``start()`` (same port, same data).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from local_http import free_port

CONFIG = """
auth_enabled: false
server: {{http_listen_address: 127.0.0.1, http_listen_port: {port}, grpc_listen_address: 127.0.0.1,
         grpc_listen_port: {grpc}, log_level: warn}}
common:
  instance_addr: 127.0.0.1
  path_prefix: {data}
  storage: {{filesystem: {{chunks_directory: {data}/chunks, rules_directory: {data}/rules}}}}
  replication_factor: 1
  ring: {{kvstore: {{store: inmemory}}}}
schema_config:
  configs: [{{from: 2020-10-24, store: tsdb, object_store: filesystem, schema: v13,
             index: {{prefix: index_, period: 24h}}}}]
limits_config: {{allow_structured_metadata: true, reject_old_samples: false, volume_enabled: true}}
analytics: {{reporting_enabled: false}}
"""


def real_loki_binary() -> tuple[str | None, str]:
    """(path, why not) for a Grafana Loki binary."""
    candidate = os.environ.get("ORKESTRA_LOKI_BIN") or shutil.which("loki")
    if not candidate:
        return None, "no Grafana Loki binary (Debian's 'loki' is a genetics program; PyPI/npm ship none)"
    try:
        out = subprocess.run([candidate, "-version"], capture_output=True, text=True, timeout=10, check=False)
    except OSError as exc:
        return None, f"{candidate}: {exc}"
    if "loki, version" not in out.stdout + out.stderr:
        return None, f"{candidate} is not Grafana Loki (Debian's 'loki' package is MCMC linkage analysis)"
    return candidate, ""


def get_json(url: str, headers: dict | None = None) -> dict:
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}), timeout=10) as response:
        return json.loads(response.read())


class RealLoki:
    def __init__(self, binary: str):
        self.binary, self.port, self.grpc = binary, free_port(), free_port()
        self.data = tempfile.mkdtemp(prefix="loki-")
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self) -> None:
        config = Path(self.data) / "loki.yaml"
        config.write_text(CONFIG.format(port=self.port, grpc=self.grpc, data=self.data))
        self.proc = subprocess.Popen(
            [self.binary, f"-config.file={config}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        for _ in range(600):
            try:
                with urllib.request.urlopen(self.url + "/ready", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("Loki did not become ready in 60 s")

    def stop(self) -> None:
        if self.proc:
            self.proc.kill()
            self.proc.wait()

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.data, ignore_errors=True)


# -- the stub --------------------------------------------------------------------------------

TOKEN = re.compile(
    r'\s*(?:(?P<str>"(?:[^"\\]|\\.)*"|`[^`]*`)|(?P<dur>\[\d+[smhd]\])|(?P<op>\|=|\|~|!=|!~|=~|=|\||\{|\}|\(|\)|,)'
    r"|(?P<num>\d+(?:\.\d+)?)|(?P<id>[A-Za-z_][A-Za-z0-9_]*))"
)
UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def tokens(query: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    query = query.strip()
    while pos < len(query):
        match = TOKEN.match(query, pos)
        if not match or match.end() == pos:
            raise ValueError(f"parse error at {pos}: {query[pos : pos + 20]!r}")
        kind = match.lastgroup
        out.append((kind, match[kind]))
        pos = match.end()
    return out


def unquote(text: str) -> str:
    return text[1:-1] if text.startswith("`") else json.loads(text)


def matches(op: str, value: str, pattern: str) -> bool:
    if op == "=":
        return value == pattern
    if op == "!=":
        return value != pattern
    hit = re.fullmatch(pattern, value, re.DOTALL) is not None
    return hit if op == "=~" else not hit


def flatten(data: object, prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    if isinstance(data, dict):
        for key, value in data.items():
            name = re.sub(r"[^A-Za-z0-9_]", "_", f"{prefix}{key}")
            if isinstance(value, dict):
                out.update(flatten(value, name + "_"))
            elif isinstance(value, list):
                out[name] = json.dumps(value)
            elif value is not None:
                out[name] = value if isinstance(value, str) else json.dumps(value)
    return out


class Parser:
    def __init__(self, query: str):
        self.toks, self.i = tokens(query), 0

    def peek(self, offset: int = 0) -> tuple[str, str]:
        return self.toks[self.i + offset] if self.i + offset < len(self.toks) else ("end", "")

    def take(self, value: str | None = None) -> str:
        text = self.peek()[1]
        if value is not None and text != value:
            raise ValueError(f"expected {value!r}, got {text!r}")
        self.i += 1
        return text

    def query(self) -> dict:
        node = self.expr()
        if self.peek()[0] != "end":
            raise ValueError(f"unexpected {self.peek()[1]!r}")
        return node

    def expr(self) -> dict:
        kind, text = self.peek()
        if text in ("sum", "count"):
            self.take()
            by: list[str] = []
            if self.peek()[1] == "by":
                by = self.grouping()
            self.take("(")
            inner = self.expr()
            self.take(")")
            if self.peek()[1] == "by":
                by = self.grouping()
            return {"agg": text, "by": by, "inner": inner}
        if text in ("count_over_time", "rate"):
            self.take()
            self.take("(")
            logs = self.logs()
            kind, dur = self.peek()
            if kind != "dur":
                raise ValueError("expected a [range]")
            self.take()
            self.take(")")
            return {"range": text, "seconds": int(dur[1:-2]) * UNITS[dur[-2]], "logs": logs}
        return self.logs()

    def grouping(self) -> list[str]:
        self.take("by")
        self.take("(")
        names = []
        while self.peek()[1] != ")":
            names.append(self.take())
            if self.peek()[1] == ",":
                self.take()
        self.take(")")
        return names

    def logs(self) -> dict:
        self.take("{")
        selector = []
        while self.peek()[1] != "}":
            name, op, value = self.take(), self.take(), unquote(self.take())
            selector.append((name, op, value))
            if self.peek()[1] == ",":
                self.take()
        self.take("}")
        stages = []
        while self.peek()[1] in ("|", "|=", "|~", "!=", "!~"):
            op = self.take()
            if op == "|":
                if self.peek()[1] == "json":
                    self.take()
                    stages.append(("json",))
                else:
                    name, cmp = self.take(), self.take()
                    stages.append(("label", name, cmp, unquote(self.take())))
            else:
                stages.append(("line", op, unquote(self.take())))
        return {"selector": selector, "stages": stages}


class Store:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.streams: dict[tuple, dict[tuple[int, str], dict]] = {}

    def push(self, body: dict) -> None:
        with self.lock:
            for stream in body["streams"]:
                if not stream["stream"] or any(not str(v).strip() for v in stream["stream"].values()):
                    raise ValueError("empty label")
                key = tuple(sorted(stream["stream"].items()))
                entries = self.streams.setdefault(key, {})
                for value in stream["values"]:
                    entries.setdefault((int(value[0]), value[1]), dict(value[2]) if len(value) > 2 else {})

    def select(self, logs: dict, start: int, end: int) -> list[tuple[int, dict, dict, str]]:
        out = []
        with self.lock:
            for key, entries in self.streams.items():
                labels = dict(key)
                if not all(matches(op, labels.get(name, ""), value) for name, op, value in logs["selector"]):
                    continue
                for (ts, line), metadata in entries.items():
                    if not start <= ts <= end:
                        continue
                    row = {**labels, **metadata}
                    if self._keep(logs["stages"], row, line):
                        out.append((ts, labels, row, line))
        return out

    @staticmethod
    def _keep(stages: list, row: dict, line: str) -> bool:
        for stage in stages:
            if stage[0] == "json":
                try:
                    extracted = flatten(json.loads(line))
                except ValueError:
                    row["__error__"] = "JSONParserErr"
                    continue
                for name, value in extracted.items():
                    row[f"{name}_extracted" if name in row else name] = value
            elif stage[0] == "label":
                if not matches(stage[2], str(row.get(stage[1], "")), stage[3]):
                    return False
            else:
                op, text = stage[1], stage[2]
                hit = text in line if op in ("|=", "!=") else re.search(text, line) is not None
                if hit != (op in ("|=", "|~")):
                    return False
        return True


def evaluate(node: dict, store: Store, at: int) -> dict[tuple, float]:
    """A metric node at time ``at`` (ns) → {label tuple: value}."""
    if "agg" in node:
        inner = evaluate(node["inner"], store, at)
        out: dict[tuple, float] = {}
        for labels, value in inner.items():
            key = tuple((k, v) for k, v in labels if k in node["by"])
            out[key] = out.get(key, 0) + (value if node["agg"] == "sum" else 1)
        return out
    seconds = node["seconds"]
    counts: dict[tuple, float] = {}
    for _, _, row, _ in store.select(node["logs"], at - seconds * 1_000_000_000 + 1, at):
        key = tuple(sorted((k, str(v)) for k, v in row.items()))
        counts[key] = counts.get(key, 0) + 1
    if node["range"] == "rate":
        counts = {k: v / seconds for k, v in counts.items()}
    return counts


class StubLoki:
    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.store = Store()
        self.pushes = 0
        self.headers: list[dict[str, str]] = []
        self.server: ThreadingHTTPServer | None = None

    def start(self) -> None:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def reply(self, code: int, body: object) -> None:
                data = json.dumps(body).encode() if not isinstance(body, bytes) else body
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_POST(self) -> None:
                if self.path != "/loki/api/v1/push":
                    return self.reply(404, b"not found")
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                stub.headers.append(dict(self.headers.items()))
                try:
                    stub.store.push(json.loads(body))
                except (ValueError, KeyError, TypeError) as exc:
                    return self.reply(400, str(exc).encode())
                stub.pushes += 1
                self.send_response(204)
                self.end_headers()
                return None

            def do_GET(self) -> None:
                url = urllib.parse.urlparse(self.path)
                args = {k: v[-1] for k, v in urllib.parse.parse_qs(url.query).items()}
                try:
                    if url.path == "/ready":
                        return self.reply(200, b"ready")
                    if url.path == "/loki/api/v1/labels":
                        names = sorted({k for key in stub.store.streams for k, _ in key})
                        return self.reply(200, {"status": "success", "data": names})
                    if url.path in ("/loki/api/v1/query_range", "/loki/api/v1/query"):
                        return self.reply(200, {"status": "success", "data": stub.query(url.path, args)})
                except ValueError as exc:
                    return self.reply(400, f"parse error: {exc}".encode())
                return self.reply(404, b"not found")

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def query(self, path: str, args: dict) -> dict:
        node = Parser(args["query"]).query()
        now = time.time_ns()
        end = int(args.get("end") or args.get("time") or now)
        start = int(args.get("start") or end - 3600 * 1_000_000_000)
        if "selector" in node:
            rows = sorted(
                self.store.select(node, start, end),
                key=lambda r: r[0],
                reverse=args.get("direction", "backward") == "backward",
            )[: int(args.get("limit", 100))]
            streams: dict[tuple, list] = {}
            for ts, _, row, line in rows:
                streams.setdefault(tuple(sorted(row.items())), []).append([str(ts), line])
            return {
                "resultType": "streams",
                "result": [{"stream": dict(k), "values": v} for k, v in streams.items()],
            }
        if path.endswith("/query"):
            return {
                "resultType": "vector",
                "result": [
                    {"metric": dict(k), "value": [end / 1e9, str(v)]}
                    for k, v in evaluate(node, self.store, end).items()
                ],
            }
        step = int(float(args.get("step", 60)) * 1_000_000_000)
        series: dict[tuple, list] = {}
        for at in range(start, end + 1, step):
            for key, value in evaluate(node, self.store, at).items():
                series.setdefault(key, []).append([at / 1e9, str(value)])
        return {
            "resultType": "matrix",
            "result": [{"metric": dict(k), "values": v} for k, v in series.items()],
        }

    def stop(self) -> None:
        if self.server:
            self.server.shutdown()
            self.server.server_close()
            self.server = None

    close = stop


if __name__ == "__main__":  # a stub in its own process (bench/bench_hooks.py --loki): prints its URL
    import sys

    stub = StubLoki()
    stub.start()
    print(stub.url, flush=True)
    sys.stdin.read()  # serve until the parent closes our stdin
    stub.stop()
