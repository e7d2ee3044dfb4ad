"""One function per trust-review command: find the workspace if needed, run the stage, return a value."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

from orkestra.errors import OrkestraError, UsageError
from orkestra.trust.audit import audit_paths, audit_workspace
from orkestra.trust.evaluate import Evaluation, evaluate_skill
from orkestra.trust.findings import AuditReport
from orkestra.trust.ingest import IngestResult, ingest_skill
from orkestra.trust.vendor import VendorRootReport, list_vendor_roots
from orkestra.workspace.config import find_root


def _workspace(root: str | None):
    from orkestra.workspace import Workspace

    return Workspace.load(find_root(root))


def audit(paths: Sequence[str], all_skills: bool, root: str | None = None) -> AuditReport:
    """Audit the skill folders at ``paths`` (relative to the cwd), or every workspace skill with ``all_skills``."""
    if all_skills == bool(paths):
        raise UsageError("give skill paths or --all, not both and not neither")
    if all_skills:
        return audit_workspace(_workspace(root))
    return audit_paths(paths, Path.cwd())


def evaluate(path: str, root: str | None = None, today: dt.date | None = None) -> Evaluation:
    """The adoption rubric of the skill at ``path``; gap analysis uses the workspace when there is one."""
    try:
        ws = _workspace(root)
    except OrkestraError:
        if root is not None:
            raise
        ws = None
    return evaluate_skill(Path(path), ws, today)


def ingest(
    path: str,
    tier: str,
    scope: str,
    provider: str | None = None,
    *,
    accept_risk: bool = False,
    dry_run: bool = False,
    root: str | None = None,
) -> IngestResult:
    """Ingest the skill at ``path`` into the workspace's registries."""
    return ingest_skill(
        _workspace(root),
        Path(path).resolve(),
        tier,
        scope,
        provider,
        accept_risk=accept_risk,
        dry_run=dry_run,
    )


def vendor_roots(root: str | None = None) -> list[VendorRootReport]:
    """Every declared vendor root and its skills with audit summaries."""
    return list_vendor_roots(_workspace(root))
