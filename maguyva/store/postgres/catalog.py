"""Workspaces and their repositories: the keys every other PostgreSQL row hangs from."""

from __future__ import annotations

import psycopg

from maguyva.errors import StoreError, UsageError
from maguyva.store.postgres.migrations import LATEST, migrate, schema_version

READ_TIMEOUT_MS = 30_000  # per statement, on read-only (server) connections


def connect(conninfo: str, *, create: bool) -> psycopg.Connection:
    """An autocommit connection whose schema is current (migrated when ``create``, else checked)."""
    try:
        conn = psycopg.connect(conninfo, autocommit=True, connect_timeout=10)
    except psycopg.OperationalError as exc:
        raise StoreError(f"cannot connect to the PostgreSQL store: {exc}".strip()) from exc
    refuse_nul_text(conn)
    if create:
        migrate(conn)
        enable_pgvector(conn)
        return conn
    conn.execute(f"SET statement_timeout = {READ_TIMEOUT_MS}")  # a hostile query cannot hold a reader
    version = schema_version(conn)
    if version != LATEST:
        conn.close()
        raise StoreError(
            "no Maguyva index in this database (run `orkestra code index --store URL` first)"
            if version == 0
            else f"schema version {version}, expected {LATEST}: run "
            f"`orkestra code index --store URL` to migrate it"
        )
    return conn


def refuse_nul_text(conn: psycopg.Connection) -> None:
    """Make a NUL character in any text sent on ``conn`` a ``UsageError`` that says so.

    PostgreSQL text cannot hold NUL: psycopg raises a ``DataError`` (or the server refuses the binary
    value), which reached an MCP client as a bare "Error executing tool". Every query and ``COPY`` goes
    through these dumpers, so a tool argument such as ``search_text("a\\x00b")`` is refused with a
    message the model can act on. Stored file texts never hold NUL (``store._clean`` makes it U+FFFD).
    """
    from psycopg.types.string import StrBinaryDumper, StrDumperUnknown

    for base in (StrDumperUnknown, StrBinaryDumper):
        conn.adapters.register_dumper(str, _nul_refusing(base))


def _nul_refusing(base: type) -> type:
    class NulRefusingDumper(base):
        def dump(self, obj: str):
            if "\x00" in obj:
                raise UsageError(
                    "an argument holds a NUL character (\\x00), which a PostgreSQL store cannot compare "
                    "or store: remove it and ask again"
                )
            return super().dump(obj)

    NulRefusingDumper.__name__ = f"NulRefusing{base.__name__}"
    return NulRefusingDumper


def enable_pgvector(conn: psycopg.Connection) -> bool:
    """Install pgvector when the server offers it and we may (it speeds up Hamming search; never required)."""
    if conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone() is None:
        return False
    try:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    except psycopg.errors.InsufficientPrivilege:
        return False
    return True


def has_pgvector(conn: psycopg.Connection) -> bool:
    return conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone() is not None


def ensure_repo(conn: psycopg.Connection, workspace: str, repo: str) -> int:
    """The id of ``workspace``/``repo``, creating both when missing."""
    conn.execute("INSERT INTO workspaces (name) VALUES (%s) ON CONFLICT (name) DO NOTHING", (workspace,))
    conn.execute(
        "INSERT INTO repos (workspace_id, name) SELECT id, %s FROM workspaces WHERE name = %s "
        "ON CONFLICT (workspace_id, name) DO NOTHING",
        (repo, workspace),
    )
    return find_repo(conn, workspace, repo)


def find_repo(conn: psycopg.Connection, workspace: str, repo: str) -> int | None:
    row = conn.execute(
        "SELECT r.id FROM repos r JOIN workspaces w ON w.id = r.workspace_id "
        "WHERE w.name = %s AND r.name = %s",
        (workspace, repo),
    ).fetchone()
    return row[0] if row else None


def workspace_repos(conn: psycopg.Connection, workspace: str) -> dict[str, int]:
    """name → id of every repository of ``workspace``, by name."""
    rows = conn.execute(
        "SELECT r.name, r.id FROM repos r JOIN workspaces w ON w.id = r.workspace_id "
        "WHERE w.name = %s ORDER BY r.name",
        (workspace,),
    )
    return dict(rows.fetchall())


def drop_repo(conn: psycopg.Connection, workspace: str, repo: str) -> None:
    """Forget everything indexed for ``workspace``/``repo`` (``index --full``); keys are untouched."""
    conn.execute(
        "DELETE FROM repos r USING workspaces w WHERE w.id = r.workspace_id AND w.name = %s AND r.name = %s",
        (workspace, repo),
    )
