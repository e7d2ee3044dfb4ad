"""Symlinks in an untrusted checkout: which source paths resolve outside the workspace or into ``.git``.

A committed symlink such as ``references -> ~/.ssh`` or ``agent.yaml -> .git/config`` must
not smuggle files from outside the tree into the rendered output. ``Containment`` answers,
for a repo-relative path, whether any component of it is a symlink that escapes, resolving
each folder once (one ``lstat`` per new folder and per file, so a clean workspace pays
almost nothing). Links that stay inside the tree (and out of ``.git``) are fine.
"""

from __future__ import annotations

import os
from pathlib import Path

# the one capped, FIFO-safe reader of repository content lives in Maguyva (the lower package): both share it
from maguyva.capped import NotRegularFile as NotRegularFile
from maguyva.capped import read_regular as read_regular

SKILL_ASSET_DIRS = ("references", "scripts", "assets")


def is_git_part(name: str) -> bool:
    """``.git`` in any case (``.GIT`` is the same folder on case-insensitive filesystems)."""
    return name.casefold() == ".git"


def has_git_part(rel: str) -> bool:
    return any(is_git_part(part) for part in rel.replace("\\", "/").split("/"))


class Containment:
    """Memoised "does this path escape through a symlink?" for one workspace root."""

    def __init__(self, root: Path):
        self.root = Path(root).resolve()
        self._dirs: dict[str, tuple[str, str] | None] = {"": None, ".": None}

    def problem(self, rel: str) -> tuple[str, str] | None:
        """(link, message) when ``rel`` or one of its folders is a symlink leaving the tree or entering .git."""
        rel = rel.strip("/")
        parent = rel.rpartition("/")[0]
        return self.folder_problem(parent) or self._link(rel)

    def folder_problem(self, rel: str) -> tuple[str, str] | None:
        """(link, message) when folder ``rel`` or a folder above it is a symlink leaving the tree or
        entering .git; every folder on the way is checked (once), from the root down, without recursion."""
        rel = rel.strip("/")
        missing = []
        while rel not in self._dirs:
            missing.append(rel)
            rel = rel.rpartition("/")[0]
        found = self._dirs[rel]
        for folder in reversed(missing):
            found = found or self._link(folder)
            self._dirs[folder] = found
        return found

    def _link(self, rel: str) -> tuple[str, str] | None:
        path = self.root / rel
        if not path.is_symlink():
            return None
        target = os.readlink(path)
        try:
            real = path.resolve(strict=False)
        except (OSError, RuntimeError):  # a symlink loop
            return rel, f"symlink loops (-> {target})"
        if not real.is_relative_to(self.root):
            return rel, f"symlink resolves outside the workspace (-> {target})"
        if has_git_part(real.relative_to(self.root).as_posix()):
            return rel, f"symlink resolves into .git/ (-> {target})"
        return None


def tree_problems(root: Path, rel_dir: str, links: Containment) -> list[tuple[str, str]]:
    """Escaping symlinks at or below folder ``rel_dir`` (the folder itself included), without following any.

    ``scandir`` tells links from the directory entry, so only actual links cost a system call.
    """
    rel_dir = rel_dir.strip("/")
    found = links.folder_problem(rel_dir)
    if found is not None:
        return [found]
    problems: list[tuple[str, str]] = []
    pending = [rel_dir]
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(root / folder) as entries:
                for entry in entries:
                    rel = f"{folder}/{entry.name}" if folder else entry.name
                    if entry.is_symlink():
                        problem = links.problem(rel)
                        if problem is not None:
                            problems.append(problem)
                    elif entry.is_dir(follow_symlinks=False):
                        pending.append(rel)
        except OSError:
            continue
    return sorted(problems)


def skill_asset_problems(root: Path, source_dir: str, links: Containment) -> list[tuple[str, str]]:
    """(link, message) for each symlink in a skill's asset folders that leads outside the tree or into .git.

    One ``scandir`` of the skill folder; only the asset folders that exist are walked.
    """
    try:
        with os.scandir(root / source_dir) as entries:
            present = [e.name for e in entries if e.name in SKILL_ASSET_DIRS]
    except OSError:
        return []
    return [problem for name in present for problem in tree_problems(root, f"{source_dir}/{name}", links)]
