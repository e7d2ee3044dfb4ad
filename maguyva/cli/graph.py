"""``maguyva graph``: export the index's call graph as JSON for other tools."""

from __future__ import annotations

import sys
from enum import Enum
from typing import Annotated

import typer

from maguyva.cli.options import PathAlias, RepoOption, StoreOption, repo_of
from maguyva.cli.output import run


class GraphFormat(str, Enum):
    json = "json"


def graph(
    path: PathAlias = None,
    repo: RepoOption = ".",
    store: StoreOption = None,
    fmt: Annotated[GraphFormat, typer.Option("--format", help="json (the only format).")] = GraphFormat.json,
    kind: Annotated[
        list[str] | None,
        typer.Option(
            "--kind", help="Edge kinds to write (repeatable): calls (default), imports, inherits, references."
        ),
    ] = None,
    include_unresolved: Annotated[
        bool,
        typer.Option(
            "--include-unresolved",
            help="Also write ambiguous and external edges (target null, with a reason).",
        ),
    ] = False,
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Write to this file instead of stdout.")
    ] = None,
) -> None:
    """Export the call graph as JSON: nodes, then edges.

    Streams qualified names, citations and each edge's resolution (format in docs/cli.md,
    "graph"). Exit 1 when there is no index.

    \b
    Example:
      maguyva graph > graph.json
      maguyva graph --kind calls --kind inherits -o graph.json
    """

    def action() -> None:
        from pathlib import Path

        from maguyva.errors import MaguyvaError
        from maguyva.export import write_graph
        from maguyva.store import open_store
        from maguyva.store.location import store_path

        location = store_path(Path(repo_of(repo, path)).resolve(), store)
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
