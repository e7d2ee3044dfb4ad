"""Loopback ports and MCP-over-HTTP sessions for the tests that start real servers."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import anyio
import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, seconds: float = 60) -> bool:
    """True once something listens on loopback ``port``; False if ``process`` exits first or time runs out."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.1)
    return False


INITIALIZE = {  # a bare MCP ``initialize`` request, as the tests send it
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}


def initialize_status(url: str, token: str | None) -> int:
    """The HTTP status of a bare MCP ``initialize`` POST to ``url``, with ``token`` as Bearer if given."""
    headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    body = INITIALIZE
    return httpx.post(url, json=body, headers=headers, timeout=10).status_code


def mcp_calls(url: str, token: str | None, calls: list[tuple[str, dict]]) -> list:
    """Results of ``calls`` (tool name, arguments) in one real MCP client session over HTTP."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    headers = {"Authorization": f"Bearer {token}"} if token else {}

    async def go():
        async with (
            httpx2.AsyncClient(headers=headers, timeout=30) as http,
            Client(streamable_http_client(url, http_client=http)) as client,
        ):
            return [await client.call_tool(name, args) for name, args in calls]

    return anyio.run(go)


def serve_http(
    port: int, *args: str, cwd=None, env: dict | None = None, text: bool = False
) -> subprocess.Popen:
    """``orkestra code serve --http --port PORT ARGS…`` as a real subprocess (stderr piped, for the failure)."""
    return subprocess.Popen(
        [sys.executable, "-m", "orkestra", "code", "serve", "--http", "--port", str(port), *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=text,
    )
