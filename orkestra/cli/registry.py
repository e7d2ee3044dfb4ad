"""`orkestra registry …`: the blog's spelling of the inspection commands, plus changelog rendering."""

from __future__ import annotations

import typer

from orkestra.cli import changelog, decisions, truths

app = typer.Typer(help="Registries: decisions, truths and changelogs (as the blog writes them).",
                  no_args_is_help=True)
app.add_typer(decisions.app, name="decisions")
app.add_typer(truths.app, name="truths")
app.add_typer(changelog.app, name="changelog")
