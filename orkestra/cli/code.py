"""`orkestra code` commands."""

from __future__ import annotations

import typer

app = typer.Typer(help="code commands.", no_args_is_help=True)
