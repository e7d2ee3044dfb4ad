"""How both MCP servers (maguyva's ``code serve`` and orkestra's ``serve``) meet the wire.

Stdio answers every request, even one the SDK cannot read: a line holding a lone surrogate
(``"\\ud800"``), a shape that is not JSON-RPC or text that is not JSON gets a JSON-RPC error, where
the SDK alone would drop it and leave the client waiting. Streamable HTTP is served at ``/mcp``
with idle sessions expired after ``session_idle_timeout`` seconds (the SDK's session manager does
it; we make it configurable) and, on a server without a key, behind ``hosts.HostGuard``.
"""

from __future__ import annotations

import json
from typing import Any

from maguyva.server.hosts import BoundHost, HostGuard

DEFAULT_SESSION_IDLE_TIMEOUT = 1800.0  # seconds; the SDK's default, now a --session-idle-timeout option
MCP_PATH = "/mcp"


def run_http(
    server: Any,
    *,
    host: str,
    port: int,
    guard: BoundHost | None,
    session_idle_timeout: float = DEFAULT_SESSION_IDLE_TIMEOUT,
) -> None:
    """Serve ``server`` (an ``MCPServer``) over streamable HTTP until interrupted.

    ``guard`` (the bound host, for a server without a key) refuses requests whose ``Host`` or
    ``Origin`` names another site; the SDK's own check (exact strings, three loopback spellings)
    is turned off so that one rule decides for every spelling.
    """
    import math

    import anyio
    import uvicorn
    from mcp.server.transport_security import TransportSecuritySettings

    from maguyva.errors import UsageError

    if not (math.isfinite(session_idle_timeout) and session_idle_timeout > 0):
        raise UsageError(
            f"--session-idle-timeout {session_idle_timeout}: give a number of seconds, at least 1"
        )
    app = server.streamable_http_app(
        streamable_http_path=MCP_PATH,
        session_idle_timeout=session_idle_timeout,
        transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        host=host,
    )
    if guard is not None:
        app = HostGuard(app, guard)
    bind = host.strip()
    bind = bind[1:-1] if bind.startswith("[") and bind.endswith("]") else bind
    config = uvicorn.Config(app, host=bind, port=port, log_level=server.settings.log_level.lower())
    anyio.run(uvicorn.Server(config).serve)


def run_stdio(server: Any) -> None:
    """Serve ``server`` over stdin/stdout until stdin closes, answering unreadable requests with an error."""
    import anyio

    anyio.run(_serve_stdio, server)


async def _serve_stdio(server: Any) -> None:
    import anyio
    from mcp.server.stdio import stdio_server

    lowlevel = server._lowlevel_server  # MCPServer.run_stdio_async's own path, with our reader in between
    async with stdio_server() as (wire_in, wire_out):
        inbound, messages = anyio.create_memory_object_stream(0)
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_answer_unreadable, wire_in, inbound, wire_out)
            await lowlevel.run(messages, wire_out, lowlevel.create_initialization_options())
            tasks.cancel_scope.cancel()


async def _answer_unreadable(wire_in: Any, inbound: Any, wire_out: Any) -> None:
    """Pass messages on; answer each line the SDK could not read (it yields an exception) with an error."""
    from mcp.shared.message import SessionMessage

    async with inbound:
        async for item in wire_in:
            if not isinstance(item, Exception):
                await inbound.send(item)
                continue
            reply = unreadable_reply(item)
            if reply is not None:
                await wire_out.send(SessionMessage(reply))


def unreadable_reply(error: Exception):
    """The ``JSONRPCError`` for a line the SDK could not parse (None for a notification: no reply is due).

    The line is read again with Python's ``json``, which accepts what the SDK's parser refuses (lone
    surrogates), to find the request's id and say what is wrong.
    """
    from mcp_types import INVALID_PARAMS, INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError

    data = _raw_message(error)
    if isinstance(data, str):
        try:
            data = json.loads(data)
        except (ValueError, RecursionError):
            data = None
    if data is None:
        code, message, request_id = PARSE_ERROR, "parse error: the line is not JSON", None
    elif not isinstance(data, dict):
        code, message, request_id = INVALID_REQUEST, "invalid request: not a JSON-RPC object", None
    else:
        request_id = data.get("id")
        if "id" not in data and "method" in data:
            return None  # a notification: JSON-RPC never answers one
        if isinstance(request_id, bool) or not isinstance(request_id, str | int):
            request_id = None
        where = _lone_surrogate(data)
        if where is not None:
            path, char = where
            in_params = path.startswith(("params", "a key of params"))
            code, kind = (
                (INVALID_PARAMS, "invalid params") if in_params else (INVALID_REQUEST, "invalid request")
            )
            message = (
                f"{kind}: {path[:200]} holds a lone surrogate (\\u{ord(char):04x}), which is not "
                f"Unicode text; send valid UTF-8"
            )
        else:
            code, message = (
                INVALID_REQUEST,
                "invalid request: not a JSON-RPC 2.0 request, notification or response",
            )
    return JSONRPCError(jsonrpc="2.0", id=request_id, error=ErrorData(code=code, message=message))


def _raw_message(error: Exception) -> Any:
    """What the SDK failed on: the line (JSON it could not parse) or the object it parsed, else None."""
    errors = getattr(error, "errors", None)
    if not callable(errors):
        return None
    try:
        found = errors()
    except Exception:  # noqa: BLE001 - any failure here only means "nothing to read again"
        return None
    return found[0].get("input") if found else None


def _lone_surrogate(value: Any, path: str = "") -> tuple[str, str] | None:
    """(where, the surrogate) of the first lone surrogate in a key or string of ``value``, iteratively."""
    stack = [(path, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, str):
            bad = next((c for c in item if "\ud800" <= c <= "\udfff"), None)
            if bad is not None:
                return where or "the message", bad
        elif isinstance(item, dict):
            for key, child in reversed(list(item.items())):
                child_path = f"{where}.{key}" if where else str(key)
                bad = next((c for c in str(key) if "\ud800" <= c <= "\udfff"), None)
                if bad is not None:
                    return f"a key of {where}" if where else "a key of the message", bad
                stack.append((child_path, child))
        elif isinstance(item, list):
            stack.extend((f"{where}[{i}]", child) for i, child in reversed(list(enumerate(item))))
    return None
