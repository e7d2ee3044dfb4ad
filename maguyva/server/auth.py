"""API keys for the team server: per workspace, created and revoked from the CLI, stored hashed.

A key reads ``mgv_<id>_<secret>``. The id finds the row; the secret is checked against its
SHA-256 in constant time (keys are 256-bit random, so a fast hash is enough). The HTTP server
accepts a key only for the workspace it serves, and only until it is revoked. The rows live in
the store (``maguyva.store.keys``, ``maguyva.store.postgres.keys``); this module holds the rules.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from dataclasses import dataclass

from maguyva.errors import NotFoundError, UsageError
from maguyva.server.hosts import is_loopback
from maguyva.store.keys import ApiKey, KeyStore
from maguyva.store.postgres.location import PostgresLocation, is_postgres_url

__all__ = [
    "ApiKey",
    "NewKey",
    "WorkspaceKeys",
    "create_key",
    "is_loopback",
    "list_keys",
    "revoke_key",
    "team_store",
]

PREFIX = "mgv"


@dataclass(frozen=True, slots=True)
class NewKey:
    """A key just created: ``token`` is shown once and never stored."""

    key: ApiKey
    token: str

    def to_dict(self) -> dict:
        return {**self.key.to_dict(), "token": self.token}


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _keys(store: str | PostgresLocation) -> KeyStore:
    """The key store of ``store``'s workspace (only a PostgreSQL team store has one)."""
    if not is_postgres_url(store):
        raise UsageError(
            "API keys live in a PostgreSQL team store: pass --store postgresql://…?workspace=NAME"
        )
    from maguyva.store.postgres.keys import PostgresKeys

    return PostgresKeys(PostgresLocation.parse(store))


def create_key(store: str | PostgresLocation, name: str) -> NewKey:
    """A new key for the store's workspace (created if missing)."""
    keys = _keys(store)
    key_id, secret = secrets.token_hex(6), secrets.token_urlsafe(32)
    try:
        return NewKey(keys.add(key_id, name, _digest(secret)), f"{PREFIX}_{key_id}_{secret}")
    finally:
        keys.close()


def list_keys(store: str | PostgresLocation) -> list[ApiKey]:
    """Every key of the store's workspace, oldest first (secrets are never shown again)."""
    keys = _keys(store)
    try:
        return keys.all()
    finally:
        keys.close()


def revoke_key(store: str | PostgresLocation, key_id: str) -> ApiKey:
    """Revoke a key of the store's workspace; requests with it are refused from now on."""
    keys = _keys(store)
    try:
        revoked = keys.revoke(key_id)
        if revoked is None:
            raise NotFoundError("API key", key_id, keys.ids())
        return revoked
    finally:
        keys.close()


class WorkspaceKeys:
    """The MCP SDK's ``TokenVerifier`` for one workspace: a live, unrevoked key of that workspace, or nothing."""

    def __init__(self, store: str | PostgresLocation):
        self.location = PostgresLocation.parse(store)
        self._keys = _keys(store)
        self._lock = threading.Lock()

    def check(self, token: str) -> ApiKey | None:
        prefix, _, rest = token.partition("_")
        key_id, _, secret = rest.partition("_")
        if prefix != PREFIX or not key_id or not secret:
            return None
        with self._lock:
            found = self._keys.live(key_id)
        if found is None or not hmac.compare_digest(found[1], _digest(secret)):
            return None
        return found[0]

    async def verify_token(self, token: str):
        import anyio
        from mcp.server.auth.provider import AccessToken

        key = await anyio.to_thread.run_sync(self.check, token)
        if key is None:
            return None
        return AccessToken(token=token, client_id=key.id, scopes=["read"], subject=key.workspace)

    def close(self) -> None:
        self._keys.close()


def team_store(root: str, store: str | None, workspace: str | None) -> PostgresLocation:
    """The team store for key commands: ``--store`` (or its usual defaults), with ``--workspace`` applied."""
    from pathlib import Path

    from maguyva.store.location import store_path

    location = store_path(Path(root).resolve(), store)
    if not isinstance(location, PostgresLocation):
        raise UsageError(
            "API keys live in a PostgreSQL team store: pass --store postgresql://…?workspace=NAME"
        )
    return PostgresLocation(location.conninfo, workspace or location.workspace)


# ---- the single-repository HTTP server (SQLite store) ----

KEY_ENV = "MAGUYVA_API_KEY"
MIN_KEY_CHARS = 16


@dataclass(frozen=True, slots=True)
class HttpAccess:
    """How a single-repository HTTP server admits requests: ``key`` (bearer) or nobody checks (None)."""

    key: str | None
    warning: str | None = None  # printed on start when the server is reachable without a key


def http_access(host: str, key: str | None, no_auth: bool) -> HttpAccess:
    """The access rule for ``code serve --http`` on a SQLite store.

    A configured key (``$MAGUYVA_API_KEY``) is always required. Without one, loopback serves openly;
    any other bind address refuses to start unless ``--no-auth`` says so explicitly, with a warning.
    Without a key, requests must name the bound host (``maguyva.server.hosts``: DNS rebinding).
    """
    key = (key or "").strip() or None
    if key and no_auth:
        raise UsageError(f"--no-auth and ${KEY_ENV} contradict each other: unset {KEY_ENV} or drop --no-auth")
    if key is not None:
        if len(key) < MIN_KEY_CHARS:
            raise UsageError(
                f"${KEY_ENV} is {len(key)} characters; use at least {MIN_KEY_CHARS} random ones "
                f"(e.g. python -c 'import secrets; print(secrets.token_urlsafe(32))')"
            )
        return HttpAccess(key)
    if is_loopback(host):
        return HttpAccess(None)
    if not no_auth:
        raise UsageError(
            f"refusing to serve on {host} without authentication: anyone who reaches it could read "
            f"every file and re-index. Set ${KEY_ENV} to a secret (clients send it as "
            f"'Authorization: Bearer <key>'), bind --host 127.0.0.1, or pass --no-auth to accept this"
        )
    return HttpAccess(
        None,
        f"WARNING: serving on {host} with no authentication (--no-auth): anyone who can reach "
        f"this address can read every file of the repository and run refresh_index",
    )


class SharedKey:
    """The MCP SDK's ``TokenVerifier`` for one shared secret, compared in constant time."""

    def __init__(self, key: str):
        self._key = key.encode()

    async def verify_token(self, token: str):
        from mcp.server.auth.provider import AccessToken

        if not hmac.compare_digest(token.encode(), self._key):
            return None
        return AccessToken(token=token, client_id="maguyva-key", scopes=["read"])
