"""`orkestra search`."""

from __future__ import annotations


def command() -> None:
    """search (being built)."""
    raise SystemExit("orkestra search: not built yet")
