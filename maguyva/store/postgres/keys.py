"""The ``api_keys`` table of a PostgreSQL team store (schema: ``migrations.py``), per workspace."""

from __future__ import annotations

from maguyva.store.keys import ApiKey, KeyStore
from maguyva.store.postgres.location import PostgresLocation

_COLUMNS = (
    "k.id, w.name, k.name, to_char(k.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), "
    "to_char(k.revoked_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"')"
)
_FROM = "FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id"


class PostgresKeys(KeyStore):
    """The keys of ``location.workspace``, over one autocommit connection (the schema is migrated)."""

    def __init__(self, location: PostgresLocation):
        from maguyva.store.postgres import catalog

        self.workspace = location.workspace
        self._conn = catalog.connect(location.conninfo, create=True)

    def add(self, key_id: str, name: str, secret_sha256: str) -> ApiKey:
        with self._conn.transaction():
            self._conn.execute(
                "INSERT INTO workspaces (name) VALUES (%s) ON CONFLICT (name) DO NOTHING", (self.workspace,)
            )
            self._conn.execute(
                "INSERT INTO api_keys (id, workspace_id, name, secret_sha256) "
                "SELECT %s, id, %s, %s FROM workspaces WHERE name = %s",
                (key_id, name, secret_sha256, self.workspace),
            )
            row = self._conn.execute(f"SELECT {_COLUMNS} {_FROM} WHERE k.id = %s", (key_id,)).fetchone()
        return ApiKey(*row)

    def all(self) -> list[ApiKey]:
        rows = self._conn.execute(
            f"SELECT {_COLUMNS} {_FROM} WHERE w.name = %s ORDER BY k.created_at, k.id", (self.workspace,)
        ).fetchall()
        return [ApiKey(*row) for row in rows]

    def revoke(self, key_id: str) -> ApiKey | None:
        with self._conn.transaction():
            self._conn.execute(
                "UPDATE api_keys k SET revoked_at = coalesce(k.revoked_at, now()) FROM workspaces w "
                "WHERE w.id = k.workspace_id AND w.name = %s AND k.id = %s",
                (self.workspace, key_id),
            )
            row = self._conn.execute(
                f"SELECT {_COLUMNS} {_FROM} WHERE w.name = %s AND k.id = %s", (self.workspace, key_id)
            ).fetchone()
        return ApiKey(*row) if row else None

    def ids(self) -> list[str]:
        return [r[0] for r in self._conn.execute(f"SELECT k.id {_FROM} WHERE w.name = %s", (self.workspace,))]

    def live(self, key_id: str) -> tuple[ApiKey, str] | None:
        row = self._conn.execute(
            f"SELECT {_COLUMNS}, k.secret_sha256 {_FROM} "
            "WHERE k.id = %s AND w.name = %s AND k.revoked_at IS NULL",
            (key_id, self.workspace),
        ).fetchone()
        return (ApiKey(*row[:5]), row[5]) if row else None

    def close(self) -> None:
        self._conn.close()
