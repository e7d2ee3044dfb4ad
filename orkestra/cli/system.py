"""`orkestra system` commands."""

from __future__ import annotations

import typer

app = typer.Typer(help="system commands.", no_args_is_help=True)
