"""Build the ``orkestra`` MCPServer for one workspace and run it over stdio or streamable HTTP."""

from __future__ import annotations

from pathlib import Path

INSTRUCTIONS = (
    "Orkestra serves this repository's institutional memory: decisions, ground truths, agents and skills. "
    "Call why(path) before changing code to see the decisions and truths that govern it, and follow their "
    "do/avoid guidance; search_registry for anything else. propose_decision writes a draft for review only."
)


def build_server(root: str | Path | None, *, read_only: bool = False):
    """The MCPServer named ``orkestra`` with its six tools bound to the workspace at ``root``
    (five with ``read_only``: no ``propose_decision``, nothing is ever written).

    Without ``orkestra.yaml`` the server still starts (a plugin at user scope starts it in every
    repository): each tool call looks for the workspace again and, while there is none, answers an
    error result saying to run ``orkestra init``."""
    from mcp.server import MCPServer

    from orkestra import __version__
    from orkestra.server.tools import register

    server = MCPServer("orkestra", instructions=INSTRUCTIONS, version=__version__)
    register(server, workspace_finder(root), read_only=read_only)
    return server


def workspace_finder(root: str | Path | None):
    """A function returning the workspace root for ``root`` (found once, then kept), raising
    ``NoWorkspaceError`` with what to run while there is no ``orkestra.yaml``."""
    from orkestra.errors import NoWorkspaceError
    from orkestra.workspace.root import find_root

    found: list[Path] = []
    start = Path(root).resolve() if root is not None else Path.cwd().resolve()

    def here() -> Path:
        if not found:
            try:
                found.append(find_root(root, must_exist=True))
            except NoWorkspaceError as exc:
                raise NoWorkspaceError(
                    f"{exc}: this repository has no orkestra workspace yet; run `orkestra init {start}` "
                    "then `orkestra sync` there (docs/adopt.md), and call this tool again"
                ) from None
        return found[0]

    return here


def serve(
    root: str | Path | None,
    *,
    http: bool = False,
    host: str = "127.0.0.1",
    port: int = 8766,
    read_only: bool = False,
    session_idle_timeout: float | None = None,
) -> None:
    """Run until interrupted: stdio by default, streamable HTTP at ``/mcp`` with ``http``.

    The server has no authentication, and ``propose_decision`` writes files: HTTP on a
    non-loopback address is refused unless ``read_only``. Over HTTP only requests naming the bound
    host are served (DNS rebinding; ``maguyva.server.hosts``, shared with ``code serve``), and a
    session idle for ``session_idle_timeout`` seconds (default 30 minutes) is closed.
    """
    from maguyva.server.hosts import BoundHost, is_loopback
    from maguyva.server.transport import DEFAULT_SESSION_IDLE_TIMEOUT, run_http, run_stdio
    from orkestra.errors import UsageError

    if http and not is_loopback(host) and not read_only:
        raise UsageError(
            f"--host {host}: the orkestra server has no authentication and propose_decision writes "
            "records; serve other hosts only with --read-only (or keep 127.0.0.1 behind a proxy)"
        )
    server = build_server(root, read_only=read_only)  # no orkestra.yaml: each tool answers what to run
    if http:
        idle = session_idle_timeout or DEFAULT_SESSION_IDLE_TIMEOUT
        run_http(server, host=host, port=port, guard=BoundHost(host), session_idle_timeout=idle)
    else:
        run_stdio(server)
