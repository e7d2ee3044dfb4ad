"""Records shared by every Maguyva stage: scan → parse → extract → resolve → store → retrieve.

All are frozen, slotted dataclasses; lines are 1-based, columns 0-based (tree-sitter points).
"""

from __future__ import annotations

from dataclasses import dataclass, field

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


@dataclass(frozen=True, slots=True)
class FileRecord:
    """One scanned file."""

    path: str  # repo-relative POSIX path
    language: str | None  # tree-sitter language name, "markdown", or None for plain text
    size: int
    content_hash: str  # sha1 of the bytes
    flags: tuple[str, ...] = ()  # "vendor", "build", "generated", "archive", "test"


@dataclass(frozen=True, slots=True)
class Symbol:
    """A definition found in a file."""

    path: str
    name: str
    qualified_name: str  # container-qualified, "." separated: "pkg.module.Class.method"
    kind: str  # one of DEF_KINDS
    line: int
    end_line: int
    col: int = 0
    signature: str = ""  # the declaration line(s) up to the body, whitespace-collapsed
    doc: str = ""  # docstring / leading comment, first paragraph
    parent: str | None = None  # qualified name of the enclosing definition


@dataclass(frozen=True, slots=True)
class Reference:
    """A use of a name in a file, before resolution."""

    path: str
    name: str  # the referenced name as written (last segment for dotted names)
    kind: str  # one of REF_KINDS
    line: int
    col: int = 0
    qualifier: str = ""  # receiver / module prefix as written ("os.path", "self", "pkg")
    scope: str | None = None  # qualified name of the enclosing definition (the edge's source)
    module: str = ""  # for imports: the module/path string as written ("./util", "a.b")
    alias: str = (
        ""  # for imports: the local name bound by "as"/"import x from" ("np" in "import numpy as np")
    )


@dataclass(frozen=True, slots=True)
class Edge:
    """A resolved (or deliberately unresolved) dependency between two places."""

    kind: str  # calls | imports | inherits | references
    src_path: str
    src_line: int
    src_symbol: str | None  # qualified name of the enclosing definition, None at module level
    dst_path: str | None  # None when external/unresolved
    dst_line: int | None
    dst_symbol: str | None
    name: str  # the name as referenced
    resolution: str = "resolved"  # resolved | inferred | external | ambiguous | unresolved
    reason: str = ""  # why it is not resolved ("no definition in repo", "3 candidates", …)
    src_col: int = 0  # column of the reference; (src_path, src_line, src_col, kind, name) identifies it


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
