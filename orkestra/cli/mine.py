"""`orkestra mine` commands."""

from __future__ import annotations

import typer

app = typer.Typer(help="mine commands.", no_args_is_help=True)
