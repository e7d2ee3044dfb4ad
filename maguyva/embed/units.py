"""What gets embedded: one unit per index chunk, with its context, sized for the model.

Chunks are already symbol-aligned (a function or class body from its signature line, a
Markdown section). A unit prefixes the chunk with its path and symbol so the vector knows
where it lives; a symbol too long for one chunk is split into windows that repeat its
signature and overlap the previous window by a few lines — the only place overlap is used.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from maguyva.store.values import ChunkRow

MAX_CHARS = 2_000  # ≈ 512 code tokens; longer units are cut (the model would truncate anyway)
OVERLAP_LINES = 5


@dataclass(frozen=True, slots=True)
class Unit:
    chunk_id: int
    text: str


def build_units(rows: Sequence[ChunkRow], file_lines: dict[str, list[str]]) -> list[Unit]:
    """Embedding texts for ``rows`` (chunks of the files in ``file_lines``)."""
    units = []
    previous: ChunkRow | None = None
    for row in rows:
        lines = file_lines.get(row.path, [])
        continued = (
            previous is not None
            and previous.path == row.path
            and previous.symbol == row.symbol
            and row.symbol is not None
            and previous.end_line + 1 == row.start_line
        )
        start = max(1, row.start_line - OVERLAP_LINES) if continued else row.start_line
        body = "\n".join(lines[start - 1 : row.end_line])
        header = [row.path]
        if row.symbol:
            header.append(f"{row.kind} {row.symbol}")
        if continued:
            signature = _signature_line(lines, row, rows)
            if signature:
                header.append(signature)
        text = "\n".join(header) + "\n" + body
        units.append(Unit(row.chunk_id, text[:MAX_CHARS]))
        previous = row
    return units


def _signature_line(lines: list[str], row: ChunkRow, rows: Iterable[ChunkRow]) -> str:
    first = min((r.start_line for r in rows if r.path == row.path and r.symbol == row.symbol), default=0)
    return lines[first - 1].strip() if 0 < first <= len(lines) else ""
