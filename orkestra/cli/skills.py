"""`orkestra skills …`: inspection (list/info/search) plus the trust review (audit/evaluate/ingest/vendor).

Inspection commands live here; the trust-review commands live in ``skills_trust.py`` and are
mounted below, so each module stays small.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from orkestra.cli import skills_trust
from orkestra.cli.inspect_common import FormatOption, LimitOption, RootOption, show_record, show_rows
from orkestra.cli.output import Format, run

app = typer.Typer(help="Skills: list, inspect, search, audit, evaluate and ingest.", no_args_is_help=True,
                  rich_markup_mode=None)
skills_trust.mount(app)

COLUMNS = ("name", "tier", "type", "source", "scope", "description")


@app.command("list")
def list_skills(
    tier: Annotated[Optional[str], typer.Option(help="Only this tier: K0 .. K4.")] = None,
    type: Annotated[Optional[str], typer.Option(help="Only workflow, discipline or checklist.")] = None,
    scope: Annotated[Optional[str], typer.Option(help="Only skills of this scope (primary or own).")] = None,
    source: Annotated[Optional[str], typer.Option(help="Only core or vendor skills.")] = None,
    root: RootOption = None,
    fmt: FormatOption = Format.json,
) -> None:
    """List skills, sorted by name: {"count", "skills": [...]}.

    \b
    Example:
      orkestra skills list --tier K0 | jq -r '.skills[].name'
      orkestra skills list --source vendor --format table
    """

    def action() -> None:
        from orkestra.inspect import api

        show_rows(api.list_skills(root, tier, type, scope, source), fmt, "skills", COLUMNS)

    run(action)


@app.command("search")
def search_skills(
    query: Annotated[str, typer.Argument(metavar="QUERY", help="Words (name, description, tags, scope...).")],
    limit: LimitOption = None,
    root: RootOption = None,
    fmt: FormatOption = Format.json,
) -> None:
    """Search skills, best match first: {"query", "count", "skills": [... "score"]}.

    \b
    Example:
      orkestra skills search "schema migration" --limit 5
    """

    def action() -> None:
        from orkestra.inspect import api

        show_rows(api.search_skills(root, query, limit), fmt, "skills", ("name", "score", *COLUMNS[1:]))

    run(action)


@app.command("info")
def skill_info(
    name: Annotated[str, typer.Argument(metavar="NAME", help="Skill name or ref (domains/code-review).")],
    root: RootOption = None,
    fmt: FormatOption = Format.json,
) -> None:
    """Everything about one skill, including which agents load it (``used_by``).

    \b
    Example:
      orkestra skills info test-first-discipline | jq '.used_by'
    """

    def action() -> None:
        from orkestra.inspect import api

        show_record(api.skill_info(root, name), fmt, f"skill {name}")

    run(action)
