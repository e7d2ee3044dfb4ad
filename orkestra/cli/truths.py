"""`orkestra truths` commands."""

from __future__ import annotations

import typer

app = typer.Typer(help="truths commands.", no_args_is_help=True)
