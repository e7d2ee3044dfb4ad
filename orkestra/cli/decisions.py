"""`orkestra decisions …` (also `orkestra registry decisions …`): level 4 — why does it work this way?"""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.inspect_common import Entity, info_command, list_rows
from orkestra.cli.options import FormatOption, LimitOption, RepoOption, group
from orkestra.cli.output import fail, run, show_record

app = group("Architectural decisions: list, search, inspect, add.")

COLUMNS = ("id", "title", "domain", "status", "created")
DECISIONS = Entity("decisions", "decision", "ID", "DEC-PL-142", COLUMNS)


def list_decisions(
    limit: LimitOption = None,
    domain: Annotated[str | None, typer.Option(help="Only this domain (e.g. pipeline).")] = None,
    status: Annotated[str | None, typer.Option(help="Only proposed, active, superseded...")] = None,
    repo: RepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """List decisions, newest first.

    JSON: {"count", "total", "decisions": [...]}.

    \b
    Example:
      orkestra decisions list --limit 15
      orkestra decisions list --domain pipeline | jq -r '.decisions[].id'
    """
    list_rows(
        lambda api: api.list_decisions(repo, limit, domain, status), fmt, "decisions", DECISIONS.columns
    )


decision_info = info_command(DECISIONS, "The full decision record.", ".agent_guidance")


def search_decisions(
    query: Annotated[str | None, typer.Argument(metavar="QUERY", help="Words to look for.")] = None,
    query_option: Annotated[str | None, typer.Option("--query", "-q", help="QUERY as an option.")] = None,
    limit: LimitOption = None,
    repo: RepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Search decisions by id, title, summary and tags, best match first.

    JSON: {"query", "count", "decisions": [... "score"]}.

    \b
    Example:
      orkestra decisions search --query retry
      orkestra decisions search "agent" | jq -r '.decisions[0].id'
    """
    text = query or query_option
    if not text:
        fail("give a QUERY (or --query TEXT)", 2)
    list_rows(lambda api: api.search_decisions(repo, text, limit), fmt, "decisions", DECISIONS.scored_columns)


def new_decision(
    domain: Annotated[str, typer.Option(help="Domain name (pipeline) or code (PL), per registry.yaml.")],
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Only print the next free id.")] = False,
    repo: RepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Start a decision: its id, and a skeleton record unless --dry-run.

    JSON: {"id", "domain", "path", "written"}. An unknown domain exits 1 with "did you mean ...".

    \b
    Example:
      orkestra decisions new --domain pipeline --dry-run   # id DEC-PL-143
    """

    def action() -> None:
        from orkestra.inspect import api

        show_record(api.new_decision(repo, domain, dry_run), fmt, "new decision")

    run(action)


app.command("list")(list_decisions)
app.command("info")(decision_info)
app.command("search")(search_decisions)
app.command("new")(new_decision)
app.command("show", hidden=True)(decision_info)  # the spelling other tools use
