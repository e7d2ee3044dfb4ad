"""Reading repository files for answers: every path is confined to the repository, never into ``.git``."""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from maguyva.errors import MaguyvaError

VCS_DIRS = frozenset({".git", ".hg", ".svn"})  # never code, at any depth (a nested clone has its own)


def in_vcs_dir(parts: Iterable[str]) -> bool:
    """Whether a path with these components is (or is inside) a ``.git``/``.hg``/``.svn`` entry, at any depth.

    Case-insensitive, as git itself refuses ``.GIT`` in trees (case-insensitive file systems).
    """
    return any(part.lower() in VCS_DIRS for part in parts)


def confine(root: Path, path: str) -> Path:
    """A repository file for ``path``, refusing anything that leaves the repository or enters ``.git``.

    Both the path as asked and the file it resolves to (through any symlinks) are checked.
    """
    if not path:
        raise MaguyvaError("path is empty")
    if "\0" in path:
        raise MaguyvaError(f"{path!r} holds a NUL character (\\x00), which no file name can")
    candidate = Path(path)
    if in_vcs_dir(candidate.parts):
        raise MaguyvaError(f"{path!r} is inside .git, which is not part of the code")
    if candidate.is_absolute():
        try:
            candidate = resolved(candidate, path).relative_to(root)
        except ValueError:
            raise MaguyvaError(f"{path!r} is outside the repository") from None
    full = resolved(root / candidate, path)
    if full != root and root not in full.parents:
        raise MaguyvaError(f"{path!r} is outside the repository")
    if in_vcs_dir(full.relative_to(root).parts):
        raise MaguyvaError(f"{path!r} leads inside .git, which is not part of the code")
    return full


def resolve_links(path: Path) -> Path | None:
    """``path`` with every symlink followed, or None when its links loop (a cloned repository may hold
    ``a -> b``, ``b -> a``)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: Python 3.11's "Symlink loop"; OSError (ELOOP) later
        return None


def resolved(path: Path, asked: str, error: type[Exception] = MaguyvaError) -> Path:
    """:func:`resolve_links`, raising ``error`` naming ``asked`` (the path as given) when the links loop."""
    target = resolve_links(path)
    if target is None:
        raise error(f"{asked!r} cannot be resolved: a loop of symlinks")
    return target


CHUNK_BYTES = 1 << 20


@dataclass(frozen=True, slots=True)
class LineSlice:
    """Lines ``first``… of a file as ``get_file`` numbers them, and the file's line count.

    ``cut`` says why fewer lines (or a shorter line) came back than were asked for; ``digest`` is the
    file's git blob id when it was asked for.
    """

    first: int
    lines: list[str]
    total: int
    cut: str | None = None
    digest: str | None = None
    partial: bool = False  # the last line is cut short


def read_lines(
    path: Path, first: int, last: int | None, max_bytes: int, *, digest: bool = False
) -> LineSlice:
    """Lines ``first``..``last`` (1-based, inclusive; ``last`` None: to the end) of the file ``path``, streamed.

    Memory is bounded by ``max_bytes`` (the most that is returned) plus one read of ``CHUNK_BYTES``,
    whatever the file's size or the length of its lines: lines before ``first`` are skipped as they
    stream past, the rest of the file is only counted. Lines split on ``\\n`` alone (a ``\\r`` before it
    is dropped), as ``maguyva.store.lines.split_lines`` and tree-sitter number them; bytes are decoded
    as UTF-8 with replacement, a line at a time. A range longer than ``max_bytes`` stops at the last
    whole line that fits (the first line of the range is cut to fit instead, when it alone is longer).
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO swapped in never blocks the open
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise MaguyvaError(f"{path.name} is not a regular file")
        hasher = hashlib.sha1(b"blob %d\0" % info.st_size) if digest else None
        kept: list[str] = []
        line = bytearray()  # the kept line being read, never longer than the room left
        number, used, newlines, read, last_byte = 1, 0, 0, 0, b""
        done, cut = False, None
        while chunk := handle.read(CHUNK_BYTES):
            read += len(chunk)
            breaks = chunk.count(b"\n")
            newlines += breaks
            last_byte = chunk[-1:]
            if hasher is not None:
                hasher.update(chunk)
            position = 0
            if number + breaks < first:  # the whole chunk lies before the range
                number += breaks
                continue
            while not done and position < len(chunk):
                newline = chunk.find(b"\n", position)
                end = len(chunk) if newline < 0 else newline
                if number >= first:
                    room = max_bytes - used - len(line)
                    if end - position > room:
                        done = True
                        if kept:
                            cut = f"lines {number}- not returned: the range is longer than {max_bytes} bytes"
                        else:
                            kept.append(_decoded(line + chunk[position : position + room]))
                            cut = f"line {number} cut after {max_bytes} bytes"
                        line.clear()
                        break
                    line += chunk[position:end]
                if newline < 0:
                    break
                if number >= first:
                    kept.append(_decoded(line))
                    used += len(line)
                    line.clear()
                number += 1
                position = newline + 1
                done = done or (last is not None and number > last)
    if not done and line:  # the file's last line, with no newline after it
        kept.append(_decoded(line))
    total = newlines + (1 if last_byte not in (b"", b"\n") else 0)
    found = None
    if hasher is not None:  # a file that changed size while it was read gets an id no version of it has
        found = (
            hasher.hexdigest() if read == info.st_size else hashlib.sha1(b"changed while read").hexdigest()
        )
    return LineSlice(first, kept, total, cut, found, partial=cut is not None and cut.startswith("line "))


def _decoded(line: bytes | bytearray) -> str:
    text = bytes(line).decode("utf-8", errors="replace")
    return text[:-1] if text.endswith("\r") else text
