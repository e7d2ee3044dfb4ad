"""`orkestra code graph`: export the index's call graph as JSON for other tools."""

from __future__ import annotations

import sys
from enum import Enum
from typing import Annotated, List, Optional

import typer

from orkestra.cli.output import run


class GraphFormat(str, Enum):
    json = "json"


def mount(app: typer.Typer) -> None:
    """Register ``graph`` on the ``code`` group."""
    app.command("graph")(graph)


def graph(
    path: Annotated[str, typer.Argument(metavar="PATH", help="Indexed repository.")] = ".",
    store: Annotated[Optional[str], typer.Option("--store", help="Index file or postgresql://… URL "
                                                 "(default as for `code index`).")] = None,
    fmt: Annotated[GraphFormat, typer.Option("--format", help="json (the only format).")] = GraphFormat.json,
    kind: Annotated[Optional[List[str]], typer.Option(
        "--kind", help="Edge kinds to write (repeatable): calls (default), imports, inherits, references.")] = None,
    include_unresolved: Annotated[bool, typer.Option(
        "--include-unresolved", help="Also write ambiguous and external edges (target null, with a reason).")] = False,
    output: Annotated[Optional[str], typer.Option("--output", "-o", help="Write to this file instead of stdout.")] = None,
) -> None:
    """Stream the call graph as one JSON document: nodes, then edges.

    JSON: {"nodes": [{"name": qualified name (pkg.module.Class.method), "kind", "location": "path:line"}],
    "edges": [{"kind", "resolution": resolved|inferred (|ambiguous|external with --include-unresolved),
    "source": qualified name of the caller (the module for top-level code), "target",
    "site": "path:line" of the call, "target_location": "path:line"}]}. Exit 1 when there is no index.

    \b
    Example:
      orkestra code graph --format json > graph.json
      orkestra code graph --kind calls --kind inherits -o graph.json
    """

    def action() -> None:
        from pathlib import Path

        from maguyva.errors import MaguyvaError
        from maguyva.export import write_graph
        from maguyva.store import open_store
        from maguyva.store.location import store_path

        location = store_path(Path(path).resolve(), store)
        if isinstance(location, Path) and not location.exists():
            raise MaguyvaError(f"no index at {location}: run `orkestra code index` first")
        index = open_store(location, readonly=True)
        try:
            kinds = kind or ["calls"]
            if output:
                with open(output, "w", encoding="utf-8") as out:
                    write_graph(index, out, kinds=kinds, include_unresolved=include_unresolved)
            else:
                write_graph(index, sys.stdout, kinds=kinds, include_unresolved=include_unresolved)
        finally:
            index.close()

    run(action)
