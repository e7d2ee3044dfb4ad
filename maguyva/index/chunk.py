"""Split files into chunks for text (BM25) and, later, semantic search. Pure.

Code and Markdown files are cut at definition boundaries, so each chunk is one function,
method, class header or section (long ones split into windows); every other text file is cut
into fixed windows. Chunks partition the file: every line belongs to exactly one chunk.
"""

from __future__ import annotations

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
