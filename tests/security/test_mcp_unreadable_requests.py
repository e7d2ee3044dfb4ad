"""Issue 31 class 11: a request the MCP SDK cannot read gets an error reply, over stdio and HTTP.

A JSON string may spell a lone surrogate (``"\\ud800"``): valid JSON, not Unicode text. The SDK's
parser refuses the line and, over stdio, dropped it without a word: the client waited for ever.
Both servers (``orkestra code serve`` and ``orkestra serve``) now answer such a request with a
JSON-RPC error carrying its id, and keep serving. The clients here write raw lines to a real server
subprocess after a real ``initialize`` handshake (an SDK client cannot send a lone surrogate).
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys

import httpx
import pytest
from conftest import git
from local_http import INITIALIZE, free_port, wait_for_port
from maguyva_project import index_project, make_project
from memory_repo import make_memory_repo


@pytest.fixture(scope="module")
def servers(tmp_path_factory) -> dict[str, list[str]]:
    """The command line of each server, over stdio."""
    base = tmp_path_factory.mktemp("unreadable")
    root = make_project(base / "shop")
    store = base / "index.db"
    index_project(root, store)
    workspace = base / "memory"
    workspace.mkdir()
    git(workspace, "init", "-q", "-b", "main")
    make_memory_repo(workspace)
    return {
        "code": ["code", "serve", "--repo", str(root), "--store", str(store)],
        "orkestra": ["serve", "--root", str(workspace)],
    }


TOOL = {"code": ("search_text", "pattern"), "orkestra": ("search_registry", "query")}


class Stdio:
    """A server subprocess spoken to in raw JSON-RPC lines."""

    def __init__(self, args: list[str]):
        env = {k: v for k, v in os.environ.items() if k != "MAGUYVA_API_KEY"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "orkestra", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        assert self.ask(json.dumps(INITIALIZE))["id"] == 1
        self.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def reply(self, seconds: float = 30) -> dict | None:
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], seconds)
        return json.loads(self.process.stdout.readline()) if ready else None

    def ask(self, line: str) -> dict:
        self.send(line)
        answer = self.reply()
        assert answer is not None, f"no reply to {line[:200]!r}"
        return answer

    def close(self) -> str:
        """End the session (stdin closed) and return what the server wrote to stderr."""
        try:
            return self.process.communicate(timeout=20)[1].decode(errors="replace")
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.communicate()[1].decode(errors="replace")


def _call(request_id, tool: str, arguments: str) -> str:
    """A tools/call line with ``arguments`` as raw JSON text (so it can spell a lone surrogate)."""
    return (
        f'{{"jsonrpc":"2.0","id":{json.dumps(request_id)},"method":"tools/call",'
        f'"params":{{"name":"{tool}","arguments":{arguments}}}}}'
    )


@pytest.mark.parametrize("server", ["code", "orkestra"])
def test_a_lone_surrogate_argument_gets_an_error_reply_over_stdio(servers, server):
    """Before: no reply at all; the next request was answered, this one never."""
    tool, field = TOOL[server]
    session = Stdio(servers[server])
    try:
        answer = session.ask(_call(2, tool, f'{{"{field}":"cart\\ud800total"}}'))
        assert answer["id"] == 2, answer
        assert answer["error"]["code"] == -32602, answer
        message = answer["error"]["message"]
        assert f"params.arguments.{field}" in message
        assert "lone surrogate" in message
        assert "\\ud800" in message
        fine = session.ask(_call(3, tool, f'{{"{field}":"cart"}}'))  # the session goes on
        assert fine["id"] == 3
        assert "result" in fine
    finally:
        session.close()


VARIANTS = {
    "low-surrogate-in-a-list": ('"abc-1"', '{"pattern":"x","path_prefix":["a","\\udc80"]}', -32602, "abc-1"),
    "surrogate-as-a-key": ("4", '{"pattern":"x","\\udfff":1}', -32602, 4),
    "surrogate-pair-reversed": ("5", '{"pattern":"\\udc00\\ud800"}', -32602, 5),
    "in-the-tool-name": ("6", None, -32602, 6),
    "an-object-id": ('{"x":1}', '{"pattern":"\\ud800"}', -32602, None),
}


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_unreadable_request_is_answered_with_its_id(servers, variant):
    request_id, arguments, code, expected_id = VARIANTS[variant]
    session = Stdio(servers["code"])
    try:
        if arguments is None:
            line = (
                f'{{"jsonrpc":"2.0","id":{request_id},"method":"tools/call","params":{{"name":"x\\ud800"}}}}'
            )
        else:
            line = f'{{"jsonrpc":"2.0","id":{request_id},"method":"tools/call","params":{{"name":"search_text","arguments":{arguments}}}}}'
        answer = session.ask(line)
        assert answer.get("id") == expected_id, answer
        assert answer["error"]["code"] == code, answer
        assert "lone surrogate" in answer["error"]["message"]
    finally:
        session.close()


def test_lines_that_are_not_json_rpc_get_an_error_and_notifications_none(servers):
    session = Stdio(servers["code"])
    try:
        garbage = session.ask("this is not json")
        assert garbage["id"] is None
        assert garbage["error"]["code"] == -32700
        batch = session.ask("[1, 2]")
        assert batch["id"] is None
        assert batch["error"]["code"] == -32600
        shapeless = session.ask('{"jsonrpc":"2.0","id":9}')
        assert shapeless["id"] == 9
        assert shapeless["error"]["code"] == -32600
        session.send('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"\\ud800"}}')
        assert session.reply(seconds=2) is None  # JSON-RPC never answers a notification
        fine = session.ask(_call(10, "search_text", '{"pattern":"cart"}'))
        assert fine["id"] == 10
        assert "result" in fine
    finally:
        session.close()


def test_a_lone_surrogate_over_http_is_answered_too(servers):
    """HTTP already answered (400 with a parse error); kept so both transports stay covered."""
    args = servers["code"]
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "orkestra", *args, "--http", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        assert wait_for_port(port, process)
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        url = f"http://127.0.0.1:{port}/mcp"
        opened = httpx.post(url, json=INITIALIZE, headers=headers, timeout=10)
        session = {
            **headers,
            "mcp-session-id": opened.headers["mcp-session-id"],
            "mcp-protocol-version": "2025-06-18",
        }
        body = _call(2, "search_text", '{"pattern":"\\ud800"}').encode()
        answer = httpx.post(url, content=body, headers=session, timeout=10)
        assert answer.status_code == 400
        assert "error" in answer.json()
    finally:
        process.terminate()
        process.communicate(timeout=20)
