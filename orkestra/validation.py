"""Validating a workspace whole: its registries (``orkestra.workspace.validate``) and the facts its git
history made stale (``orkestra.why.stale``), as one list sorted by place. It sits above both, so the
registry layer never reaches up into git history."""

from __future__ import annotations

import datetime as dt

from orkestra.errors import Diagnostic
from orkestra.why.stale import stale_facts
from orkestra.workspace.load import Workspace
from orkestra.workspace.validate import ordered, validate


def validate_workspace(ws: Workspace, today: dt.date | None = None, symbol_lookup=True) -> list[Diagnostic]:
    """Every problem in the workspace: load diagnostics, cross-references, lifecycle, stale facts, warnings.

    ``symbol_lookup`` is passed to ``orkestra.why.stale.stale_facts`` (True: Maguyva's index when present).
    ``sync`` needs the errors alone and takes ``orkestra.workspace.validate.validate`` (stale facts only warn).
    """
    return ordered([*validate(ws, today), *stale_facts(ws, symbol_lookup)])


def check_workspace(root) -> list[Diagnostic]:
    """Load the workspace at ``root`` (None: nearest upwards from the cwd) and validate it."""
    from orkestra.workspace.root import find_root

    return validate_workspace(Workspace.load(find_root(root)))
