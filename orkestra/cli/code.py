"""``orkestra code …``: Maguyva's own command line (``maguyva.cli.app``), mounted as a group.

``orkestra code grep X`` and ``maguyva grep X`` are the same command; docs/cli.md documents both.
"""

from __future__ import annotations

from maguyva.cli.app import app, app_for

__all__ = ["app", "app_for"]  # app_for(words after `code`): the app with only the command they name
