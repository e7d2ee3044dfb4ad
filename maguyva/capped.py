"""The one capped reader of repository content, shared by both packages (orkestra re-exports it from
``orkestra.fs.links``).

A cloned repository can hold a 3 GB sparse ``pyproject.toml``, ``package.json`` or registry file (it
costs its author nothing on disk), or a FIFO where a file is expected (``open`` and ``read`` would
block for ever). :func:`read_regular` opens non-blocking, checks the open descriptor with ``fstat``
(so a file swapped in after a ``stat`` is still the one checked), refuses anything but a regular file
and anything over the cap unread, and then reads at most cap + 1 bytes, so a file that grows while it
is read is refused too.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import BinaryIO

_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class NotRegularFile(OSError):
    """A path that is a FIFO, a socket, a device or a folder where a file is expected."""


def _open_regular(path: str | os.PathLike[str], follow: bool) -> tuple[int, os.stat_result]:
    """A blocking descriptor of the regular file ``path`` and its ``fstat``, checked before any read."""
    fd = os.open(path, _READ_FLAGS | (0 if follow else os.O_NOFOLLOW))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = (
                "a folder" if stat.S_ISDIR(info.st_mode) else "not a regular file (a FIFO, socket or device)"
            )
            raise NotRegularFile(errno.EINVAL, kind, os.fspath(path))
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd, info


def open_regular(path: str | os.PathLike[str], *, follow: bool = True) -> BinaryIO:
    """The regular file ``path`` opened for reading, checked as ``read_regular`` checks it, for a reader
    that takes only what it needs of a large file (a cache's key before its arrays)."""
    fd, _ = _open_regular(path, follow)
    return os.fdopen(fd, "rb")


def read_regular(path: str | os.PathLike[str], limit: int | None = None, *, follow: bool = True) -> bytes:
    """The bytes of the regular file ``path``; the one way repository content is opened.

    Opened non-blocking and checked with ``fstat`` before a byte is read: a FIFO (which would block
    ``open`` or ``read`` for ever), a device or a socket is refused as ``NotRegularFile``; a file larger
    than ``limit`` bytes is refused unread (a sparse 3 GB file costs nothing). ``follow=False`` also
    refuses a symlink at ``path`` itself (ELOOP). Other failures are the usual ``OSError``s."""
    fd, info = _open_regular(path, follow)
    try:
        if limit is not None and info.st_size > limit:
            raise NotRegularFile(errno.EFBIG, f"larger than {limit:,} bytes", os.fspath(path))
        chunks, size = [], 0
        cap = None if limit is None else limit + 1
        while cap is None or size < cap:
            chunk = os.read(fd, (1 << 20) if cap is None else min(1 << 20, cap - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if limit is not None and size > limit:  # grew while we read it
            raise NotRegularFile(errno.EFBIG, f"larger than {limit:,} bytes", os.fspath(path))
        return b"".join(chunks)
    finally:
        os.close(fd)


class Unreadable(Exception):
    """A file not read at all, ``message`` saying why; ``kind`` "io" (missing, not a regular file, over
    the cap: the ``OSError`` is the ``__cause__``) or "encoding" (not UTF-8: the ``UnicodeDecodeError``)."""

    def __init__(self, message: str, kind: str):
        super().__init__(message)
        self.message, self.kind = message, kind


def read_bytes(path: str | os.PathLike[str], limit: int) -> bytes:
    """:func:`read_regular` with a cap, every failure an :class:`Unreadable` ("io")."""
    try:
        return read_regular(path, limit)
    except OSError as exc:
        raise Unreadable(f"cannot read: {exc.strerror or exc}", "io") from exc


def decode(raw: bytes) -> str:
    """UTF-8 bytes as text, or :class:`Unreadable` ("encoding")."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Unreadable(f"not UTF-8 text: {exc.reason}", "encoding") from exc


def read_text(path: str | os.PathLike[str], limit: int) -> tuple[bytes, str]:
    """``(bytes, text)`` of a UTF-8 text file of at most ``limit`` bytes: :func:`read_bytes`, then :func:`decode`."""
    raw = read_bytes(path, limit)
    return raw, decode(raw)
