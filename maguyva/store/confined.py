"""A store path named by the repository's own ``orkestra.yaml`` stays inside that repository.

A cloned repository is untrusted: ``maguyva.store: ../../.bashrc.db``, ``/home/me/x.db``, ``~/x.db``,
``.git/hooks/index.db`` or a committed symlink on the way (``.cache -> /home/me``) would make an index
run write SQLite files (and their ``-wal``, ``-shm``, ``-journal``, ``.rank.npz`` and ``.building``
neighbours) wherever the repository says. So a configured path must be relative, without ``..`` and
without a ``.git`` part (``.git/maguyva/…``, the default's own folder, excepted), and no part of it that
exists may be a symlink: folders are opened one at a time with ``O_NOFOLLOW`` from the repository root,
and the file and its neighbours are checked with ``lstat``. ``--store`` and ``$MAGUYVA_STORE`` are the
user's own choice and may name any path. Stdlib only.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath

ELSEWHERE = "set $MAGUYVA_STORE or pass --store to keep the index elsewhere"
GIT_FOLDER = (".git", "maguyva")  # the default store's folder: the one place in .git a config may name
NEIGHBOURS = ("-wal", "-shm", "-journal", ".rank.npz")  # files SQLite and the ranker write beside the index


def lexical_problem(value: str) -> str | None:
    """Why ``value`` (a configured SQLite path) is not a plain path inside the repository, or None."""
    if not value.strip():
        return "an empty path"
    if "\0" in value:
        return "the path holds a NUL byte"
    if value.startswith("~"):
        return f"{value!r} is under a home folder, outside the repository; {ELSEWHERE}"
    path = PurePosixPath(value.replace("\\", "/"))
    if path.is_absolute() or (len(value) > 1 and value[1] == ":"):
        return f"{value!r} is an absolute path, outside the repository; {ELSEWHERE}"
    parts = [part for part in path.parts if part != "."]
    if ".." in parts:
        return f"{value!r} climbs out with '..', outside the repository; {ELSEWHERE}"
    if not parts:
        return "the path names the repository itself, not a file"
    gits = [i for i, part in enumerate(parts) if part.lower() == ".git"]
    if gits and not (gits == [0] and tuple(parts[:2]) == GIT_FOLDER and len(parts) > 2):
        return f"{value!r} is inside .git, where only .git/maguyva/ may hold an index; {ELSEWHERE}"
    return None


def link_problem(root: Path, value: str) -> str | None:
    """Why writing the index ``value`` below ``root`` would go through a symlink (or a non-folder), or None.

    What does not exist yet is fine: the store creates it, as a plain folder or file."""
    parts = [part for part in PurePosixPath(value).parts if part != "."]
    folders, name = parts[:-1], parts[-1]
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for depth, part in enumerate(folders):
            try:
                inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=fd)
            except FileNotFoundError:
                return None
            except OSError:  # ELOOP: a symlink; ENOTDIR: a file
                return _named(fd, part, "/".join(folders[: depth + 1]), "folder")
            os.close(fd)
            fd = inner
        for file in (name, *(name + suffix for suffix in NEIGHBOURS)):
            try:
                info = os.lstat(file, dir_fd=fd)
            except FileNotFoundError:
                continue
            if stat.S_ISLNK(info.st_mode) or not stat.S_ISREG(info.st_mode):
                return _named(fd, file, "/".join([*folders, file]), "file")
        return None
    finally:
        os.close(fd)


def _named(fd: int, name: str, rel: str, kind: str) -> str:
    try:
        info = os.lstat(name, dir_fd=fd)
    except OSError:
        return f"{rel!r} cannot be opened"
    if stat.S_ISLNK(info.st_mode):
        return f"{rel!r} is a symlink (-> {os.readlink(name, dir_fd=fd)}); the index is never written through one"
    return f"{rel!r} is not a {'folder' if kind == 'folder' else 'regular file'}"
