"""Mining writes stay inside the repository: no symlink, no ``..`` and no ``.git`` on the way.

A cloned repository is untrusted. It may commit ``.orkestra`` or ``ai_assets/reference/changelog`` as a
symlink, or ``.gitattributes``, a ledger, a lock or a ``CHANGELOG.md`` as one. Its ``orkestra.yaml`` may
set ``paths.state: /home/me/.ssh`` or ``mining.ledger_dir: ../..``. Mining then refuses with
:class:`~orkestra.fs.guard.UnsafePath` (exit 1, naming the path and where the link points) instead of
writing where they point. Folders are checked one component at a time with ``O_NOFOLLOW``, as sync's
write guard (``orkestra.fs.guard``) does. A file is checked before it is read or written. It is then
written in place (``O_NOFOLLOW``) or replaced by a rename, which replaces a link rather than follows it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from orkestra.fs.guard import SafeTree, UnsafePath, path_parts


def relative(root: Path, path: Path) -> str:
    """``path`` as a plain path inside ``root``, or UnsafePath (absolute elsewhere, ``..``, ``.git``)."""
    try:
        rel = Path(path).relative_to(root).as_posix()
    except ValueError:
        raise UnsafePath(f"refusing to write {str(path)!r}: outside the repository {str(root)!r}") from None
    path_parts(rel)
    return rel


def folder(root: Path, path: Path) -> Path:
    """Create the folder ``path`` below ``root`` and its parents, none of them a symlink; ``path``."""
    with SafeTree(root) as tree:
        tree.makedirs(relative(root, path))
    return path


def check(root: Path, path: Path) -> Path:
    """``path`` when no part of it that exists is a symlink (nothing is created); ``path``."""
    with SafeTree(root) as tree:
        tree.check(relative(root, path))
    return path


def check_each(root: Path, paths: Iterable[Path]) -> None:
    """:func:`check` for each of ``paths``, in one walk from ``root``."""
    with SafeTree(root) as tree:
        for path in paths:
            tree.check(relative(root, path))


def file_in_folder(root: Path, path: Path) -> Path:
    """:func:`folder` for ``path``'s folder, then :func:`check` for ``path`` itself; ``path``."""
    rel = relative(root, path)
    with SafeTree(root) as tree:
        if "/" in rel:
            tree.makedirs(rel.rpartition("/")[0])
        tree.check(rel)
    return path
