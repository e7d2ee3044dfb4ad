"""API keys as the store keeps them: the record and the interface a team store implements.

Keys belong to a workspace of a team store (PostgreSQL: ``maguyva.store.postgres.keys``); a
single-repository SQLite index has no workspaces and no key table (its HTTP server takes one
shared secret from the environment, ``maguyva.server.auth.SharedKey``). Only a secret's SHA-256
is stored; minting tokens and checking secrets stay in ``maguyva.server.auth``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass


@dataclass(frozen=True, slots=True)
class ApiKey:
    id: str
    workspace: str
    name: str
    created_at: str  # ISO 8601, UTC
    revoked_at: str | None

    def to_dict(self) -> dict:
        return asdict(self)


class KeyStore(ABC):
    """The API keys of one workspace."""

    workspace: str

    @abstractmethod
    def add(self, key_id: str, name: str, secret_sha256: str) -> ApiKey:
        """Store a new key (creating the workspace if missing)."""

    @abstractmethod
    def all(self) -> list[ApiKey]:
        """Every key of the workspace, oldest first."""

    @abstractmethod
    def revoke(self, key_id: str) -> ApiKey | None:
        """Mark a key revoked (once; a second revoke keeps the first time); None for an unknown id."""

    @abstractmethod
    def ids(self) -> list[str]:
        """The ids of the workspace's keys (for did-you-mean hints)."""

    @abstractmethod
    def live(self, key_id: str) -> tuple[ApiKey, str] | None:
        """An unrevoked key and its stored secret digest, or None."""

    @abstractmethod
    def close(self) -> None: ...
