"""`orkestra registry changelog …`: Keep a Changelog files rendered from the ledgers."""

from __future__ import annotations

import typer

app = typer.Typer(help="Render CHANGELOG.md files from the changelog ledger.", no_args_is_help=True)
