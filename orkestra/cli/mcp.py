"""`orkestra mcp` commands."""

from __future__ import annotations

import typer

app = typer.Typer(help="mcp commands.", no_args_is_help=True)
