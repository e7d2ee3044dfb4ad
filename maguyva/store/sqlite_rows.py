"""Rows as the SQLite store writes them: strings replaced by ``names`` ids (``maguyva.store.sqlite_names``)
and the rows a file owns numbered within it. Pure."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from maguyva.index.chunk import search_words
from maguyva.models import Edge, FileExtraction, Reference, Symbol

# a string's id inside a statement (0, never an id, when the string is not stored: nothing matches it)
NAME = "coalesce((SELECT n.id FROM (SELECT ? AS t) q JOIN names n ON n.hash = name_hash(q.t) AND n.text = q.t), 0)"
# the ids of a JSON array's strings
NAMES = "(SELECT n.id FROM json_each(?) j JOIN names n ON n.hash = name_hash(j.value) AND n.text = j.value)"
FILE = "coalesce((SELECT id FROM files WHERE path = ?), 0)"
RESOLVED = "(SELECT id FROM names WHERE hash IN (name_hash('resolved'), name_hash('inferred'))"
RESOLVED += " AND text IN ('resolved', 'inferred'))"


def extraction_strings(extraction: FileExtraction) -> Iterator[str | None]:
    """Every string of a file's symbols, references and chunks that its rows store as an id."""
    for s in extraction.symbols:
        yield from (s.qualified_name, s.kind, s.parent)
    for r in extraction.references:
        yield from (r.name, r.kind, r.qualifier, r.scope, r.module, r.alias)
    for c in extraction.chunks:
        yield from (c.symbol, c.kind)


def symbol_values(file: int, symbols: Sequence[Symbol], ids: dict[str, int]) -> list[tuple]:
    return [
        (
            file,
            seq,
            s.name,
            ids[s.qualified_name],
            ids[s.kind],
            s.line,
            s.end_line,
            s.col,
            s.signature,
            s.doc,
            None if s.parent is None else ids[s.parent],
        )
        for seq, s in enumerate(symbols)
    ]


def ref_values(file: int, references: Sequence[Reference], ids: dict[str, int]) -> list[tuple]:
    return [
        (
            file,
            seq,
            ids[r.name],
            ids[r.kind],
            r.line,
            r.col,
            ids[r.qualifier] if r.qualifier else None,  # '' is stored as NULL (no byte in the row)
            None if r.scope is None else ids[r.scope],
            ids[r.module] if r.module else None,
            ids[r.alias] if r.alias else None,
        )
        for seq, r in enumerate(references)
    ]


def edge_strings(edges: Iterable[Edge]) -> Iterator[str | None]:
    for e in edges:
        yield from (
            e.kind,
            e.src_path,
            e.src_symbol,
            e.dst_path,
            e.dst_symbol,
            e.name,
            e.resolution,
            e.reason,
        )


def edge_values(edges: Iterable[Edge], ids: dict[str, int]) -> list[tuple]:
    get = ids.get  # None (no symbol, unresolved) stays NULL; every string was interned
    return [
        (
            ids[e.kind],
            ids[e.src_path],
            e.src_line,
            get(e.src_symbol),
            get(e.dst_path),
            e.dst_line,
            get(e.dst_symbol),
            ids[e.name],
            ids[e.resolution],
            ids[e.reason] if e.reason else None,
            e.src_col,
        )
        for e in edges
    ]


def chunk_words(lines: list[str], start: int, end: int) -> str:
    """The BM25 words of the chunk spanning lines ``start``..``end`` of a file's ``str.splitlines()``:
    what a worker computes from the chunk's text (``maguyva.index.chunk``), recomputed from the
    stored text to insert a chunk or to delete it from the contentless ``chunks_fts``."""
    return search_words("\n".join(lines[start - 1 : end]))
