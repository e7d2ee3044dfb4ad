"""`orkestra agents …`: levels 2 and 3 — which agents exist, and what does one do?"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from orkestra.cli.inspect_common import FormatOption, LimitOption, RootOption, show_record, show_rows
from orkestra.cli.output import Format, run

app = typer.Typer(help="List, search and inspect agents.", no_args_is_help=True, rich_markup_mode=None)

COLUMNS = ("name", "category", "model", "skills", "description")


@app.command("list")
def list_agents(
    category: Annotated[Optional[str], typer.Option(help="Only agents of this category.")] = None,
    model: Annotated[Optional[str], typer.Option(help="Only agents preferring this model.")] = None,
    scope: Annotated[Optional[str], typer.Option(help="Only agents declaring this scope.")] = None,
    root: RootOption = None,
    fmt: FormatOption = Format.json,
) -> None:
    """List agents, sorted by name: {"count", "agents": [...]}.

    \b
    Example:
      orkestra agents list | jq '.agents[] | select(.model=="opus") | .name'
      orkestra agents list --scope database --format table
    """

    def action() -> None:
        from orkestra.inspect import api

        show_rows(api.list_agents(root, category, model, scope), fmt, "agents", COLUMNS)

    run(action)


@app.command("search")
def search_agents(
    query: Annotated[str, typer.Argument(metavar="QUERY", help="Words to look for.")],
    limit: LimitOption = None,
    root: RootOption = None,
    fmt: FormatOption = Format.json,
) -> None:
    """Search agents, best match first: {"query", "count", "agents": [... "score"]}.

    \b
    Example:
      orkestra agents search "database" | jq -r '.agents[0].name'
    """

    def action() -> None:
        from orkestra.inspect import api

        show_rows(api.search_agents(root, query, limit), fmt, "agents", ("name", "score", *COLUMNS[1:]))

    run(action)


@app.command("info")
def agent_info(
    name: Annotated[str, typer.Argument(metavar="NAME", help="Agent name, e.g. architecture-advisor.")],
    root: RootOption = None,
    fmt: FormatOption = Format.json,
) -> None:
    """Everything about one agent: persona, domains, scopes, resolved skills (and why), tools.

    An unknown name exits 1 with "did you mean ...".

    \b
    Example:
      orkestra agents info architecture-advisor | jq '.skills[] | {name, reason, via}'
    """

    def action() -> None:
        from orkestra.inspect import api

        show_record(api.agent_info(root, name), fmt, f"agent {name}")

    run(action)
