"""`orkestra skills audit|evaluate|ingest|vendor`: the skills trust review."""

from __future__ import annotations

import typer


def mount(app: typer.Typer) -> None:
    """Register the trust-review commands on the ``skills`` group."""
