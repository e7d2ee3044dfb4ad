"""`orkestra agents …`: levels 2 and 3 — which agents exist, and what does one do?"""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.inspect_common import Entity, info_command, list_rows, search_command
from orkestra.cli.options import FormatOption, RepoOption, group

app = group("List, search and inspect agents.")

COLUMNS = ("name", "category", "model", "skills", "description")
AGENTS = Entity("agents", "agent", "NAME", "architecture-advisor", COLUMNS)


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
    AGENTS, "Everything about one agent: persona, skills (and why), tools.", ".skills[] | {name, reason, via}"
)
search_agents = search_command(
    AGENTS, "Words to look for.", """orkestra agents search "database" | jq -r '.agents[0].name'"""
)


app.command("list")(list_agents)
app.command("info")(agent_info)
app.command("search")(search_agents)
