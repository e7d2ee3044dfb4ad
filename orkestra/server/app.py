"""Build the ``orkestra`` MCPServer for one workspace and run it over stdio or streamable HTTP."""

from __future__ import annotations

from pathlib import Path

INSTRUCTIONS = (
    "Orkestra serves this repository's institutional memory: decisions, ground truths, agents and skills. "
    "Call why(path) before changing code to see the decisions and truths that govern it, and follow their "
    "do/avoid guidance; search_registry for anything else. propose_decision writes a draft for review only."
)


def build_server(root: str | Path | None):
    """The MCPServer named ``orkestra`` with its six tools bound to the workspace at ``root``."""
    from mcp.server import MCPServer

    from orkestra import __version__
    from orkestra.inspect.api import find_root
    from orkestra.server.tools import register

    workspace = find_root(root)
    server = MCPServer("orkestra", instructions=INSTRUCTIONS, version=__version__)
    register(server, workspace)
    return server


def serve(root: str | Path | None, *, http: bool = False, host: str = "127.0.0.1", port: int = 8766) -> None:
    """Run until interrupted: stdio by default, streamable HTTP at ``/mcp`` with ``http``."""
    server = build_server(root)  # fails fast (no orkestra.yaml) before the transport starts
    if http:
        server.run(transport="streamable-http", host=host, port=port, streamable_http_path="/mcp")
    else:
        server.run()
