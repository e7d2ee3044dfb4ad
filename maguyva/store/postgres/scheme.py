"""Telling a PostgreSQL store location from a SQLite path, without importing the location model."""

from __future__ import annotations

from pathlib import PurePath

SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(location: object) -> bool:
    """Whether ``location`` names a PostgreSQL store: a ``postgresql://`` URL or a ``PostgresLocation``
    (whose ``str()`` is its URL). A path never is one, whatever its text."""
    return location is not None and not isinstance(location, PurePath) and str(location).startswith(SCHEMES)
