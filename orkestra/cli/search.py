"""`orkestra search`: one ranked search across agents, skills, decisions, truths and packages."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, List, Optional

import typer

from orkestra.cli.inspect_common import FormatOption, LimitOption, RootOption, show_rows
from orkestra.cli.output import Format, emit_json, emit_table, run


class Kind(str, Enum):
    agent = "agent"
    skill = "skill"
    decision = "decision"
    truth = "truth"
    package = "package"


def command(
    query: Annotated[str, typer.Argument(metavar="QUERY", help="Words; an exact id or name ranks first.")],
    summary: Annotated[bool, typer.Option("--summary", help="Only the number of hits per kind.")] = False,
    limit: LimitOption = None,
    kind: Annotated[Optional[List[Kind]], typer.Option("--kind", help="Only this kind (repeatable).")] = None,
    root: RootOption = None,
    fmt: FormatOption = Format.json,
) -> None:
    """Search every registry: {"query", "total", "hits": [{kind, id, title, score, matched_terms, exact}]}.

    With --summary: {"query", "total", "counts": {"agents", "skills", "decisions", "truths", "packages"}}.
    Packages are directories owning an ai_assets/ folder or a package manifest.

    \b
    Example:
      orkestra search "database" --summary
      orkestra search "retry backoff" --kind decision --limit 5 | jq -r '.hits[].id'
    """

    def action() -> None:
        from orkestra.inspect import api

        kinds = [k.value for k in kind] if kind else None
        data = api.search(root, query, kinds, limit, summary)
        if summary and fmt is Format.table:
            title = f"search {query!r}: {data['total']} hits"
            emit_table(title, ("kind", "hits"), list(data["counts"].items()))
        elif summary:
            emit_json(data)
        else:
            show_rows(data, fmt, "hits", ("kind", "id", "score", "title"))

    run(action)
