"""`orkestra sync`."""

from __future__ import annotations


def command() -> None:
    """sync (being built)."""
    raise SystemExit("orkestra sync: not built yet")
