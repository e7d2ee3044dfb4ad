"""The column lists and row mappings both store backends share: one order for symbols, references and
edges, so a SELECT written for SQLite and one written for PostgreSQL build the same objects."""

from __future__ import annotations

import json
from operator import attrgetter
from typing import TYPE_CHECKING

from maguyva import models  # each record's module is imported by the first row that builds one

if TYPE_CHECKING:
    from maguyva.models import FileExtraction, FileRecord, Reference, Symbol

SYMBOL_FIELDS = (
    "path",
    "name",
    "qualified_name",
    "kind",
    "line",
    "end_line",
    "col",
    "signature",
    "doc",
    "parent",
)
REF_FIELDS = ("path", "name", "kind", "line", "col", "qualifier", "scope", "module", "alias")
EDGE_FIELDS = (
    "kind",
    "src_path",
    "src_line",
    "src_symbol",
    "dst_path",
    "dst_line",
    "dst_symbol",
    "name",
    "resolution",
    "reason",
    "src_col",
)  # Edge's own field order: Edge(*row) builds one

SYMBOL_COLUMNS = ", ".join(SYMBOL_FIELDS)
REF_COLUMNS = ", ".join(REF_FIELDS)
EDGE_COLUMNS = ", ".join(EDGE_FIELDS)

edge_values = attrgetter(*EDGE_FIELDS)  # an Edge as the tuple an INSERT of EDGE_COLUMNS takes

FILE_COLUMNS = "path, language, size, mtime_ns, hash, flags, errors"  # each backend adds its own after them


def file_values(record: FileRecord, mtime_ns: int, extraction: FileExtraction) -> tuple:
    """A stored file as the tuple of ``FILE_COLUMNS``: flags comma-joined, errors a JSON list."""
    return (
        record.path,
        record.language,
        record.size,
        mtime_ns,
        record.content_hash,
        ",".join(record.flags),
        json.dumps(list(extraction.errors)),
    )


def symbol_from_row(row) -> Symbol:
    return models.Symbol(**dict(zip(SYMBOL_FIELDS, row, strict=True)))


def reference_from_row(row) -> Reference:
    return models.Reference(**dict(zip(REF_FIELDS, row, strict=True)))
