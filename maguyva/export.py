"""The call graph as JSON for other tools: nodes (definitions and modules) and edges, streamed.

``{"nodes": [{"name": "pkg.mod.Class.method", "kind": "method", "location": "pkg/mod.py:12"}, …],
"edges": [{"kind": "calls", "resolution": "resolved", "source": "pkg.mod.f", "target":
"pkg.mod.Class.method", "site": "pkg/mod.py:40", "target_location": "pkg/mod.py:12"}, …]}``

A reference made at a file's top level (or inside a module-level variable's value) comes from the
module node. Only edges with a target (``resolved``, ``inferred``) are written unless
``include_unresolved``, which adds ``ambiguous`` and ``external`` edges (``target`` null, with
their ``reason``). Written a file at a time, so a large repository never sits in memory.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import IO

from maguyva.index.extract import module_name
from maguyva.index.resolve import LINKED
from maguyva.models import Edge, Symbol
from maguyva.store.base import Store

NODE_KINDS = frozenset(
    {"function", "method", "class", "interface", "struct", "enum", "trait", "module", "namespace", "type"}
)
_VALUES = frozenset({"variable", "constant", "field"})


def write_graph(
    store: Store, out: IO[str], *, kinds: Iterable[str] = ("calls",), include_unresolved: bool = False
) -> dict:
    """Stream the graph to ``out``; return counts ``{"nodes", "edges"}``."""
    kinds = frozenset(kinds)
    paths = sorted(store.known_paths().items())
    counts = {"nodes": 0, "edges": 0}
    out.write('{"nodes": [')
    first = True
    for path, language in paths:
        if not language or language == "markdown":
            continue
        rows = [{"name": module_name(path, language), "kind": "module", "location": f"{path}:1"}]
        rows += [
            {"name": s.qualified_name, "kind": s.kind, "location": f"{s.path}:{s.line}"}
            for s in store.symbols_in(path)
            if s.kind in NODE_KINDS
        ]
        for row in rows:
            out.write(("" if first else ",") + "\n" + json.dumps(row))
            first = False
            counts["nodes"] += 1
    out.write('\n], "edges": [')
    first = True
    for path, language in paths:
        if not language or language == "markdown":
            continue
        symbols = {s.qualified_name: s for s in store.symbols_in(path)}
        module = module_name(path, language)
        for edge in store.edges_out(path):
            if edge.kind not in kinds or (edge.resolution not in LINKED and not include_unresolved):
                continue
            out.write(("" if first else ",") + "\n" + json.dumps(_edge_row(edge, symbols, module)))
            first = False
            counts["edges"] += 1
    out.write("\n]}\n")
    return counts


def caller(edge: Edge, symbols: dict[str, Symbol], module: str) -> str:
    """The node an edge comes from: its enclosing definition, skipping variables; else the module."""
    name = edge.src_symbol
    while name and name in symbols and symbols[name].kind in _VALUES:
        name = symbols[name].parent
    return name or module


def _edge_row(edge: Edge, symbols: dict[str, Symbol], module: str) -> dict:
    row = {
        "kind": edge.kind,
        "resolution": edge.resolution,
        "source": caller(edge, symbols, module),
        "target": edge.dst_symbol,
        "site": f"{edge.src_path}:{edge.src_line}",
        "target_location": f"{edge.dst_path}:{edge.dst_line}" if edge.dst_path else None,
    }
    if edge.resolution not in LINKED:
        row["name"] = edge.name
        row["reason"] = edge.reason
    return row
