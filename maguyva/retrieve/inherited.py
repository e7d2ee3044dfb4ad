"""Inherited members: ``Class.member`` defined on one of the class's in-repository bases.

``Flask.register_blueprint`` is written on ``App``, Flask's base: a lookup by qualified name finds
nothing, so the class's ``inherits`` edges are walked (nearest base first, breadth-first, cycle
safe) until a base defines the member. Pure reads over the store.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from maguyva.index.resolve import LINKED

if TYPE_CHECKING:
    from maguyva.models import Symbol
    from maguyva.store.base import Store

CLASSES = frozenset({"class", "interface", "struct", "trait"})
MAX_BASES = 50


def find(store: Store, name: str, *, kind: str | None = None, limit: int = 20) -> list[tuple[Symbol, Symbol]]:
    """(member, the class it was asked on) for ``Class.member`` / ``pkg.mod.Class.member`` found on a base."""
    dotted = name.replace("::", ".")
    if "." not in dotted:
        return []
    owner, member = dotted.rsplit(".", 1)
    found: list[tuple[Symbol, Symbol]] = []
    for cls in _classes(store, owner):
        for base in bases(store, cls):
            hits = [
                s
                for s in store.symbols_in(base.path)
                if s.parent == base.qualified_name and s.name == member and (kind is None or s.kind == kind)
            ]
            if hits:
                found += [(hit, cls) for hit in hits]
                break
        if len(found) >= limit:
            break
    return found[:limit]


def bases(store: Store, cls: Symbol) -> list[Symbol]:
    """In-repository bases of ``cls``, nearest first (breadth-first over ``inherits`` edges)."""
    seen = {(cls.path, cls.qualified_name)}
    queue = deque([cls])
    ordered: list[Symbol] = []
    while queue and len(ordered) < MAX_BASES:
        current = queue.popleft()
        for edge in store.edges_out(current.path, current.qualified_name):
            if edge.kind != "inherits" or edge.resolution not in LINKED or not edge.dst_path:
                continue
            key = (edge.dst_path, edge.dst_symbol)
            if key in seen:
                continue
            seen.add(key)
            base = next(
                (s for s in store.symbols_in(edge.dst_path) if s.qualified_name == edge.dst_symbol), None
            )
            if base is not None:
                ordered.append(base)
                queue.append(base)
    return ordered


def _classes(store: Store, owner: str) -> list[Symbol]:
    found = [s for s in store.find_symbols(owner, qualified=True) if s.kind in CLASSES]
    if not found:
        tail = owner.rsplit(".", 1)[-1]
        found = [
            s
            for s in store.find_symbols(tail)
            if s.kind in CLASSES
            and (s.qualified_name == owner or s.qualified_name.endswith("." + owner) or owner == tail)
        ]
    return found
