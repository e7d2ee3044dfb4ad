"""Records shared by every Maguyva stage: scan → parse → extract → resolve → store → retrieve.

All are frozen, slotted dataclasses; lines are 1-based, columns 0-based (tree-sitter points).
Each lives in a module of this package and is imported on first use (``from maguyva.models import
Symbol`` loads ``maguyva.models.symbol`` alone): creating a frozen dataclass costs about 0.7 ms, and
``code grep`` and ``code symbol`` read one of the six records each.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maguyva.models.extraction import Chunk, FileExtraction
    from maguyva.models.file import FileRecord
    from maguyva.models.references import Edge, Reference
    from maguyva.models.symbol import Symbol

# Definition kinds every language maps onto (queries capture ``@def.<kind>``).
DEF_KINDS = (
    "function",
    "method",
    "class",
    "interface",
    "struct",
    "enum",
    "trait",
    "module",
    "namespace",
    "type",
    "constant",
    "variable",
    "field",
    "heading",
)
# Reference kinds (queries capture ``@ref.<kind>``) and the edge kinds they become.
REF_KINDS = ("call", "import", "inherit", "type")
EDGE_KIND = {"call": "calls", "import": "imports", "inherit": "inherits", "type": "references"}
# Facts for the type and value pass (queries capture ``@fact.<kind>``; a language hook ``facts``
# turns each node into rows). Stored beside references, they never become edges themselves.
FACT_KINDS = ("bind", "param", "return", "decorate", "arg", "iterate")

# record -> the module of this package that defines it
HOMES = {
    "FileRecord": "file",
    "Symbol": "symbol",
    "Reference": "references",
    "Edge": "references",
    "Chunk": "extraction",
    "FileExtraction": "extraction",
}
__all__ = [
    "DEF_KINDS",
    "EDGE_KIND",
    "FACT_KINDS",
    "REF_KINDS",
    "Chunk",
    "Edge",
    "FileExtraction",
    "FileRecord",
    "Reference",
    "Symbol",
]


def __getattr__(name: str) -> type:
    """A record, imported from its module on first use (PEP 562), then kept here."""
    home = HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    record = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = record
    return record
