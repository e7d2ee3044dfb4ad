"""Where the index lives: ``--store`` > ``$MAGUYVA_STORE`` > ``maguyva.store`` in orkestra.yaml >
``<git dir>/maguyva/index.db`` (never inside the working tree, never tracked).

Each source may name a SQLite file or a PostgreSQL team store (``postgresql://…?workspace=W&repo=R``);
a URL without ``repo`` gets the repository directory's name.
"""

from __future__ import annotations

import os
from pathlib import Path

from maguyva.errors import MaguyvaError, NotARepositoryError
from maguyva.index.git import git_dir
from maguyva.store.postgres.location import PostgresLocation, is_postgres_url

ENV_VAR = "MAGUYVA_STORE"

StoreLocation = Path | PostgresLocation


def store_path(root: Path, explicit: str | Path | PostgresLocation | None = None) -> StoreLocation:
    """The index for the repository at ``root``: a SQLite file, or a PostgreSQL location."""
    if explicit:
        return _located(root, explicit, relative_to=Path.cwd())
    if os.environ.get(ENV_VAR):
        return _located(root, os.environ[ENV_VAR], relative_to=Path.cwd())
    configured = _configured(root)
    if configured:
        return _located(root, configured, relative_to=root)
    found = git_dir(root)
    if found is None:
        raise NotARepositoryError(f"{root} is not inside a git repository; pass --store PATH or set {ENV_VAR}")
    return found / "maguyva" / "index.db"


def _located(root: Path, value: str | Path | PostgresLocation, relative_to: Path) -> StoreLocation:
    if is_postgres_url(value):
        location = PostgresLocation.parse(value)
        return location if location.repo else location.for_repo(Path(root).resolve().name)
    return (relative_to / Path(value).expanduser()).resolve()


def _configured(root: Path) -> str | None:
    if not (root / "orkestra.yaml").is_file():
        return None
    from orkestra.workspace.source import SourceError, read_yaml

    try:
        data = read_yaml(root, "orkestra.yaml").data
    except SourceError as exc:
        raise MaguyvaError(str(exc)) from exc
    section = data.get("maguyva") if isinstance(data, dict) else None
    value = section.get("store") if isinstance(section, dict) else None
    return str(value) if value else None
