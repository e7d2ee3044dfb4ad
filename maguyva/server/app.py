"""Build the ``maguyva`` MCPServer for one repository and run it over stdio or streamable HTTP.

Each worker thread gets its own read connection to the index (SQLite WAL allows concurrent
readers), so concurrent HTTP clients never share a cursor.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from maguyva.api import Maguyva
from maguyva.server.build import INSTRUCTIONS, PerThread, build_server
from maguyva.server.hosts import BoundHost, base_url
from maguyva.server.transport import DEFAULT_SESSION_IDLE_TIMEOUT, run_http, run_stdio

__all__ = ["INSTRUCTIONS", "PerThread", "Repository", "build_server", "serve"]


class Repository(PerThread[Maguyva]):
    """One repository's ``Maguyva`` per thread; the embedder is shared."""

    def __init__(self, root: str | Path, store: str | None = None, embedder: Any = None):
        self.root = Path(root).resolve()
        self.store = store
        self.embedder = embedder
        super().__init__(self._open)

    def _open(self) -> Maguyva:
        api = Maguyva.open(self.root, self.store)
        api.embedder = self.embedder
        return api


def _http_server(repo: PerThread, access: Any, host: str, port: int):
    """The server for ``access``: behind a bearer key when it has one."""
    if access.key is None:
        return build_server(repo)
    from mcp.server.auth.settings import AuthSettings

    from maguyva.server.auth import SharedKey

    public_url = base_url(host, port)
    auth = AuthSettings(
        issuer_url=public_url,
        resource_server_url=f"{public_url}/mcp",
        required_scopes=["read"],
        validate_token_resource=False,
    )
    return build_server(repo, token_verifier=SharedKey(access.key), auth=auth)


def _has_index(root: str | Path, store: str | None) -> bool:
    """Whether the store exists; an unsafe ``maguyva.store`` raises here, before anything is served."""
    from maguyva.errors import NotARepositoryError
    from maguyva.store.location import locating

    try:
        _, location = locating(root, store)()
    except NotARepositoryError:
        return False
    return not isinstance(location, Path) or location.exists()


def serve(
    root: str | Path,
    store: str | None = None,
    *,
    http: bool = False,
    host: str = "127.0.0.1",
    port: int = 8765,
    embedder: Any = None,
    key: str | None = None,
    no_auth: bool = False,
    warn: Callable[[str], None] | None = None,
    session_idle_timeout: float = DEFAULT_SESSION_IDLE_TIMEOUT,
) -> None:
    """Run the server until interrupted: stdio by default, streamable HTTP at ``/mcp`` with ``http``.

    Over HTTP, a PostgreSQL store serves its whole workspace behind API keys (``maguyva.server.team``);
    a SQLite store requires ``key`` as a bearer token when given, and refuses a non-loopback ``host``
    without one unless ``no_auth`` (then ``warn`` is told so). See ``maguyva.server.auth.http_access``.
    Without a key, only requests naming the bound host are served (``maguyva.server.hosts``); a
    session idle for ``session_idle_timeout`` seconds is closed.
    """
    if http:
        from maguyva.store.location import store_path
        from maguyva.store.postgres.location import PostgresLocation

        location = store_path(Path(root).resolve(), store)
        if isinstance(location, PostgresLocation):
            from maguyva.embed.base import settings_for
            from maguyva.server.team import serve_team

            serve_team(
                location,
                host=host,
                port=port,
                embedder=embedder,
                embedding_settings=settings_for(root),
                session_idle_timeout=session_idle_timeout,
            )
            return
    access = None
    if http:
        from maguyva.server.auth import http_access

        access = http_access(host, key, no_auth)  # refuse before anything is opened or bound
    repo = Repository(root, store, embedder)
    if _has_index(root, store):
        repo.api()  # fail fast (a broken index) before the transport starts
    # no index (or no repository) yet: serve anyway, each tool answering what to run (docs/mcp.md)
    server = _http_server(repo, access, host, port) if access is not None else build_server(repo)
    if access is not None and access.warning and warn is not None:
        warn(access.warning)
    try:
        if access is not None:
            guard = BoundHost(host) if access.key is None else None
            run_http(server, host=host, port=port, guard=guard, session_idle_timeout=session_idle_timeout)
        else:
            run_stdio(server)
    finally:
        repo.close()
