"""Maguyva's only git runner (read-only): the top level and git dir, HEAD, uncommitted paths."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
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


def work_tree_later(path: Path) -> Callable[[], tuple[Path, Path] | None]:
    """``toplevel`` and ``git_dir`` of the work tree holding ``path`` from one git process, started now
    in the background: call the result for them (None outside a work tree or inside ``.git``)."""
    try:
        process = subprocess.Popen(
            ["git", "-C", str(path), "rev-parse", "--show-toplevel", "--absolute-git-dir"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return lambda: None

    def found() -> tuple[Path, Path] | None:
        out, _ = process.communicate()
        lines = out.decode("utf-8", "surrogateescape").splitlines() if process.returncode == 0 else []
        if len(lines) != 2 or not lines[0].strip():
            return None
        return Path(lines[0]).resolve(), Path(lines[1])

    return found


def head_commit(root: Path) -> str | None:
    out = _git(root, "rev-parse", "--verify", "-q", "HEAD")
    return out.strip() if out else None


def uncommitted_paths(root: Path) -> tuple[str, ...]:
    """Paths with uncommitted changes (modified, added, untracked), relative to ``root``."""
    return uncommitted_later(root)()


def uncommitted_later(root: Path) -> Callable[[], tuple[str, ...]]:
    """``uncommitted_paths`` with git started now, in the background: call the result for the paths."""
    try:
        process = subprocess.Popen(
            [
                "git",
                "-C",
                str(root),
                "status",
                "--porcelain=v1",
                "-z",
                "--untracked-files=all",
                "--no-renames",
                "--",
                ".",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return lambda: ()

    def paths() -> tuple[str, ...]:
        out, _ = process.communicate()
        return _status_paths(root, out.decode("utf-8", "surrogateescape") if process.returncode == 0 else "")

    return paths


def _status_paths(root: Path, out: str) -> tuple[str, ...]:
    if not out:
        return ()
    prefix = (_git(root, "rev-parse", "--show-prefix") or "").strip()
    paths = []
    for entry in out.split("\0"):
        if len(entry) > 3:
            path = entry[3:]
            if path.startswith(prefix):
                paths.append(path[len(prefix) :])
    return tuple(sorted(paths))
