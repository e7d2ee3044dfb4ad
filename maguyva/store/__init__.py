"""Index stores: the ``Store`` interface and its backends (SQLite file, PostgreSQL URL)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from maguyva.errors import StoreError
from maguyva.store.base import Store
from maguyva.store.postgres.scheme import is_postgres_url

if TYPE_CHECKING:
    from types import ModuleType

    from maguyva.store.postgres.location import PostgresLocation


def open_store(
    location: Path | str | PostgresLocation, *, readonly: bool = False, fresh: bool = False
) -> Store:
    """Open (creating unless ``readonly``) the index at ``location``: a ``postgresql://`` URL or a SQLite path.

    ``fresh``: there is no SQLite index there yet; it is built in a file of its own (no WAL, no
    fsync per step) that replaces ``location`` when the first transaction commits."""
    if is_postgres_url(location):
        return _postgres().store.PostgresStore(location, readonly=readonly)
    from maguyva.store.sqlite import SQLiteStore

    return SQLiteStore(location, readonly=readonly, fresh=fresh)


def store_exists(location: Path | str | PostgresLocation) -> bool:
    """Whether an index is already stored at ``location``."""
    if not is_postgres_url(location):
        return Path(location).exists()
    try:
        open_store(location, readonly=True).close()
    except StoreError:
        return False
    return True


def reset_store(location: Path | str | PostgresLocation) -> None:
    """Forget the index at ``location`` (``index --full``): the SQLite file, or the repository's rows."""
    if not is_postgres_url(location):
        from maguyva.store.sqlite_file import not_an_index

        problem = not_an_index(Path(location))
        if problem:
            raise StoreError(f"refusing to delete {location}: {problem}; pass another --store")
        for suffix in ("", "-wal", "-shm"):
            Path(f"{location}{suffix}").unlink(missing_ok=True)
        return
    from maguyva.store.postgres.location import PostgresLocation

    postgres = _postgres()
    place = PostgresLocation.parse(location)
    conn = postgres.catalog.connect(place.conninfo, create=True)
    try:
        postgres.catalog.drop_repo(conn, place.workspace, place.repo)
    finally:
        conn.close()


def _postgres() -> ModuleType:
    try:
        import maguyva.store.postgres.catalog
        import maguyva.store.postgres.store
    except ImportError as exc:
        raise StoreError("PostgreSQL stores need psycopg: pip install 'orkestra[postgres]'") from exc
    return maguyva.store.postgres
