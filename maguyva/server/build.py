"""The ``maguyva`` MCPServer and the per-thread API holder both servers share (one repository, a team).

Its own module so that ``server.app`` (one repository) and ``server.team`` (a workspace) each
import it without importing each other.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

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


def build_server(repo: PerThread | Callable[[], Any], *, token_verifier: Any = None, auth: Any = None):
    """The MCPServer named ``maguyva`` with its 11 tools bound to ``repo``.

    ``token_verifier`` and ``auth`` (the SDK's ``TokenVerifier`` and ``AuthSettings``) put HTTP behind
    bearer keys; see ``maguyva.server.team``.
    """
    from mcp.server import MCPServer

    from maguyva.server.tools import register

    server = MCPServer(
        "maguyva", instructions=INSTRUCTIONS, version=_version(), token_verifier=token_verifier, auth=auth
    )
    api = repo.api if isinstance(repo, PerThread) else repo
    register(server, api)
    return server


def _version() -> str:
    from maguyva import __version__

    return __version__
