"""`orkestra skills …`: inspection (list/info/search) plus the trust review (audit/evaluate/ingest/vendor).

Inspection commands live here; the trust-review commands live in ``skills_trust.py`` and are
mounted below, so each module stays small.
"""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli import skills_trust
from orkestra.cli.inspect_common import Entity, info_command, list_rows, search_command
from orkestra.cli.options import FormatOption, RepoOption, group

app = group("Skills: list, inspect, search, audit, evaluate and ingest.")

COLUMNS = ("name", "tier", "type", "source", "scope", "description")
SKILLS = Entity("skills", "skill", "NAME", "test-first-discipline", COLUMNS)


def list_skills(
    tier: Annotated[str | None, typer.Option(help="Only this tier: K0 .. K4.")] = None,
    type: Annotated[str | None, typer.Option(help="Only workflow, discipline or checklist.")] = None,
    scope: Annotated[str | None, typer.Option(help="Only skills of this scope (primary or own).")] = None,
    source: Annotated[str | None, typer.Option(help="Only core or vendor skills.")] = None,
    repo: RepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """List skills, sorted by name.

    JSON: {"count", "skills": [...]}.

    \b
    Example:
      orkestra skills list --source vendor
      orkestra skills list --tier K0 | jq -r '.skills[].name'
    """
    list_rows(lambda api: api.list_skills(repo, tier, type, scope, source), fmt, "skills", COLUMNS)


skill_info = info_command(SKILLS, "Everything about one skill, and which agents load it.", ".used_by")
search_skills = search_command(
    SKILLS,
    "Words (name, description, tags, scope...).",
    'orkestra skills search "schema migration" --limit 5',
)


app.command("list")(list_skills)
app.command("info")(skill_info)
app.command("search")(search_skills)
skills_trust.mount(app)
