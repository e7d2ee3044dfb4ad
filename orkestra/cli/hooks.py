"""`orkestra hooks` commands."""

from __future__ import annotations

import typer

app = typer.Typer(help="hooks commands.", no_args_is_help=True)
