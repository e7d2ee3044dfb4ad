"""`orkestra validate`."""

from __future__ import annotations


def command() -> None:
    """validate (being built)."""
    raise SystemExit("orkestra validate: not built yet")
