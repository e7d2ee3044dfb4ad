"""`orkestra search`: one ranked search across agents, skills, decisions, truths and packages."""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer

from orkestra.cli.options import Format, FormatOption, LimitOption, RepoOption, pick_format
from orkestra.cli.output import emit_json, emit_lines, emit_table, run, show_rows


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
    kind: Annotated[list[Kind] | None, typer.Option("--kind", help="Only this kind (repeatable).")] = None,
    repo: RepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Search every registry at once, best match first.

    JSON: {"query", "total", "hits": [{kind, id, title, score, matched_terms, exact}]}.
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
        data = api.search(repo, query, kinds, limit, summary)
        chosen = pick_format(fmt, Format.table)
        if summary and chosen is Format.table:
            title = f"search {query!r}: {data['total']} hits"
            emit_table(title, ("kind", "hits"), list(data["counts"].items()))
        elif summary and chosen is Format.text:
            emit_lines([f"{kind}\t{hits}" for kind, hits in data["counts"].items()])
        elif summary:
            emit_json(data)
        else:
            show_rows(data, chosen, "hits", ("kind", "id", "score", "title"))

    run(action)
