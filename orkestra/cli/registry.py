"""`orkestra registry …`: decisions and truths under one group (a second spelling), plus changelogs."""

from __future__ import annotations

from orkestra.cli import changelog, decisions, truths
from orkestra.cli.options import group

app = group("Decisions, truths and changelogs under one group.")
app.add_typer(decisions.app, name="decisions")
app.add_typer(truths.app, name="truths")
app.add_typer(changelog.app, name="changelog")
