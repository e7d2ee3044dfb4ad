"""Reading repository files for answers: every path is confined to the repository."""

from __future__ import annotations

from pathlib import Path

from maguyva.errors import MaguyvaError


def confine(root: Path, path: str) -> Path:
    """A repository file for ``path``, refusing anything that leaves the repository."""
    if not path or "\0" in path:
        raise MaguyvaError("path is empty")
    candidate = Path(path)
    if candidate.is_absolute():
        try:
            candidate = candidate.resolve().relative_to(root)
        except ValueError:
            raise MaguyvaError(f"{path!r} is outside the repository") from None
    full = (root / candidate).resolve()
    if full != root and root not in full.parents:
        raise MaguyvaError(f"{path!r} is outside the repository")
    relative = full.relative_to(root)
    if relative.parts and relative.parts[0] == ".git":
        raise MaguyvaError(f"{path!r} is inside .git, which is not part of the code")
    return full
