"""What resolution builds and weighs: a reference's edge (to a definition, to a file, or unresolved
with a reason), the candidate definitions a name may mean, where a definition is (the sort key
every choice among values goes by), the words that name a receiver and the language families.
Shared by ``maguyva.index.resolve`` and its parts (``resolve_imports``, ``resolve_calls``)."""

from __future__ import annotations

import posixpath
from functools import lru_cache

from maguyva.index.transport import new_edge
from maguyva.models import EDGE_KIND, Edge, Reference, Symbol

SELF_QUALIFIERS = frozenset({"self", "this", "cls", "@", "$this", "Self"})
SUPER_QUALIFIERS = frozenset({"super", "super()", "base", "parent"})
FAMILY = {"javascript": "js", "typescript": "js", "tsx": "js"}  # languages resolved as one


class Candidates:
    """Definitions one name may refer to, with the per-directory narrowing and the ambiguity
    reason computed once (common names such as ``get`` have hundreds of candidates)."""

    __slots__ = ("_families", "_near", "_reason", "symbols")

    def __init__(self, symbols: tuple[Symbol, ...]):
        self.symbols = symbols
        self._near: dict[str, list[Symbol]] = {}
        self._families: dict[str | None, Candidates] = {}
        self._reason = ""

    def of_family(self, family: str | None, family_of) -> Candidates:
        """The candidates whose file is of language ``family`` (``family_of(path)``), in order."""
        found = self._families.get(family)
        if found is None:
            found = self._families[family] = Candidates(
                tuple(s for s in self.symbols if family_of(s.path) == family)
            )
        return found

    def near(self, directory: str) -> list[Symbol]:
        if directory not in self._near:
            self._near[directory] = [s for s in self.symbols if dirname(s.path) == directory]
        return self._near[directory]

    def reason(self) -> str:
        if not self._reason:
            where = ", ".join(sorted({f"{s.path}:{s.line}" for s in self.symbols})[:5])
            self._reason = f"{len(self.symbols)} candidates: {where}"
        return self._reason


@lru_cache(maxsize=65536)
def dirname(path: str) -> str:
    return posixpath.dirname(path)


def to_symbol(ref: Reference, symbol: Symbol, resolution: str = "resolved") -> Edge:
    return edge_to(ref, symbol.path, symbol.line, symbol.qualified_name, resolution)


def edge_to(
    ref: Reference, dst_path: str, dst_line: int, dst_symbol: str, resolution: str = "resolved"
) -> Edge:
    # Edge's fields in order: kind, src_path, src_line, src_symbol, dst_path, dst_line, dst_symbol,
    # name, resolution, reason, src_col (built through its slots: ~360k edges on the stdlib)
    return new_edge(
        (
            EDGE_KIND[ref.kind],
            ref.path,
            ref.line,
            ref.scope,
            dst_path,
            dst_line,
            dst_symbol,
            ref.name,
            resolution,
            "",
            ref.col,
        )
    )


def unresolved(ref: Reference, resolution: str, reason: str) -> Edge:
    return new_edge(
        (
            EDGE_KIND[ref.kind],
            ref.path,
            ref.line,
            ref.scope,
            None,
            None,
            None,
            ref.name,
            resolution,
            reason,
            ref.col,
        )
    )


def place(symbol: Symbol) -> tuple:
    """Where a definition is, as a sort key. Sets of values order by hash, and on Python 3.11 a value
    holding None hashes by an address that changes from one process to the next: every choice among
    such values goes by this key instead, so a clean run and an incremental one pick alike."""
    return (symbol.path, symbol.line, symbol.col, symbol.qualified_name, symbol.kind)
