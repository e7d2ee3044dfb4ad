"""Where the index lives: ``--store`` > ``$MAGUYVA_STORE`` > ``maguyva.store`` in orkestra.yaml >
``<git dir>/maguyva/index.db`` (never inside the working tree, never tracked).

Each source may name a SQLite file or a PostgreSQL team store (``postgresql://…?workspace=W&repo=R``);
a URL without ``repo`` gets the repository directory's name.
"""

from __future__ import annotations

import os
from pathlib import Path

from maguyva.errors import MaguyvaError, NotARepositoryError
from maguyva.index.git import git_dir, toplevel
from maguyva.store.postgres.location import PostgresLocation, is_postgres_url

ENV_VAR = "MAGUYVA_STORE"

StoreLocation = Path | PostgresLocation


def repository_root(path: Path | str, explicit: str | Path | PostgresLocation | None = None) -> Path:
    """The directory an index run or a server works on, wherever it was started from.

    With the default store (the repository's own, in its git dir or named by its orkestra.yaml)
    that is the git top level: a run from ``src/pkg`` updates the whole repository's index instead
    of re-rooting it. A store named by ``--store`` or ``$MAGUYVA_STORE`` may index any directory;
    it records its root, and ``settle_root`` keeps later runs from a subdirectory on it.
    """
    path = Path(path).resolve()
    inside = [i for i, part in enumerate(path.parts) if part.lower() == ".git"]
    if inside:  # started inside a git dir: its work tree, never the git dir itself
        path = Path(*path.parts[: inside[0]])
    if explicit or os.environ.get(ENV_VAR):
        return path
    return toplevel(path) or path


def settle_root(recorded: str | None, root: Path, *, rebuild: bool) -> Path:
    """The root to index given the one the store recorded: that one when ``root`` lies inside it;
    ``root`` when nothing is recorded or the index is being rebuilt; otherwise an error (the index
    belongs to another directory and an update would replace its files)."""
    if recorded is None:
        return root
    previous = Path(recorded)
    if root == previous or previous in root.parents:
        return previous
    if rebuild:
        return root
    raise MaguyvaError(
        f"this index was built from {previous}, not {root}: run the command in {previous}, "
        f"pass another --store, or use --full to rebuild it for {root}"
    )


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
        raise NotARepositoryError(
            f"{root} is not inside a git repository; pass --store PATH or set {ENV_VAR}"
        )
    return found / "maguyva" / "index.db"


def _located(root: Path, value: str | Path | PostgresLocation, relative_to: Path) -> StoreLocation:
    if is_postgres_url(value):
        location = PostgresLocation.parse(value)
        return location if location.repo else location.for_repo(Path(root).resolve().name)
    return (relative_to / Path(value).expanduser()).resolve()


def _configured(root: Path) -> str | None:
    from maguyva.config_file import declares_section

    if not declares_section(root):  # no model (pydantic) to pay for without a maguyva: section
        return None
    from maguyva.config import load_maguyva_config

    return load_maguyva_config(root).store
