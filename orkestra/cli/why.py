"""`orkestra why`: the decisions, ground truths and changelog entries behind a path, line or symbol."""

from __future__ import annotations

from typing import Annotated

import typer

from maguyva.controls import visible
from orkestra.cli.options import Format, FormatOption, RepoOption, pick_format
from orkestra.cli.output import emit_json, emit_table, run


def command(
    target: Annotated[
        str,
        typer.Argument(
            metavar="TARGET",
            help="path, path:line, path:start-end, path::Symbol or a symbol name (needs a Maguyva index).",
        ),
    ],
    limit: Annotated[int, typer.Option("--limit", min=1, max=200, help="At most this many results.")] = 20,
    max_tokens: Annotated[
        int,
        typer.Option(
            "--max-tokens", min=200, max=25_000, help="Cut the JSON answer to about this many tokens."
        ),
    ] = 4_000,
    no_index: Annotated[
        bool, typer.Option("--no-index", help="Never open Maguyva's index (paths only).")
    ] = False,
    repo: RepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """The decisions, truths and changes behind a path or symbol.

    Decisions, ground truths and changelog entries, ranked and cited. On a terminal: a report
    (text) or one row per result (table). JSON: {"target", "via": "path"|"line"|"symbol", "path", "lines"?, "symbol"?, "former_names", "count",
    "results": [{"kind": "decision"|"truth"|"changelog", "id", "citation", "title", "status",
    "match": "direct"|"history", "date", "do", "avoid", "commits", …}], "commits": [{"sha", "date", "subject", "pr"?}],
    "commit_count", "pull_requests", "blame"? (line and symbol targets), "notes"}. Always lists the
    commits and pull requests that shaped the target, renames followed.
    Ranked direct before history, active before superseded, newest first. Exit 1 for an unknown target.

    \b
    Example:
      orkestra why maguyva/retrieve/fuse.py
      orkestra why maguyva/retrieve/fuse.py --format table
      orkestra why orkestra/render/outputs.py:60-75
      orkestra why Workspace.load | jq -r '.results[].citation'
    """

    def action() -> None:
        import sys

        from orkestra.why.answer import format_why, why

        answer = why(repo, target, limit=limit, max_tokens=max_tokens, index_lookup=not no_index)
        chosen = pick_format(fmt, Format.text)
        if chosen is Format.text:
            sys.stdout.write(visible(format_why(answer)))
        elif chosen is Format.table:
            emit_table(
                f"why {target} ({answer['count']})",
                ("citation", "kind", "status", "date", "title"),
                [[r["citation"], r["kind"], r["status"], r["date"], r["title"]] for r in answer["results"]],
            )
        else:
            emit_json(answer)

    run(action)
