"""Finding files without walking what never matters: hidden folders, node_modules, excluded globs."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

SKIPPED_DIRS = {"node_modules", "__pycache__"}


@dataclass(frozen=True, slots=True)
class Walk:
    """One walk of a root: its files and the folders visited (repo-relative POSIX; "." is the root)."""

    files: tuple[str, ...]
    dirs: tuple[str, ...]


# (root, rel_dir, exclude) -> Walk, while a `one_walk()` block is open (one sync); None outside one
_WALKS: ContextVar[dict | None] = ContextVar("orkestra_walks", default=None)


@contextmanager
def one_walk() -> Iterator[None]:
    """Within this block every walk of the same folder is done once and shared (a sync's in-sync check,
    the workspace load and the plan all need the tree: it is walked once, not three times)."""
    token = _WALKS.set({})
    try:
        yield
    finally:
        _WALKS.reset(token)


def walk_tree(top: str | os.PathLike[str]) -> Iterator[tuple[str, list[str], list[str]]]:
    """The one folder walker for repository content: ``os.walk(top)`` (top-down, ``dirs`` may be pruned
    in place, links listed but never descended into, unreadable folders skipped), with two differences.

    It does not recurse: Python 3.11's ``os.walk`` and ``Path.rglob`` recurse once per level, so a cloned
    repository 1,100 folders deep ended every walk in a ``RecursionError``. And it leaves out entries
    whose path is too long for the system to open (PATH_MAX): every later ``stat`` or ``open`` of one
    raised ``OSError: File name too long``."""
    stack = [os.fspath(top)]
    while stack:
        current = stack.pop()
        dirs: list[str] = []
        files: list[str] = []
        near = _PATH_MAX // 4 - len(current) - 1  # a name shorter than this fits whatever it encodes to
        try:
            with os.scandir(current) as entries:
                for entry in entries:
                    if len(entry.name) >= near and len(os.fsencode(entry.path)) >= _PATH_MAX:
                        continue
                    try:
                        is_dir = entry.is_dir()
                    except OSError:
                        is_dir = False
                    (dirs if is_dir else files).append(entry.name)
        except OSError:
            continue
        yield current, dirs, files
        below = [os.path.join(current, name) for name in dirs]
        stack.extend(path for path in reversed(below) if not os.path.islink(path))


try:
    _PATH_MAX = os.pathconf("/", "PC_PATH_MAX")
except (OSError, ValueError, AttributeError):  # pragma: no cover - not POSIX
    _PATH_MAX = 4096


def tree_paths(folder: Path, name: str = "*") -> list[Path]:
    """``folder.rglob(name)`` without recursion: every entry below ``folder`` whose name matches,
    sorted; links are listed, never descended into."""
    found = []
    for current, dirs, files in walk_tree(folder):
        found.extend(Path(current, n) for n in (*dirs, *files) if fnmatch.fnmatchcase(n, name))
    return sorted(found)


def walk(root: Path, rel_dir: str = ".", exclude: tuple[str, ...] | list[str] = ()) -> Walk:
    """Every non-hidden file below ``rel_dir`` and every folder visited, skipping hidden folders,
    node_modules and folders matching an ``exclude`` glob ending in ``/**`` (shared in ``one_walk``)."""
    walks = _WALKS.get()
    key = (os.fspath(root), rel_dir, tuple(exclude))
    if walks is not None and key in walks:
        return walks[key]
    exclude = list(exclude)
    found: list[str] = []
    visited: list[str] = []
    skip = len(str(root)) + 1
    for folder, dirs, files in walk_tree(root / rel_dir):
        prefix = folder[skip:].replace(os.sep, "/") + "/" if len(folder) >= skip else ""
        visited.append(prefix.rstrip("/") or ".")
        dirs[:] = [d for d in dirs if not _skip_dir(d, prefix + d, exclude)]
        found.extend(prefix + f for f in files if not f.startswith("."))
    result = Walk(tuple(sorted(found)), tuple(visited))
    if walks is not None:
        walks[key] = result
    return result


def _skip_dir(name: str, rel: str, exclude: list[str]) -> bool:
    if name.startswith(".") or name in SKIPPED_DIRS:
        return True
    return any(rel == glob[:-3] or fnmatch.fnmatch(rel, glob) for glob in exclude if glob.endswith("/**"))


def walk_files(
    root: Path, rel_dir: str, exclude: tuple[str, ...] | list[str] = (), name: str = "*"
) -> list[str]:
    """Repo-relative POSIX paths of the files below ``rel_dir`` whose name matches ``name``, sorted.

    Hidden files and folders, node_modules and folders matching an ``exclude`` glob ending in
    ``/**`` are skipped.
    """
    files = walk(root, rel_dir, exclude).files
    if name == "*":
        return list(files)
    if not any(c in name for c in "*?["):
        return [rel for rel in files if rel.rpartition("/")[2] == name]
    return [rel for rel in files if fnmatch.fnmatch(rel.rpartition("/")[2], name)]


def is_pruned(rel_dir: str, exclude: tuple[str, ...] | list[str] = ()) -> bool:
    """True if a walk from the root would skip ``rel_dir`` (or one of its parents)."""
    parts = [p for p in rel_dir.strip("/").split("/") if p not in ("", ".")]
    return any(_skip_dir(name, "/".join(parts[: i + 1]), list(exclude)) for i, name in enumerate(parts))


def match_glob(files: list[str], pattern: str, exclude: tuple[str, ...] | list[str] = ()) -> list[str]:
    """The repo-relative ``files`` matching a ``**/``-style glob (``**/`` may match nothing), minus ``exclude``."""
    patterns = [pattern, pattern[3:]] if pattern.startswith("**/") else [pattern]
    base = pattern.rsplit("/", 1)[-1]
    if not any(c in base for c in "*?["):  # cheap pre-filter on the file name
        files = [rel for rel in files if rel == base or rel.endswith("/" + base)]
    return [
        rel
        for rel in files
        if any(fnmatch.fnmatch(rel, p) for p in patterns)
        and not any(fnmatch.fnmatch(rel, glob) for glob in exclude)
    ]


def glob_files(root: Path, pattern: str, exclude: list[str]) -> list[str]:
    """Files below ``root`` matching a ``**/``-style glob, minus ``exclude`` globs, sorted."""
    return match_glob(walk_files(root, ".", exclude, name=pattern.rsplit("/", 1)[-1]), pattern, exclude)
