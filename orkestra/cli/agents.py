"""`orkestra agents` commands."""

from __future__ import annotations

import typer

app = typer.Typer(help="agents commands.", no_args_is_help=True)
