"""What extraction makes of one file: its chunks, and everything found in it before resolution."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maguyva.models.references import Reference
    from maguyva.models.symbol import Symbol


@dataclass(frozen=True, slots=True)
class Chunk:
    """A span of a file for text (and later semantic) search."""

    path: str
    start_line: int
    end_line: int
    text: str
    symbol: str | None = None  # qualified name when the chunk is a symbol body
    kind: str = "text"  # "symbol" | "section" | "text"
    words: str | None = None  # ``search_words(text)`` when a worker computed it (the store does otherwise)


@dataclass(frozen=True, slots=True)
class FileExtraction:
    """Everything extracted from one file, before cross-file resolution."""

    path: str
    language: str | None
    symbols: tuple[Symbol, ...] = ()
    references: tuple[Reference, ...] = ()
    chunks: tuple[Chunk, ...] = ()
    errors: tuple[str, ...] = field(default=())  # parse timeouts, syntax-error regions, …
