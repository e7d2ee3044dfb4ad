"""`orkestra decisions …` (also `orkestra registry decisions …`): level 4 — why does it work this way?"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from orkestra.cli.inspect_common import FormatOption, LimitOption, RootOption, show_record, show_rows
from orkestra.cli.output import Format, emit_json, fail, run

app = typer.Typer(help="Architectural decisions: list, search, inspect, start a new one.",
                  no_args_is_help=True, rich_markup_mode=None)

COLUMNS = ("id", "title", "domain", "status", "created")


@app.command("list")
def list_decisions(
    limit: LimitOption = None,
    domain: Annotated[Optional[str], typer.Option(help="Only this domain (e.g. pipeline).")] = None,
    status: Annotated[Optional[str], typer.Option(help="Only proposed, active, superseded...")] = None,
    root: RootOption = None,
    fmt: FormatOption = Format.json,
) -> None:
    """List decisions, newest first: {"count", "total", "decisions": [...]}.

    \b
    Example:
      orkestra registry decisions list --limit 15 --format table
      orkestra decisions list --domain pipeline | jq -r '.decisions[].id'
    """

    def action() -> None:
        from orkestra.inspect import api

        show_rows(api.list_decisions(root, limit, domain, status), fmt, "decisions", COLUMNS)

    run(action)


@app.command("search")
def search_decisions(
    query: Annotated[Optional[str], typer.Argument(metavar="QUERY", help="Words to look for.")] = None,
    query_option: Annotated[Optional[str], typer.Option("--query", "-q", help="QUERY as an option.")] = None,
    limit: LimitOption = None,
    root: RootOption = None,
    fmt: FormatOption = Format.json,
) -> None:
    """Search decisions (id, title, summary, tags...): {"query", "count", "decisions": [... "score"]}.

    \b
    Example:
      orkestra registry decisions search --query retry
      orkestra decisions search "agent" | jq -r '.decisions[0].id'
    """
    text = query or query_option
    if not text:
        fail("give a QUERY (or --query TEXT)", 2)

    def action() -> None:
        from orkestra.inspect import api

        show_rows(api.search_decisions(root, text, limit), fmt, "decisions", ("id", "score", *COLUMNS[1:]))

    run(action)


@app.command("info")
def decision_info(
    decision_id: Annotated[str, typer.Argument(metavar="ID", help="Decision id, e.g. DEC-SR-049.")],
    root: RootOption = None,
    fmt: FormatOption = Format.json,
) -> None:
    """The full decision record. An unknown id exits 1 with "did you mean ...".

    \b
    Example:
      orkestra registry decisions info DEC-PL-142 | jq '.agent_guidance'
    """

    def action() -> None:
        from orkestra.inspect import api

        show_record(api.decision_info(root, decision_id), fmt, decision_id)

    run(action)


@app.command("new")
def new_decision(
    domain: Annotated[str, typer.Option(help="Domain name (pipeline) or code (PL), per registry.yaml.")],
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Only print the next free id.")] = False,
    root: RootOption = None,
) -> None:
    """Next free decision id in a domain; without --dry-run, write a skeleton record and print its path.

    Prints {"id", "domain", "path", "written"}.

    \b
    Example:
      orkestra registry decisions new --domain pipeline --dry-run   # {"id": "DEC-PL-143", ...}
    """

    def action() -> None:
        from orkestra.inspect import api

        emit_json(api.new_decision(root, domain, dry_run))

    run(action)
