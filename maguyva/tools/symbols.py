"""Answers about symbols and their edges over one repository's store: ``find_symbol``,
``find_references``, ``analyze_dependencies``.

``find_symbol_json`` builds ``find_symbol``'s JSON without the answer model (``maguyva symbol`` prints
it without importing pydantic; tests/maguyva/test_answer_json.py checks it is the model's JSON).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from maguyva.answer_json import bound, hit_dict
from maguyva.errors import MaguyvaError
from maguyva.retrieve import structure
from maguyva.retrieve.hits import Hit

if TYPE_CHECKING:
    from maguyva.answers import DependenciesAnswer, ReferencesAnswer
    from maguyva.store.base import Store

DIRECTIONS = ("callers", "callees", "both", "impact")


def find_symbol_json(
    store: Store, symbol_name: str, *, kind: str | None, find_similar: bool, exact_match: bool, limit: int
) -> dict:
    """``find_symbol``'s answer as its JSON: exact by default, similar names only with ``find_similar``."""
    found = structure.find(store, symbol_name, kind=kind, limit=limit)
    if exact_match:
        found = [s for s in found if symbol_name in (s.name, s.qualified_name)]
    fuzzy = False
    if not found and find_similar and not exact_match:
        found = structure.similar(store, symbol_name, kind=kind, limit=limit)
        fuzzy = bool(found)
    symbols = [
        hit_dict(
            structure.symbol_hit(s, 1.0),
            qualified_name=s.qualified_name,
            signature=s.signature,
            doc=s.doc,
        )
        for s in found
    ]
    if found and not fuzzy and "." in symbol_name:
        from maguyva.retrieve import inherited

        origin = {(m.path, m.qualified_name): cls for m, cls in inherited.find(store, symbol_name, kind=kind)}
        for entry in symbols:
            cls = origin.get((entry["path"], entry["qualified_name"]))
            if cls is not None:  # asked on a subclass, defined on a base
                entry["inherited_by"] = cls.qualified_name
                entry["inherited_from"] = entry["qualified_name"].rsplit(".", 1)[0]
    return {
        "symbol_name": symbol_name,
        "match": "similar" if fuzzy else "exact",
        "count": len(symbols),
        "symbols": symbols,
    }


def find_references(
    store: Store, symbol_name: str, *, limit: int, include_possible: bool, max_tokens: int
) -> ReferencesAnswer:
    """Every in-repo reference to a symbol at the use site, each with its ``resolution``."""
    from maguyva.answers import ReferencesAnswer
    from maguyva.retrieve import graph

    targets = graph.resolve_targets(store, symbol_name)
    refs = []
    for target in targets:
        refs += [
            edge_hit(e, target=target.symbol or target.path)
            for e in graph.incoming(store, target, limit, possible=include_possible)
        ]
    answer = ReferencesAnswer(
        symbol_name=symbol_name,
        definitions=[f"{t.path}:{t.line}" for t in targets],
        count=len(refs),
        references=refs[:limit],
    )
    return bound(answer, "references", max_tokens)


def analyze_dependencies(
    store: Store,
    target: str,
    *,
    direction: str,
    depth: int,
    limit: int,
    include_ambiguous: bool,
    max_tokens: int,
) -> DependenciesAnswer:
    """Callers, callees, or the impact (blast radius to ``depth``) of a path or a symbol."""
    from maguyva.answers import DependenciesAnswer
    from maguyva.retrieve import graph

    if direction not in DIRECTIONS:
        raise MaguyvaError(f"unknown direction {direction!r} (callers, callees, both, impact)")
    targets = graph.resolve_targets(store, target)
    if not targets:
        raise MaguyvaError(
            f"{target!r} is neither an indexed path nor a known symbol; try find_symbol with find_similar=true"
        )
    entries: list[dict] = []
    for node in targets:
        if direction in ("callers", "both"):
            entries += [
                edge_hit(e, relation="caller")
                for e in graph.incoming(store, node, limit, possible=include_ambiguous)
            ]
        if direction in ("callees", "both"):
            entries += [
                hit_dict(h, relation="callee", resolution=e.resolution)
                for h, e in graph.callee_edges(store, node, limit)
            ]
            entries += [
                {
                    "relation": "ambiguous" if e.resolution == "ambiguous" else "external",
                    "name": e.name,
                    "kind": e.kind,
                    "citation": f"{e.src_path}:{e.src_line}",
                    "resolution": e.resolution,
                    "reason": e.reason,
                }
                for e in graph.external_callees(store, node)[:limit]
                if include_ambiguous or e.resolution != "ambiguous"
            ]
        if direction == "impact":
            entries += [
                {
                    "relation": "impacted",
                    "citation": f"{item.path}:{item.line}",
                    "path": item.path,
                    "line": item.line,
                    "symbol": item.symbol,
                    "depth": item.depth,
                    "via": item.via,
                }
                for item in graph.impact(store, node, depth=depth, limit=limit)
            ]
    impact = {"files_affected": len({e["path"] for e in entries})} if direction == "impact" else {}
    answer = DependenciesAnswer(
        target=target,
        resolved=[f"{t.path}:{t.line}" for t in targets],
        direction=direction,
        count=len(entries),
        entries=entries,
        **impact,
    )
    return bound(answer, "entries", max_tokens)


def edge_hit(edge: Any, **extra: Any) -> dict:
    """A reference site (the edge's source) with the edge's resolution; ambiguous ones are ``possible``."""
    row = hit_dict(Hit.at_edge_source(edge), **extra, resolution=edge.resolution)
    if edge.resolution == "ambiguous":
        row["possible"] = True
        row["reason"] = edge.reason
    return row
