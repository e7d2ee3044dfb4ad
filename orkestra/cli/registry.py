"""`orkestra registry` commands."""

from __future__ import annotations

import typer

app = typer.Typer(help="registry commands.", no_args_is_help=True)
