"""A definition found in a file."""

from __future__ import annotations

from dataclasses import dataclass


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
