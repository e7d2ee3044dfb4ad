"""Maguyva index freshness for ``system status``, read live (never cached): is there an index, and is it
at HEAD? Maguyva answers (``maguyva.status.index_freshness``): it finds the store as its own commands
do (``$MAGUYVA_STORE``, ``maguyva.store`` in orkestra.yaml, ``<git dir>/maguyva/index.db``; a
``postgresql://`` URL stays a URL) and reads the snapshot through its store interface.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def index_health(root: Path) -> dict[str, Any]:
    """``{"present": false}`` without an index, else its store, latest snapshot, HEAD and freshness."""
    from maguyva.status import index_freshness

    return index_freshness(root)


def find_git_dir(root: Path) -> Path | None:
    """The real git directory of ``root`` (follows a worktree's ``.git`` file); the cache's watch list
    uses it to find the files a commit rewrites, without starting git."""
    dot_git = root / ".git"
    if dot_git.is_dir():
        return dot_git
    if dot_git.is_file():
        text = dot_git.read_text(encoding="utf-8").strip()
        if text.startswith("gitdir:"):
            target = Path(text.split(":", 1)[1].strip())
            return target if target.is_absolute() else (root / target).resolve()
    return None
