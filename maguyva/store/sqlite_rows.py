"""Rows as the SQLite store writes them: strings replaced by ``names`` ids (``maguyva.store.sqlite_names``)
and the rows a file owns numbered within it. Pure."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import count, repeat
from operator import attrgetter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maguyva.models import Edge, FileExtraction, Reference, Symbol

# a string's id inside a statement (0, never an id, when the string is not stored: nothing matches it)
NAME = "coalesce((SELECT n.id FROM (SELECT ? AS t) q JOIN names n ON n.hash = name_hash(q.t) AND n.text = q.t), 0)"
# the ids of a JSON array's strings
NAMES = "(SELECT n.id FROM json_each(?) j JOIN names n ON n.hash = name_hash(j.value) AND n.text = j.value)"
FILE = "coalesce((SELECT id FROM files WHERE path = ?), 0)"
RESOLVED = "(SELECT id FROM names WHERE hash IN (name_hash('resolved'), name_hash('inferred'))"
RESOLVED += " AND text IN ('resolved', 'inferred'))"


# the fields each row stores as ids, and how each row is laid out (``c`` a names id, ``v`` the value)
SYMBOL_IDS = ("qualified_name", "kind", "parent")
REF_IDS = ("name", "kind", "qualifier", "scope", "module", "alias")
EDGE_IDS = ("kind", "src_path", "src_symbol", "dst_path", "dst_symbol", "name", "resolution", "reason")
CHUNK_IDS = ("symbol", "kind")
_SYMBOL_ROW = (
    ("v", "name"),
    ("c", "qualified_name"),
    ("c", "kind"),
    ("v", "line"),
    ("v", "end_line"),
    ("v", "col"),
    ("v", "signature"),
    ("v", "doc"),
    ("c", "parent"),
)
_REF_ROW = (
    ("c", "name"),
    ("c", "kind"),
    ("v", "line"),
    ("v", "col"),
    ("c", "qualifier"),
    ("c", "scope"),
    ("c", "module"),
    ("c", "alias"),
)
_EDGE_ROW = (
    ("c", "kind"),
    ("c", "src_path"),
    ("v", "src_line"),
    ("c", "src_symbol"),
    ("c", "dst_path"),
    ("v", "dst_line"),
    ("c", "dst_symbol"),
    ("c", "name"),
    ("c", "resolution"),
    ("c", "reason"),
    ("v", "src_col"),
)


def strings(rows: Sequence, fields: Sequence[str]) -> set[str | None]:
    """The distinct values of ``fields`` over ``rows`` (C-level passes, no per-value Python code)."""
    return set().union(*(map(attrgetter(f), rows) for f in fields))


def extraction_strings(extraction: FileExtraction) -> set[str | None]:
    """Every string of a file's symbols, references and chunks that its rows store as an id."""
    return (
        strings(extraction.symbols, SYMBOL_IDS)
        | strings(extraction.references, REF_IDS)
        | strings(extraction.chunks, CHUNK_IDS)
    )


def _columns(rows: Sequence, layout, ids: dict[str, int]) -> list[Iterable]:
    """Column by column, ``rows``' values with each ``c`` field as its id ('' is id 1: no byte in a
    row; None stays NULL, ``ids`` maps it to None): ``zip`` of these gives the INSERT tuples."""
    get = ids.__getitem__  # (a clean run's cache numbers a new string here: ``Names.lookup``)
    return [
        map(get, map(attrgetter(f), rows)) if how == "c" else map(attrgetter(f), rows) for how, f in layout
    ]


def symbol_values(file: int, symbols: Sequence[Symbol], ids: dict[str, int]) -> Iterable[tuple]:
    """(file, seq, …) for a file's symbols, seq their place in it."""
    return zip(repeat(file), count(), *_columns(symbols, _SYMBOL_ROW, ids))


def ref_values(file: int, references: Sequence[Reference], ids: dict[str, int]) -> Iterable[tuple]:
    return zip(repeat(file), count(), *_columns(references, _REF_ROW, ids))


def edge_strings(edges: Sequence[Edge]) -> set[str | None]:
    return strings(edges, EDGE_IDS)


def edge_values(edges: Sequence[Edge], ids: dict[str, int]) -> Iterable[tuple]:
    return zip(*_columns(edges, _EDGE_ROW, ids))


def chunk_words(lines: list[str], start: int, end: int) -> str:
    """The BM25 words of the chunk spanning lines ``start``..``end`` of a file's ``str.splitlines()``:
    what a worker computes from the chunk's text (``maguyva.search_words``), recomputed from the
    stored text to insert a chunk or to delete it from the contentless ``chunks_fts``."""
    from maguyva.search_words import search_words

    return search_words("\n".join(lines[start - 1 : end]))
