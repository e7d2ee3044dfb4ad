"""The commit index's files and the part of them a sync has committed.

A sync writes ``commits.jsonl`` and ``graph.txt`` first (it appends to them, or renames new ones into
place) and ``state.json`` last, in one rename. The state holds each file's length (``bytes``) and the
head commit. So whatever lies past those lengths belongs to a sync that was killed before its state:
the next sync cuts it off, and readers never look at it. The committed part ends with the head's own
line, oldest first, in both files. When it does not (a kill between the two renames of a full sync that
wrote different bytes, or a file edited by hand), nothing is trusted: sync rebuilds the index, and
readers say so instead of reading half of one index and half of another.

A state written before lengths were kept vouches for the files as they are, once their last lines name
its head.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from orkestra.errors import OrkestraError

INDEX_FILE = "commits.jsonl"
GRAPH_FILE = "graph.txt"  # "<sha> <parent> …" per commit, oldest first: what the changelog renderer walks
STATE_FILE = "state.json"
FILES = (INDEX_FILE, GRAPH_FILE)
_BLOCK = 1 << 16  # the tail is read backwards this many bytes at a time, until a whole line is in


def committed(index_dir: Path, state: dict) -> dict[str, int] | None:
    """Each index file's committed length, or None when the files do not hold what ``state`` says."""
    lengths = state.get("bytes")
    head = state.get("head")
    if not (lengths is None or isinstance(lengths, dict)) or not (head is None or isinstance(head, str)):
        return None  # a planted or damaged state vouches for nothing
    vouched = {}
    for name in FILES:
        try:
            size = (index_dir / name).stat().st_size
        except OSError:
            return None
        length = size if lengths is None else lengths.get(name)
        if type(length) is not int or not 0 <= length <= size:
            return None
        if not _ends_with_head(index_dir / name, length, head):
            return None
        vouched[name] = length
    return vouched


def cut(index_dir: Path, lengths: dict[str, int]) -> None:
    """Drop what an interrupted sync wrote past the committed ``lengths``."""
    for name, length in lengths.items():
        path = index_dir / name
        if path.stat().st_size > length:
            os.truncate(path, length)


def lengths_now(index_dir: Path) -> dict[str, int]:
    """The files' lengths as a sync that has just written them commits them."""
    return {name: (index_dir / name).stat().st_size for name in FILES}


def committed_lines(index_dir: Path, name: str, state: dict) -> Iterator[bytes]:
    """The committed lines of ``name`` (none before the first sync); an error when the files do not
    match ``state``."""
    path = index_dir / name
    if not state and not path.is_file():
        return
    lengths = committed(index_dir, state)
    if lengths is None:
        raise OrkestraError(
            f"{path}: the commit index does not match {index_dir / STATE_FILE} (a sync was interrupted "
            "or a file was edited): run `orkestra mine sync` to rebuild it"
        )
    left = lengths[name]
    with path.open("rb") as handle:
        for line in handle:
            if left <= 0:
                return
            left -= len(line)  # the committed part ends with a newline: no line crosses its end
            yield line


def committed_bytes(index_dir: Path, name: str, state: dict) -> bytes:
    return b"".join(committed_lines(index_dir, name, state))


def _ends_with_head(path: Path, length: int, head: str | None) -> bool:
    """Whether the first ``length`` bytes of ``path`` end with the line of commit ``head`` (nothing
    at all when there is no head)."""
    if not length or head is None:
        return not length and head is None
    line = _last_line(path, length)
    if path.name == INDEX_FILE:
        return line.startswith(b'{"sha":"%s"' % head.encode())
    return line.split(b" ", 1)[0].rstrip(b"\n") == head.encode()


def _last_line(path: Path, end: int) -> bytes:
    """The line that ends at byte ``end`` of ``path`` (empty unless byte ``end - 1`` is a newline)."""
    with path.open("rb") as handle:
        handle.seek(end - 1)
        if handle.read(1) != b"\n":
            return b""
        start = end - 1
        while start:
            step = min(_BLOCK, start)
            handle.seek(start - step)
            block = handle.read(step)
            newline = block.rfind(b"\n")
            if newline >= 0:
                start = start - step + newline + 1
                break
            start -= step
        handle.seek(start)
        return handle.read(end - start)
