"""`orkestra decisions` commands."""

from __future__ import annotations

import typer

app = typer.Typer(help="decisions commands.", no_args_is_help=True)
