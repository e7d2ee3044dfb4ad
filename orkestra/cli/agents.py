"""`orkestra agents …`: levels 2 and 3 — which agents exist, and what does one do?"""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.inspect_common import info_command, list_rows
from orkestra.cli.options import FormatOption, LimitOption, RepoOption, group

app = group("List, search and inspect agents.")

COLUMNS = ("name", "category", "model", "skills", "description")


def list_agents(
    category: Annotated[str | None, typer.Option(help="Only agents of this category.")] = None,
    model: Annotated[str | None, typer.Option(help="Only agents preferring this model.")] = None,
    scope: Annotated[str | None, typer.Option(help="Only agents declaring this scope.")] = None,
    repo: RepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """List agents, sorted by name.

    JSON: {"count", "agents": [...]}.

    \b
    Example:
      orkestra agents list --scope database
      orkestra agents list | jq '.agents[] | select(.model=="opus") | .name'
    """
    list_rows(lambda api: api.list_agents(repo, category, model, scope), fmt, "agents", COLUMNS)


agent_info = info_command(
    "agents",
    "agent",
    "NAME",
    "architecture-advisor",
    "Everything about one agent: persona, skills (and why), tools.",
    ".skills[] | {name, reason, via}",
)


def search_agents(
    query: Annotated[str, typer.Argument(metavar="QUERY", help="Words to look for.")],
    limit: LimitOption = None,
    repo: RepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Search agents, best match first.

    JSON: {"query", "count", "agents": [... "score"]}.

    \b
    Example:
      orkestra agents search "database" | jq -r '.agents[0].name'
    """
    list_rows(
        lambda api: api.search_agents(repo, query, limit), fmt, "agents", ("name", "score", *COLUMNS[1:])
    )


app.command("list")(list_agents)
app.command("info")(agent_info)
app.command("search")(search_agents)
