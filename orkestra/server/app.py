"""Build the ``orkestra`` MCPServer for one workspace and run it over stdio or streamable HTTP."""

from __future__ import annotations

from pathlib import Path

INSTRUCTIONS = (
    "Orkestra serves this repository's institutional memory: decisions, ground truths, agents and skills. "
    "Call why(path) before changing code to see the decisions and truths that govern it, and follow their "
    "do/avoid guidance; search_registry for anything else. propose_decision writes a draft for review only."
)


LOOPBACK = ("127.0.0.1", "localhost", "::1")


def build_server(root: str | Path | None, *, read_only: bool = False):
    """The MCPServer named ``orkestra`` with its six tools bound to the workspace at ``root``
    (five with ``read_only``: no ``propose_decision``, nothing is ever written)."""
    from mcp.server import MCPServer

    from orkestra import __version__
    from orkestra.inspect.api import find_root
    from orkestra.server.tools import register

    workspace = find_root(root)
    server = MCPServer("orkestra", instructions=INSTRUCTIONS, version=__version__)
    register(server, workspace, read_only=read_only)
    return server


def serve(
    root: str | Path | None,
    *,
    http: bool = False,
    host: str = "127.0.0.1",
    port: int = 8766,
    read_only: bool = False,
) -> None:
    """Run until interrupted: stdio by default, streamable HTTP at ``/mcp`` with ``http``.

    The server has no authentication, and ``propose_decision`` writes files: HTTP on a
    non-loopback address is refused unless ``read_only``.
    """
    from orkestra.errors import UsageError

    if http and host not in LOOPBACK and not read_only:
        raise UsageError(
            f"--host {host}: the orkestra server has no authentication and propose_decision writes "
            "records; serve other hosts only with --read-only (or keep 127.0.0.1 behind a proxy)"
        )
    server = build_server(root, read_only=read_only)  # fails fast (no orkestra.yaml) before the transport
    if http:
        server.run(transport="streamable-http", host=host, port=port, streamable_http_path="/mcp")
    else:
        server.run()
