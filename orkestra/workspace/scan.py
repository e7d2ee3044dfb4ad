"""Finding files without walking what never matters: hidden folders, node_modules, excluded globs."""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path

SKIPPED_DIRS = {"node_modules", "__pycache__"}


def _skip_dir(name: str, rel: str, exclude: list[str]) -> bool:
    if name.startswith(".") or name in SKIPPED_DIRS:
        return True
    return any(rel == glob[:-3] or fnmatch.fnmatch(rel, glob) for glob in exclude if glob.endswith("/**"))


def walk_files(root: Path, rel_dir: str, exclude: tuple[str, ...] | list[str] = (), name: str = "*") -> list[str]:
    """Repo-relative POSIX paths of the files below ``rel_dir`` whose name matches ``name``, sorted.

    Hidden files and folders, node_modules and folders matching an ``exclude`` glob ending in
    ``/**`` are skipped.
    """
    exclude = list(exclude)
    matches = (lambda f: f == name) if not any(c in name for c in "*?[") else (lambda f: fnmatch.fnmatch(f, name))
    found: list[str] = []
    skip = len(str(root)) + 1
    for folder, dirs, files in os.walk(root / rel_dir):
        prefix = folder[skip:].replace(os.sep, "/") + "/" if len(folder) >= skip else ""
        dirs[:] = [d for d in dirs if not _skip_dir(d, prefix + d, exclude)]
        found.extend(prefix + f for f in files if not f.startswith(".") and matches(f))
    return sorted(found)


def is_pruned(rel_dir: str, exclude: tuple[str, ...] | list[str] = ()) -> bool:
    """True if a walk from the root would skip ``rel_dir`` (or one of its parents)."""
    parts = [p for p in rel_dir.strip("/").split("/") if p not in ("", ".")]
    return any(_skip_dir(name, "/".join(parts[:i + 1]), list(exclude)) for i, name in enumerate(parts))


def match_glob(files: list[str], pattern: str, exclude: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The repo-relative ``files`` matching a ``**/``-style glob (``**/`` may match nothing), minus ``exclude``."""
    patterns = [pattern, pattern[3:]] if pattern.startswith("**/") else [pattern]
    base = pattern.rsplit("/", 1)[-1]
    if not any(c in base for c in "*?["):  # cheap pre-filter on the file name
        files = [rel for rel in files if rel == base or rel.endswith("/" + base)]
    return [rel for rel in files if any(fnmatch.fnmatch(rel, p) for p in patterns)
            and not any(fnmatch.fnmatch(rel, glob) for glob in exclude)]


def glob_files(root: Path, pattern: str, exclude: list[str]) -> list[str]:
    """Files below ``root`` matching a ``**/``-style glob, minus ``exclude`` globs, sorted."""
    return match_glob(walk_files(root, ".", exclude, name=pattern.rsplit("/", 1)[-1]), pattern, exclude)
