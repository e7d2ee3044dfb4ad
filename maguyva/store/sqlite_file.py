"""The SQLite index's file on disk: a first index built aside (``.<name>.<pid>.building``) and made
durable before it is linked in, stale builds of killed runs removed, and the check that a path
names an index before anything writes into it or deletes it (``not_an_index``)."""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path


def building_file(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.building")


def remove_stale_builds(path: Path) -> None:
    """Remove the files of fresh builds whose process is gone (killed before it moved its index in)."""
    for stale in path.parent.glob(f".{path.name}.*.building*"):
        pid = stale.name[len(path.name) + 2 :].split(".", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            stale.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


_SQLITE_HEADER = b"SQLite format 3\x00"


def not_an_index(path: Path) -> str:
    """Why the file at ``path`` is not one an index run may write into or ``index --full`` delete ("" when
    absent, empty, a link, or a Maguyva index of any version): ``--store notes.txt --full`` must never
    cost the user ``notes.txt``, nor ``--store app.db`` add tables to another program's database."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return ""
    except OSError as exc:
        return f"cannot be inspected ({exc.strerror})"
    if stat.S_ISLNK(mode):
        return ""  # the link goes, never what it points to
    if stat.S_ISDIR(mode):
        return "it is a folder, not an index file"
    if not stat.S_ISREG(mode):
        return "it is not a regular file"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
        try:
            head = os.read(fd, len(_SQLITE_HEADER))
        finally:
            os.close(fd)
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if not head:
        return ""
    if head != _SQLITE_HEADER:
        return "it is not a SQLite database (not a Maguyva index)"
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            found = db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'").fetchone()
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        return f"a SQLite database that cannot be read ({exc})"
    return "" if found else "a SQLite database that is not a Maguyva index (no meta table)"
