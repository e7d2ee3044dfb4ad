"""`orkestra system …`: level 1 of progressive disclosure — is everything healthy?"""

from __future__ import annotations

import typer

from orkestra.cli.inspect_common import FormatOption, RootOption, show_record
from orkestra.cli.output import Format, run

app = typer.Typer(help="Workspace health at a glance.", no_args_is_help=True, rich_markup_mode=None)


@app.command("status")
def status(root: RootOption = None, fmt: FormatOption = Format.json) -> None:
    """Counts of agents, skills, commands, truths, decisions and scopes, plus health.

    Health: validation errors/warnings, whether .claude/ is in sync, and the Maguyva
    index's freshness. Exit code 0 even when unhealthy; read `.healthy`.

    \b
    Example:
      orkestra system status | jq '{agents, skills_total, healthy}'
    """

    def action() -> None:
        from orkestra.inspect import api

        show_record(api.system_status(root), fmt, "system status")

    run(action)
