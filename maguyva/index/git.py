"""Maguyva's only git runner (read-only): the top level and git dir, HEAD, uncommitted paths."""

from __future__ import annotations

import subprocess
from pathlib import Path


def _git(root: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, check=False)
    except OSError:
        return None
    return done.stdout if done.returncode == 0 else None


def git_dir(root: Path) -> Path | None:
    """The real git directory of the work tree at ``root`` (``.git/worktrees/<name>`` for worktrees)."""
    out = _git(root, "rev-parse", "--absolute-git-dir")
    return Path(out.strip()) if out else None


def toplevel(path: Path) -> Path | None:
    """The work tree's top directory for ``path`` (None outside a work tree, or inside ``.git``)."""
    out = _git(path, "rev-parse", "--show-toplevel")
    return Path(out.strip()).resolve() if out and out.strip() else None


def head_commit(root: Path) -> str | None:
    out = _git(root, "rev-parse", "--verify", "-q", "HEAD")
    return out.strip() if out else None


def uncommitted_paths(root: Path) -> tuple[str, ...]:
    """Paths with uncommitted changes (modified, added, untracked), relative to ``root``."""
    out = _git(root, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames", "--", ".")
    if not out:
        return ()
    prefix = (_git(root, "rev-parse", "--show-prefix") or "").strip()
    paths = []
    for entry in out.split("\0"):
        if len(entry) > 3:
            path = entry[3:]
            if path.startswith(prefix):
                paths.append(path[len(prefix):])
    return tuple(sorted(paths))
