"""A use of a name before resolution, and the edge it resolves to."""

from __future__ import annotations

from dataclasses import dataclass


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
