"""The team server: one workspace of a PostgreSQL store over streamable HTTP, behind API keys.

Every request must carry ``Authorization: Bearer <key>`` with a live key of the served
workspace (the MCP SDK's bearer middleware answers 401 otherwise). Tools answer across the
workspace's repositories with ``repo:path:line`` citations. Each worker thread holds its own
connection, like the SQLite server's per-thread readers.
"""

from __future__ import annotations

from typing import Any

from maguyva.server.build import PerThread, build_server
from maguyva.server.hosts import base_url
from maguyva.server.transport import DEFAULT_SESSION_IDLE_TIMEOUT, run_http
from maguyva.store.postgres.location import PostgresLocation
from maguyva.workspace import TeamWorkspace


class TeamRepositories(PerThread[TeamWorkspace]):
    """One ``TeamWorkspace`` (its own connection) per thread; the embedder is shared."""

    def __init__(self, store: str | PostgresLocation, embedder: Any = None, embedding_settings: Any = None):
        self.location = PostgresLocation.parse(store)
        self.embedder, self.embedding_settings = embedder, embedding_settings
        super().__init__(lambda: TeamWorkspace(self.location, self.embedder, self.embedding_settings))


def build_team_server(team: TeamRepositories, keys: Any, public_url: str):
    """The ``maguyva`` MCPServer over ``team``'s workspace, accepting only keys ``keys`` verifies."""
    from mcp.server.auth.settings import AuthSettings

    auth = AuthSettings(
        issuer_url=public_url,
        resource_server_url=f"{public_url}/mcp",
        required_scopes=["read"],
        validate_token_resource=False,
    )
    return build_server(team.api, token_verifier=keys, auth=auth)


def serve_team(
    store: str | PostgresLocation,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    public_url: str | None = None,
    embedder: Any = None,
    embedding_settings: Any = None,
    session_idle_timeout: float = DEFAULT_SESSION_IDLE_TIMEOUT,
) -> None:
    """Serve the workspace named by ``store`` at ``http://host:port/mcp`` until interrupted
    (every request needs a key, so any ``Host`` is served; idle sessions close)."""
    from maguyva.server.auth import WorkspaceKeys

    team = TeamRepositories(store, embedder, embedding_settings)
    team.api()  # fail fast (no such workspace, no index) before the transport starts
    keys = WorkspaceKeys(store)
    server = build_team_server(team, keys, public_url or base_url(host, port))
    try:
        run_http(server, host=host, port=port, guard=None, session_idle_timeout=session_idle_timeout)
    finally:
        keys.close()
        team.close()
