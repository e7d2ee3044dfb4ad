"""Build the ``maguyva`` MCPServer for one repository and run it over stdio or streamable HTTP.

Each worker thread gets its own read connection to the index (SQLite WAL allows concurrent
readers), so concurrent HTTP clients never share a cursor.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Callable, Generic, TypeVar

from maguyva.api import Maguyva

T = TypeVar("T")

INSTRUCTIONS = (
    "Maguyva answers questions about this repository with ranked path:line citations. Start with "
    "intelligent_search; use find_symbol when you know a name (exact by default), analyze_dependencies for "
    "callers, callees and blast radius, get_file to read only the lines you need. Lookups are cheap; whole-file "
    "reads are expensive."
)


class PerThread(Generic[T]):
    """One API object per worker thread, opened on first use and all closed together."""

    def __init__(self, factory: Callable[[], T]):
        self._factory = factory
        self._local = threading.local()
        self._opened: list[T] = []
        self._lock = threading.Lock()

    def api(self) -> T:
        api = getattr(self._local, "api", None)
        if api is None:
            api = self._factory()
            self._local.api = api
            with self._lock:
                self._opened.append(api)
        return api

    def close(self) -> None:
        with self._lock:
            for api in self._opened:
                api.close()
            self._opened.clear()


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


def build_server(repo: PerThread | Callable[[], Any], *, token_verifier: Any = None, auth: Any = None):
    """The MCPServer named ``maguyva`` with its 11 tools bound to ``repo``.

    ``token_verifier`` and ``auth`` (the SDK's ``TokenVerifier`` and ``AuthSettings``) put HTTP behind
    bearer keys; see ``maguyva.server.team``.
    """
    from mcp.server import MCPServer

    from maguyva.server.tools import register

    server = MCPServer("maguyva", instructions=INSTRUCTIONS, version=_version(), token_verifier=token_verifier,
                       auth=auth)
    api = repo.api if isinstance(repo, PerThread) else repo
    register(server, api)
    return server


def _http_server(repo: PerThread, access: Any, host: str, port: int):
    """The server for ``access``: behind a bearer key when it has one."""
    if access.key is None:
        return build_server(repo)
    from mcp.server.auth.settings import AuthSettings

    from maguyva.server.auth import SharedKey

    public_url = f"http://{host}:{port}"
    auth = AuthSettings(issuer_url=public_url, resource_server_url=f"{public_url}/mcp", required_scopes=["read"],
                        validate_token_resource=False)
    return build_server(repo, token_verifier=SharedKey(access.key), auth=auth)


def _version() -> str:
    from maguyva import __version__

    return __version__


def serve(root: str | Path, store: str | None = None, *, http: bool = False, host: str = "127.0.0.1",
          port: int = 8765, embedder: Any = None, key: str | None = None, no_auth: bool = False,
          warn: Callable[[str], None] | None = None) -> None:
    """Run the server until interrupted: stdio by default, streamable HTTP at ``/mcp`` with ``http``.

    Over HTTP, a PostgreSQL store serves its whole workspace behind API keys (``maguyva.server.team``);
    a SQLite store requires ``key`` as a bearer token when given, and refuses a non-loopback ``host``
    without one unless ``no_auth`` (then ``warn`` is told so). See ``maguyva.server.auth.http_access``.
    """
    if http:
        from maguyva.store.location import store_path
        from maguyva.store.postgres.location import PostgresLocation

        location = store_path(Path(root).resolve(), store)
        if isinstance(location, PostgresLocation):
            from maguyva.embed.base import settings_for
            from maguyva.server.team import serve_team

            serve_team(location, host=host, port=port, embedder=embedder, embedding_settings=settings_for(root))
            return
    access = None
    if http:
        from maguyva.server.auth import http_access

        access = http_access(host, key, no_auth)  # refuse before anything is opened or bound
    repo = Repository(root, store, embedder)
    repo.api()  # fail fast (no index) before the transport starts
    server = _http_server(repo, access, host, port) if access is not None else build_server(repo)
    if access is not None and access.warning and warn is not None:
        warn(access.warning)
    try:
        if http:
            server.run(transport="streamable-http", host=host, port=port, streamable_http_path="/mcp")
        else:
            server.run()
    finally:
        repo.close()
