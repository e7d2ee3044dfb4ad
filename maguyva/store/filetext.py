"""A file's stored text: zlib-compressed UTF-8, and the trigram tokens that index it. Pure.

The literal index is a contentless FTS5 table (``detail=none``) of *pre-tokenised* documents: each
file is indexed by the distinct byte trigrams of its lower-cased UTF-8 text, one 6-hex-digit token
per trigram (``"def"`` → ``646566``). A lower-cased literal's own trigrams must all be present in
any file holding it (UTF-8 keeps code-point substrings byte substrings), so an AND of its tokens
gives a superset of the files that match; ``matching_lines`` then checks each candidate exactly.
Worker processes compute both the compressed text and the tokens (numpy), so the parent only
inserts ~4x fewer tokens than FTS5's trigram tokenizer would produce, and stores ~1/4 of the bytes.
Changing ``grams`` or ``gram_query`` changes what the index holds: bump the schema version.
"""

from __future__ import annotations

import threading
import zlib
from dataclasses import dataclass

LEVEL = 1  # zlib level: 1 compresses the stdlib's 37 MB to 9.7 MB in 0.3 s of CPU, 6 to 8.1 MB in 0.8 s
_HEX = b"0123456789abcdef"


@dataclass(frozen=True, slots=True)
class FileText:
    """What a store keeps of one file's text: ``packed`` (zlib of UTF-8) and its gram tokens."""

    packed: bytes
    grams: str

    @classmethod
    def of(cls, text: str) -> FileText:
        data = text.encode("utf-8", "surrogatepass")
        return cls(zlib.compress(data, LEVEL), grams(text))

    @classmethod
    def of_source(cls, source: bytes) -> FileText:
        """From a file's bytes, stored as the text a reader decodes (invalid UTF-8 becomes U+FFFD)."""
        if source.isascii():  # valid UTF-8, and its lower-cased bytes are its text's (most code)
            return cls(zlib.compress(source, LEVEL), _gram_tokens(source.lower()))
        try:
            text = source.decode("utf-8")
        except UnicodeDecodeError:
            text = source.decode("utf-8", errors="replace")
            source = text.encode("utf-8")
        return cls(zlib.compress(source, LEVEL), grams(text))

    @property
    def text(self) -> str:
        return unpack_text(self.packed)


def as_file_text(text: str | FileText) -> FileText:
    return text if isinstance(text, FileText) else FileText.of(text)


def unpack_text(packed: bytes) -> str:
    return zlib.decompress(packed).decode("utf-8", "surrogatepass")


def grams(text: str) -> str:
    """The distinct byte trigrams of ``text.lower()`` as space-separated hex tokens, in sorted order."""
    return _gram_tokens(text.lower().encode("utf-8", "surrogatepass"))


# Distinct trigrams without sorting every position (``numpy.unique`` was 60 % of a file's stored
# text): each position writes its index into a slot per trigram value; whichever write lands, one
# position per distinct value reads its own index back. Only those few are sorted. The slots are
# 64 MB of address space per process, mapped on first use: private (a forked worker's writes are
# its own) and without huge pages, so only the 4 KB pages of trigrams seen are ever touched (the
# whole stdlib: ~30 MB; with 2 MB pages, ~75 MB). The slots are one per process, so threads take
# turns (an MCP server's worker threads may index at once: numpy lets go of the GIL while it writes).
_SLOTS: list = []
_POSITIONS: list = []
_TURNS = threading.Lock()


def _slots():
    import mmap

    import numpy as np

    if not _SLOTS:
        if hasattr(mmap, "MAP_PRIVATE"):
            area = mmap.mmap(-1, 4 << 24, flags=mmap.MAP_PRIVATE)
            if hasattr(mmap, "MADV_NOHUGEPAGE"):
                area.madvise(mmap.MADV_NOHUGEPAGE)
            _SLOTS.append(np.frombuffer(area, np.int32))
        else:  # no POSIX mmap flags (Windows): numpy's own memory
            _SLOTS.append(np.empty(1 << 24, np.int32))
    return _SLOTS[0]


def _gram_tokens(data: bytes) -> str:
    import numpy as np  # only the indexer pays for numpy; queries use ``gram_query``

    if len(data) < 3:
        return ""
    wide = np.frombuffer(data, np.uint8).astype(np.uint32)
    codes = (wide[:-2] << 16) | (wide[1:-1] << 8) | wide[2:]
    with _TURNS:
        slots = _slots()
        if not _POSITIONS or len(_POSITIONS[0]) < len(codes):
            _POSITIONS[:] = [np.arange(2 * len(codes), dtype=np.int32)]  # 0, 1, 2, …: grown by doubling
        positions = _POSITIONS[0][: len(codes)]
        slots[codes] = positions
        unique = codes[slots[codes] == positions]  # a copy: the slots are free again
    unique.sort()
    digits = np.frombuffer(_HEX, np.uint8)
    out = np.empty((len(unique), 7), np.uint8)
    for k in range(6):
        out[:, k] = digits[(unique >> (20 - 4 * k)) & 15]
    out[:, 6] = 32
    return out.tobytes()[:-1].decode("ascii")


def gram_query(text: str) -> str | None:
    """An FTS5 expression for the files whose grams include every trigram of ``text`` (None when its
    lower-cased UTF-8 is under three bytes: the index cannot narrow it)."""
    data = text.lower().encode("utf-8", "surrogatepass")
    if len(data) < 3:
        return None
    tokens = dict.fromkeys(f"{data[i]:02x}{data[i + 1]:02x}{data[i + 2]:02x}" for i in range(len(data) - 2))
    return " AND ".join(tokens)
