"""Reading repository files for answers: every path is confined to the repository, never into ``.git``."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from maguyva.errors import MaguyvaError

VCS_DIRS = frozenset({".git", ".hg", ".svn"})  # never code, at any depth (a nested clone has its own)


def in_vcs_dir(parts: Iterable[str]) -> bool:
    """Whether a path with these components is (or is inside) a ``.git``/``.hg``/``.svn`` entry, at any depth.

    Case-insensitive, as git itself refuses ``.GIT`` in trees (case-insensitive file systems).
    """
    return any(part.lower() in VCS_DIRS for part in parts)


def confine(root: Path, path: str) -> Path:
    """A repository file for ``path``, refusing anything that leaves the repository or enters ``.git``.

    Both the path as asked and the file it resolves to (through any symlinks) are checked.
    """
    if not path or "\0" in path:
        raise MaguyvaError("path is empty")
    candidate = Path(path)
    if in_vcs_dir(candidate.parts):
        raise MaguyvaError(f"{path!r} is inside .git, which is not part of the code")
    if candidate.is_absolute():
        try:
            candidate = resolved(candidate, path).relative_to(root)
        except ValueError:
            raise MaguyvaError(f"{path!r} is outside the repository") from None
    full = resolved(root / candidate, path)
    if full != root and root not in full.parents:
        raise MaguyvaError(f"{path!r} is outside the repository")
    if in_vcs_dir(full.relative_to(root).parts):
        raise MaguyvaError(f"{path!r} leads inside .git, which is not part of the code")
    return full


def resolve_links(path: Path) -> Path | None:
    """``path`` with every symlink followed, or None when its links loop (a cloned repository may hold
    ``a -> b``, ``b -> a``)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: Python 3.11's "Symlink loop"; OSError (ELOOP) later
        return None


def resolved(path: Path, asked: str, error: type[Exception] = MaguyvaError) -> Path:
    """:func:`resolve_links`, raising ``error`` naming ``asked`` (the path as given) when the links loop."""
    target = resolve_links(path)
    if target is None:
        raise error(f"{asked!r} cannot be resolved: a loop of symlinks")
    return target
