"""Where the index lives: ``--store`` > ``$MAGUYVA_STORE`` > ``maguyva.store`` in orkestra.yaml (inside the
repository, never through a symlink: ``maguyva.store.confined``) >
``<git dir>/maguyva/index.db`` (never inside the working tree, never tracked).

Each source may name a SQLite file or a PostgreSQL team store (``postgresql://…?workspace=W&repo=R``);
a URL without ``repo`` gets the repository directory's name.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from maguyva.errors import MaguyvaError, NotARepositoryError
from maguyva.git import git_dir, toplevel, work_tree_later
from maguyva.store.postgres.scheme import is_postgres_url

if TYPE_CHECKING:  # the location model is imported when a URL is seen, so a SQLite run never builds it
    from maguyva.store.postgres.location import PostgresLocation

    StoreLocation = Path | PostgresLocation

ENV_VAR = "MAGUYVA_STORE"


def repository_root(path: Path | str, explicit: str | Path | PostgresLocation | None = None) -> Path:
    """The directory an index run or a server works on, wherever it was started from.

    With the default store (the repository's own, in its git dir or named by its orkestra.yaml)
    that is the git top level: a run from ``src/pkg`` updates the whole repository's index instead
    of re-rooting it. A store named by ``--store`` or ``$MAGUYVA_STORE`` may index any directory;
    it records its root, and ``settle_root`` keeps later runs from a subdirectory on it.
    """
    path = _outside_git_dir(path)
    if explicit or os.environ.get(ENV_VAR):
        return path
    return toplevel(path) or path


def locating(
    path: Path | str, explicit: str | Path | PostgresLocation | None = None
) -> Callable[[], tuple[Path, StoreLocation]]:
    """``repository_root`` and its ``store_path`` together, for the default store from one git process
    started now: call the result for them (``Maguyva.open`` imports the store while git answers)."""
    path = _outside_git_dir(path)
    if explicit or os.environ.get(ENV_VAR):
        return lambda: (path, store_path(path, explicit))
    later = work_tree_later(path)

    def located() -> tuple[Path, StoreLocation]:
        found = later()
        if found is None:  # not a work tree: the two questions one by one, as the error needs them
            root = repository_root(path)
            return root, store_path(root)
        root, real_git_dir = found
        configured = _configured(root)
        if configured:
            return root, _in_repository(root, configured)
        return root, own_git_dir(root, real_git_dir) / "maguyva" / "index.db"

    return located


def _outside_git_dir(path: Path | str) -> Path:
    """``path`` resolved; its work tree when it lies inside a git dir (never the git dir itself)."""
    path = Path(path).resolve()
    inside = [i for i, part in enumerate(path.parts) if part.lower() == ".git"]
    return Path(*path.parts[: inside[0]]) if inside else path


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
        return _in_repository(root, configured)
    found = git_dir(root)
    if found is None:
        raise NotARepositoryError(
            f"{root} is not inside a git repository; pass --store PATH or set {ENV_VAR}"
        )
    return own_git_dir(root, found) / "maguyva" / "index.db"


def own_git_dir(root: Path, found: Path) -> Path:
    """``found`` (see ``_pointed_back``), where the default store ``maguyva/index.db`` is reached without a
    symlink: a tarball's ``.git/maguyva -> ~/other/.git/maguyva`` would replace another index too."""
    git_dir = _pointed_back(root, found)
    from maguyva.store.confined import link_problem

    problem = link_problem(git_dir, "maguyva/index.db") if git_dir.is_dir() else None
    if problem:
        raise MaguyvaError(f"{git_dir}: {problem}; refusing to use that index; pass --store PATH")
    return git_dir


def _pointed_back(root: Path, found: Path) -> Path:
    """``found``, the git dir git names for the work tree at ``root``, when it belongs to that work tree.

    A ``.git`` *file* (``gitdir: …``) or link may point anywhere: a tarball or a hostile clone can ship one naming
    another repository's git dir, and the default store would then be that repository's index (``--full``
    replaced it). It is accepted only when the git dir points back at ``root``: a linked worktree's
    ``<gitdir>/gitdir`` names ``root/.git``, a submodule's ``core.worktree`` is ``root``. A ``.git``
    folder, or no ``.git`` at all (``GIT_DIR`` set by the user), is taken as git reports it."""
    dot_git = Path(root) / ".git"
    if not os.path.lexists(dot_git) or (dot_git.is_dir() and not dot_git.is_symlink()):
        return found
    if _same(found, dot_git) and dot_git.resolve().is_relative_to(Path(root).resolve()):
        return found  # a link to a git dir inside the work tree
    try:
        back = (found / "gitdir").read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        back = ""
    if back and _same(Path(back) if Path(back).is_absolute() else found / back, dot_git):
        return found
    worktree = _config_value(found, "core.worktree")
    if worktree and _same(found / worktree, Path(root)):
        return found
    raise MaguyvaError(
        f"{dot_git} points at {found}, the git directory of another repository (it does not point back "
        "here): refusing to use or replace that repository's index; pass --store PATH"
    )


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except (OSError, RuntimeError):
        return False


def _config_value(git_dir: Path, key: str) -> str:
    import subprocess

    try:
        done = subprocess.run(
            ["git", "config", "--file", str(git_dir / "config"), "--get", key],
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError:
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def _located(root: Path, value: str | Path | PostgresLocation, relative_to: Path) -> StoreLocation:
    if is_postgres_url(value):
        from maguyva.store.postgres.location import PostgresLocation

        location = PostgresLocation.parse(value)
        return location if location.repo else location.for_repo(Path(root).resolve().name)
    return (relative_to / Path(value).expanduser()).resolve()


def _in_repository(root: Path, value: str) -> StoreLocation:
    """The store ``orkestra.yaml`` names: a PostgreSQL location, or a SQLite file inside ``root`` that no
    symlink leads to (``maguyva.store.confined``); else a ConfigError naming the file, line and field."""
    if is_postgres_url(value):
        return _located(root, value, relative_to=root)
    from maguyva.store.confined import lexical_problem, link_problem

    root = Path(root).resolve()
    problem = lexical_problem(value) or link_problem(root, value)
    if problem:
        from maguyva.config import store_line
        from maguyva.config_file import config_path
        from maguyva.errors import ConfigError

        raise ConfigError(str(config_path(root)), problem, line=store_line(root), field="maguyva.store")
    return root.joinpath(*(part for part in Path(value).parts if part != "."))


def _configured(root: Path) -> str | None:
    from maguyva.config_file import declares_section

    if not declares_section(root):  # no model (pydantic) to pay for without a maguyva: section
        return None
    from maguyva.config import load_maguyva_config

    return load_maguyva_config(root).store
