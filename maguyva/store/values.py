"""The index-wide values a store reports: the snapshot it was built from, its per-language counts,
the graph centrality of its files and symbols, and its chunks' rows (frozen; built by the reads that
return them)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What the index was built from."""

    commit: str | None
    created_at: str  # ISO 8601, UTC
    dirty: tuple[str, ...]  # uncommitted files at index time (indexed, but not in the commit)

    def as_dict(self) -> dict:
        """The JSON form every answer uses: ``{commit, created_at, dirty}``."""
        return {"commit": self.commit, "created_at": self.created_at, "dirty": list(self.dirty)}


@dataclass(frozen=True, slots=True)
class Centrality:
    """Graph importance of one symbol (``symbol`` set) or one file (``symbol`` None)."""

    path: str
    symbol: str | None
    pagerank: float
    in_degree: int
    out_degree: int


@dataclass(frozen=True, slots=True)
class LanguageStats:
    language: str
    files: int
    symbols: int
    edges: int

    def counts(self) -> dict[str, int]:
        return {"files": self.files, "symbols": self.symbols, "edges": self.edges}

    def as_row(self) -> dict:
        """The JSON row every answer uses: ``{language, files, symbols, edges}``."""
        return {"language": self.language, **self.counts()}


@dataclass(frozen=True, slots=True)
class ChunkRow:
    """One stored chunk, as embedding reads it (``maguyva.embed.units`` builds its text)."""

    chunk_id: int
    path: str
    start_line: int
    end_line: int
    symbol: str | None
    kind: str
