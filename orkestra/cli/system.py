"""`orkestra system …`: level 1 of progressive disclosure — is everything healthy?"""

from __future__ import annotations

from orkestra.cli.inspect_common import one_record
from orkestra.cli.options import FormatOption, RepoOption, group

app = group("Workspace health at a glance.")


@app.command("status")
def status(repo: RepoOption = None, fmt: FormatOption = None) -> None:
    """How many agents, skills, decisions and truths, and is it healthy?

    Counts agents, skills, commands, truths, decisions and scopes. Health: validation errors/warnings, whether .claude/ is in sync, and the Maguyva
    index's freshness. Exit code 0 even when unhealthy; read `.healthy`.

    \b
    Example:
      orkestra system status | jq '{agents, skills_total, healthy}'
    """

    one_record(lambda api: api.system_status(repo), fmt, "system status")
