"""The NUL-terminated tokens of a ``git log -z`` stream, with every token capped at :data:`FIELD_CAP` bytes.

A cloned repository is untrusted: one commit may carry a message of hundreds of megabytes (or an author
name, or a file name, that long). Such a token is never held whole: its first :data:`HEAD_BYTES` and last
:data:`TAIL_BYTES` are kept, what lies between is skipped while it streams by, and :func:`marker` takes its
place. The kept tail starts on a line of its own, so the footers of a long message (``BREAKING CHANGE:``,
``Refs:``) still parse. Memory stays at one read (:data:`READ_SIZE`) plus one cap, whatever the token.

Tokens of ordinary commits are decoded exactly as before, one read at a time: the check for a long token
asks, for every aligned block of half a cap, whether it holds a NUL (a token longer than the cap covers at
least one such block whole), which ``bytes.find`` answers after a few dozen bytes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

READ_SIZE = 1 << 20
FIELD_CAP = 64 << 10  # the most bytes (UTF-8) any field of a commit is stored with, marker included
MARKER_ROOM = 256
HEAD_BYTES = 48 << 10
TAIL_BYTES = FIELD_CAP - HEAD_BYTES - MARKER_ROOM
_BLOCK = FIELD_CAP // 2
_SHA_LIST = rb"(?:[0-9a-f]{40}|[0-9a-f]{64})(?: (?:[0-9a-f]{40}|[0-9a-f]{64}))*"  # compiled when first needed


def marker(cut: int) -> bytes:
    """What stands for the ``cut`` bytes left out of a long field (ASCII, never a NUL, < MARKER_ROOM)."""
    return b"\n\n[orkestra: %d bytes of this field were cut; a field is kept up to %d bytes]\n\n" % (
        cut,
        FIELD_CAP,
    )


def token_lists(stream) -> Iterator[list[str]]:
    """The NUL-terminated tokens of a stream, decoded, one list per read of :data:`READ_SIZE` bytes.

    A read is decoded whole up to its last NUL, which gives the very strings decoding each token alone
    would: NUL is ASCII, never inside a UTF-8 sequence, so an invalid sequence is replaced the same way."""
    rest = b""  # the start of a token the next read ends (at most FIELD_CAP bytes)
    long: LongToken | None = None  # the token being skipped, once it is longer than the cap
    while chunk := stream.read(READ_SIZE):
        done: list[str] = []
        if long is not None:
            end = chunk.find(b"\0")
            if end < 0:
                long.feed(chunk)
                continue
            long.feed(chunk[:end])
            done, long, chunk = [long.text()], None, chunk[end + 1 :]
            data = chunk
        else:
            data = rest + chunk if rest else chunk
        cut = data.rfind(b"\0")
        if cut < 0:
            rest = data
        else:
            rest = data[cut + 1 :]
            body = data[:cut]
            tokens = (
                (_capped(body) if _holds_long_token(body) else body).decode("utf-8", "replace").split("\0")
            )
            done = done + tokens if done else tokens
        if len(rest) > FIELD_CAP:
            long, rest = LongToken(rest), b""
        if done:
            yield done
    if long is not None:
        yield [long.text()]
    elif rest:
        yield [rest.decode("utf-8", "replace")]


class LongToken:
    """A token longer than the cap, as it streams by: its head, its last bytes so far, how long it is."""

    __slots__ = ("head", "size", "tail")

    def __init__(self, start: bytes):
        self.head, self.tail, self.size = start[:HEAD_BYTES], b"", HEAD_BYTES
        self.feed(start[HEAD_BYTES:])

    def feed(self, piece: bytes) -> None:
        self.size += len(piece)
        self.tail = (self.tail + piece[-TAIL_BYTES:])[-TAIL_BYTES:]

    def text(self) -> str:
        return cap(self.head, self.tail, self.size).decode("utf-8", "replace")


def cap(head: bytes, tail: bytes, size: int) -> bytes:
    """A field of ``size`` bytes that starts with ``head`` and ends with ``tail``, cut to the cap: the head
    (without a character it cuts in two), the marker, and the tail from its first line start (or its first
    whole character). A list of shas (the parents of an octopus merge with thousands of them) keeps the
    whole shas of its head and no marker, so each word is still a sha."""
    last = head.rfind(b" ", 0, HEAD_BYTES + 1)
    if last > 0 and re.fullmatch(_SHA_LIST, head[:last]):  # thousands of parents: whole shas, no marker
        return head[:last]
    head = _whole_characters(head[:HEAD_BYTES])
    tail = tail[-TAIL_BYTES:]
    newline = tail.find(b"\n")
    start = newline + 1
    if newline < 0:
        while start < 3 and start < len(tail) and tail[start] & 0xC0 == 0x80:  # a continuation byte
            start += 1
    tail = tail[start:]
    return head + marker(size - len(head) - len(tail)) + tail


def _whole_characters(head: bytes) -> bytes:
    """``head`` without the UTF-8 sequence its end cuts short, if any (a lead byte in its last three bytes
    that announces more bytes than follow it)."""
    for back in range(1, min(3, len(head)) + 1):
        byte = head[-back]
        if byte & 0xC0 == 0x80:  # a continuation byte: look further back for its lead
            continue
        needed = 1 if byte < 0xC0 else 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
        return head[:-back] if needed > back else head
    return head


def _holds_long_token(body: bytes) -> bool:
    """Whether a NUL-free run longer than the cap may be in ``body``: some aligned half-cap block has no NUL."""
    find = body.find
    for start in range(0, len(body) - _BLOCK + 1, _BLOCK):  # noqa: SIM110 - no generator per 1 MiB read
        if find(b"\0", start, start + _BLOCK) < 0:
            return True
    return False


def _capped(body: bytes) -> bytes:
    """``body`` with each token longer than the cap cut to it (the rare path: a block without a NUL)."""
    return b"\0".join(
        cap(token[:HEAD_BYTES], token[-TAIL_BYTES:], len(token)) if len(token) > FIELD_CAP else token
        for token in body.split(b"\0")
    )
