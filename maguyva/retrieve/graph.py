"""Graph retrieval: callers, callees and impact (blast radius) over resolved edges."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from maguyva.retrieve import structure
from maguyva.retrieve.hits import Hit

LINKED = frozenset({"resolved", "inferred"})  # resolutions with a target (maguyva.index.resolve.LINKED)

if TYPE_CHECKING:
    from maguyva.models import Edge
    from maguyva.retrieve.query import ParsedQuery
    from maguyva.store.base import Store


@dataclass(frozen=True, slots=True)
class Target:
    """What a graph question is about: a whole file, or one symbol in it."""

    path: str
    symbol: str | None
    line: int
    kind: str


def resolve_targets(store: Store, target: str, limit: int = 10) -> list[Target]:
    """A repo path → that file; otherwise symbols with that (qualified) name, exact."""
    clean = target.strip().strip("`'\"").rstrip(".:,;?").lstrip("./")
    if store.file_record(clean) is not None:
        return [Target(clean, None, 1, "file")]
    found = [
        Target(s.path, s.qualified_name, s.line, s.kind) for s in structure.find(store, clean, limit=limit)
    ]
    return found or [Target(path, None, 1, "file") for path in module_files(store, clean)]


def module_files(store: Store, name: str) -> list[str]:
    """The file a module name or a path suffix denotes (``flask.globals`` → ``src/flask/globals.py``), if one."""
    from maguyva.retrieve.query import module_paths

    candidates = (
        [name]
        if "/" in name
        or re.search(
            r"\.(py|pyi|js|jsx|mjs|cjs|ts|tsx|go|rs|java|kt|rb|php|c|h|cc|cpp|hpp|cs|scala|swift)$", name
        )
        else module_paths(name)[:2]
        if name.replace(".", "").replace("_", "").isalnum()
        else []
    )
    known = store.known_paths()
    for candidate in candidates:
        if candidate in known:
            return [candidate]
        matched = sorted(p for p in known if p.endswith("/" + candidate))
        if len(matched) == 1:
            return matched
    return []


_KIND_ORDER = {"calls": 0, "inherits": 1, "references": 2, "imports": 3}
# where a use stands: the package's own code first, then examples, docs and benchmarks, tests last
_PLACE_ORDER = {
    None: 0,
    "vendored": 1,
    "rendered": 1,
    "example": 2,
    "docs": 2,
    "ci": 2,
    "changelog": 2,
    "test": 3,
}


def place_order(path: str) -> int:
    """0 for the repository's own code, 2 for examples and docs, 3 for tests (by path alone)."""
    from maguyva.retrieve.rank import file_kind  # the file kinds the ranker demotes

    return _PLACE_ORDER.get(file_kind(path, (), "code"), 2)


def _incoming(store: Store, target: Target) -> list[Edge]:
    """Resolved edges into ``target``: calls first, imports last; source before examples and tests."""
    edges = store.edges_in(target.path, target.symbol) if target.symbol else store.edges_in(target.path)
    resolved = [e for e in edges if e.resolution in LINKED]
    return sorted(
        resolved, key=lambda e: (_KIND_ORDER.get(e.kind, 9), place_order(e.src_path), e.src_path, e.src_line)
    )


def incoming(store: Store, target: Target, limit: int = 50, *, possible: bool = False) -> list[Edge]:
    """Edges into ``target`` (each carries its resolution); with ``possible``, also the ``ambiguous``
    calls of its name that no receiver type settled (one of their candidates is ``target``)."""
    edges = _incoming(store, target)[:limit]
    if possible and target.symbol and len(edges) < limit:
        name = target.symbol.rsplit(".", 1)[-1]
        edges += [e for e in store.edges_named([name]) if e.resolution == "ambiguous" and e.kind == "calls"][
            : limit - len(edges)
        ]
    return edges


def callers(store: Store, target: Target, limit: int = 50) -> list[Hit]:
    """Every place that calls, imports, inherits from or references ``target`` (the reference site)."""
    return [Hit.at_edge_source(edge) for edge in _incoming(store, target)[:limit]]


def callees(store: Store, target: Target, limit: int = 50) -> list[Hit]:
    """What ``target`` depends on, at the definitions (resolved) — externals are reported by name."""
    edges = store.edges_out(target.path, target.symbol) if target.symbol else store.edges_out(target.path)
    hits = []
    for edge in edges[:limit]:
        if edge.resolution in LINKED and edge.dst_path:
            hits.append(
                Hit(
                    edge.dst_path,
                    edge.dst_line or 1,
                    edge.dst_line or 1,
                    edge.dst_symbol,
                    edge.kind,
                    f"{edge.kind} {edge.name} (from {edge.src_path}:{edge.src_line})",
                    1.0,
                    "graph",
                )
            )
    return hits


def callee_edges(store: Store, target: Target, limit: int = 50) -> list[tuple[Hit, Edge]]:
    """``callees`` with the edge each hit came from (for its resolution)."""
    edges = store.edges_out(target.path, target.symbol) if target.symbol else store.edges_out(target.path)
    return [
        (
            Hit(
                e.dst_path,
                e.dst_line or 1,
                e.dst_line or 1,
                e.dst_symbol,
                e.kind,
                f"{e.kind} {e.name} (from {e.src_path}:{e.src_line})",
                1.0,
                "graph",
            ),
            e,
        )
        for e in edges[:limit]
        if e.resolution in LINKED and e.dst_path
    ]


def external_callees(store: Store, target: Target) -> list[Edge]:
    edges = store.edges_out(target.path, target.symbol) if target.symbol else store.edges_out(target.path)
    return [e for e in edges if e.resolution not in LINKED]


@dataclass(frozen=True, slots=True)
class Impacted:
    path: str
    line: int
    symbol: str | None
    depth: int
    via: str  # the edge kind that reached it


def impact(store: Store, target: Target, depth: int = 2, limit: int = 200) -> list[Impacted]:
    """Breadth-first over reverse edges: what would be affected by changing ``target``, nearest first."""
    seen: set[tuple[str, str | None]] = {(target.path, target.symbol)}
    frontier: deque[tuple[Target, int]] = deque([(target, 0)])
    found: list[Impacted] = []
    while frontier and len(found) < limit:
        node, level = frontier.popleft()
        if level >= depth:
            continue
        for edge in _incoming(store, node):
            key = (edge.src_path, edge.src_symbol)
            if key in seen:
                continue
            seen.add(key)
            found.append(Impacted(edge.src_path, edge.src_line, edge.src_symbol, level + 1, edge.kind))
            frontier.append((Target(edge.src_path, edge.src_symbol, edge.src_line, "symbol"), level + 1))
    found.sort(key=lambda i: (i.depth, place_order(i.path), i.path, i.line))
    return found[:limit]


def total(store: Store, terms: Sequence[str]) -> tuple[int, str] | None:
    """How many definitions or files in all use a reference or impact question's first resolvable term
    directly (and the term): one read of the edges into it, whatever the answer's limit."""
    for term in terms:
        targets = resolve_targets(store, term, limit=5)
        if targets:
            users = {(e.src_path, e.src_symbol) for t in targets for e in _incoming(store, t)}
            return len(users), term
    return None


@dataclass(frozen=True, slots=True)
class GraphRetriever:
    """The graph modality: callers for reference questions, blast radius for impact, else neighbours.

    Callers and dependents of every target the query's terms name are listed together, the repository's
    own code first, then examples and docs, tests last (a stable sort: each keeps its own order)."""

    store: Store
    intent: str  # the question's intent name (maguyva.retrieve.intent.INTENTS)
    modality: ClassVar[str] = "graph"

    def retrieve(self, query: ParsedQuery, limit: int) -> list[Hit]:
        return _search(self.store, self.intent, query.terms, limit)


def _search(store: Store, intent: str, terms: Sequence[str], limit: int) -> list[Hit]:
    hits: list[Hit] = []
    for term in terms:
        for target in resolve_targets(store, term, limit=5):
            if intent == "impact_analysis":
                hits += [
                    Hit(
                        i.path,
                        i.line,
                        i.line,
                        i.symbol,
                        i.via,
                        f"depth {i.depth} via {i.via}",
                        1.0 / i.depth,
                        "graph",
                    )
                    for i in impact(store, target, depth=2, limit=limit)
                ]
            elif intent == "find_references":
                hits += callers(store, target, limit=limit)
            else:
                hits.append(
                    Hit(
                        target.path,
                        target.line,
                        target.line,
                        target.symbol,
                        target.kind,
                        target.symbol or target.path,
                        1.0,
                        "graph",
                    )
                )
                hits += callers(store, target, limit=limit // 2)
                hits += callees(store, target, limit=limit // 2)
    if intent in ("find_references", "impact_analysis"):
        hits.sort(key=lambda h: place_order(h.path))
    unique: dict[tuple, Hit] = {}  # two targets, one use: listed once, where it first stands
    for hit in hits:
        unique.setdefault((hit.path, hit.line, hit.symbol), hit)
    return list(unique.values())[:limit]
