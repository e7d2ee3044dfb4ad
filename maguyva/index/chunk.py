"""Split files into chunks for text (BM25) and, later, semantic search. Pure.

Code and Markdown files are cut at definition boundaries, so each chunk is one function,
method, class header or section (long ones split into windows); every other text file is cut
into fixed windows. Chunks partition the file: every line belongs to exactly one chunk.
"""

from __future__ import annotations

import re

from maguyva.index.transport import new_chunk
from maguyva.models import Chunk, Symbol

WINDOW = 60  # lines per chunk when no definition boundary splits the text
BOUNDARY_KINDS = frozenset(
    {"function", "method", "class", "interface", "struct", "enum", "trait", "module", "namespace", "heading"}
)


def chunk_text(path: str, text: str, kind: str = "text") -> tuple[Chunk, ...]:
    """Fixed windows of ``WINDOW`` lines."""
    lines = text.splitlines()
    return tuple(_windows(path, lines, 1, len(lines), None, kind))


def chunk_code(path: str, text: str, symbols: tuple[Symbol, ...]) -> tuple[Chunk, ...]:
    """One chunk from each boundary definition's first line to the next boundary (windowed)."""
    lines = text.splitlines()
    starts: dict[int, Symbol] = {}
    for symbol in symbols:
        if symbol.kind in BOUNDARY_KINDS:
            starts.setdefault(symbol.line, symbol)
    cuts = sorted(starts)
    chunks: list[Chunk] = []
    if not cuts or cuts[0] > 1:
        chunks += _windows(path, lines, 1, (cuts[0] - 1) if cuts else len(lines), None, "text")
    for index, start in enumerate(cuts):
        end = cuts[index + 1] - 1 if index + 1 < len(cuts) else len(lines)
        symbol = starts[start]
        kind = "section" if symbol.kind == "heading" else "symbol"
        chunks += _windows(path, lines, start, end, symbol.qualified_name, kind)
    return tuple(chunks)


def _windows(path: str, lines: list[str], start: int, end: int, symbol: str | None, kind: str):
    for first in range(start, end + 1, WINDOW):
        last = min(first + WINDOW - 1, end)
        body = "\n".join(lines[first - 1 : last])
        if body.strip():
            yield new_chunk((path, first, last, body, symbol, kind, None))


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+")
# a run of identifier characters (``[0-9A-Z_a-z]+``): an identifier when it starts with a letter or
# ``_``, else digits then _IDENT's tokens (``0x1F`` → ``0``, ``x1F``), split on its first use. The
# runs are cut from the UTF-8 bytes: every other byte becomes a space (a multi-byte character is
# all bytes >= 0x80, never an identifier character) and ``bytes.split`` cuts at them, 3x faster
# than a ``findall`` of the runs over the text.
_SEPARATORS = bytes(
    c if chr(c).isascii() and (chr(c).isalnum() or c == ord("_")) else ord(" ") for c in range(256)
)
_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def search_words(text: str) -> str:
    """Words for the BM25 index: each identifier lower-cased, plus its parts when it is compound.

    ``getUserName`` → ``getusername get user name``; ``HTTPServer_v2`` → ``httpserver_v2 http server v 2``.
    """
    runs = text.encode("utf-8", "surrogatepass").translate(_SEPARATORS).split()
    return " ".join(map(_WORDS.__getitem__, runs))


def _identifier_words(ident: str) -> str:
    if ident[0].isdigit():  # a run of digits, then maybe an identifier (``_IDENT``'s tokens)
        tokens = _IDENT.findall(ident)
        if len(tokens) > 1:
            return " ".join(map(_identifier_words, tokens))
    lower = ident.lower()
    if lower == ident and ident.isalpha():
        return lower
    parts = _PARTS.findall(ident)
    return " ".join([lower, *(part.lower() for part in parts)]) if len(parts) > 1 else lower


class _IdentifierWords(dict):
    """run (ASCII bytes) → its words, computed on first use (a dict lookup per run, cheaper than an
    ``lru_cache`` call); bounded: emptied when it holds ``_WORDS_MAX`` runs."""

    def __missing__(self, run: bytes) -> str:
        words = _identifier_words(run.decode("ascii"))
        if len(self) >= _WORDS_MAX:
            self.clear()
        self[run] = words
        return words


_WORDS_MAX = 1 << 17
_WORDS = _IdentifierWords()
