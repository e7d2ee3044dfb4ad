"""Skill lifecycle checks: deprecation, replacements and ``requires`` dependencies."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from orkestra.errors import Diagnostic
    from orkestra.workspace import Workspace


def check_lifecycle(ws: "Workspace") -> list["Diagnostic"]:
    """Diagnostics for deprecated skills still listed by agents and unmet ``requires``."""
    return []
