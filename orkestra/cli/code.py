"""``orkestra code …``: Maguyva's own command line (``maguyva.cli.app``), mounted as a group.

``orkestra code grep X`` and ``maguyva grep X`` are the same command; docs/cli.md documents both.
"""

from __future__ import annotations

from maguyva.cli.app import app_for, whole_app

__all__ = ["app", "app_for"]  # noqa: F822 (app: __getattr__) app_for(words after `code`): one command


def __getattr__(name: str):
    """``app``: Maguyva's whole app, built on first use (``app_for`` builds one command)."""
    if name == "app":
        return whole_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
