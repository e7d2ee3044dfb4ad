"""`orkestra init`."""

from __future__ import annotations


def command() -> None:
    """init (being built)."""
    raise SystemExit("orkestra init: not built yet")
