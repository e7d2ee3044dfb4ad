"""`orkestra sync`: render the registries into .claude/ (plan → diff → apply)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from orkestra.cli.options import CheckOption, DryRunOption, Format, RepoOption, ReportFormatOption
from orkestra.cli.output import emit_json, emit_lines, run

if TYPE_CHECKING:
    from orkestra.render.sync import SyncReport


def command(
    dry_run: DryRunOption = False,
    check: CheckOption = False,
    force: Annotated[bool, typer.Option("--force", help="Overwrite generated files edited by hand.")] = False,
    repo: RepoOption = None,
    fmt: ReportFormatOption = None,
) -> None:
    """Render the registries into what Claude Code loads (.claude/).

    Writes .claude/, .mcp.json, GROUND_TRUTHS.md and the decisions digest. Prints one line per change and a summary; --format json prints
    the plan and result. Validates first: on any error nothing is written (exit 1, file:line:col diagnostics on
    stderr). Generated files edited by hand are never overwritten without --force; files
    sync does not own (per .claude/.orkestra-manifest.json) are never touched. After writing it warns
    on stderr about outputs git ignores and server commands a bare PATH cannot start (on drift
    under --check, the ignored outputs only; `orkestra doctor`; JSON: "warnings").

    \b
    Example:
      orkestra sync --dry-run
      orkestra sync
      orkestra sync --check     # CI: exit 1 on drift
    """

    def action() -> int:
        from orkestra.render.summary import sync_lines
        from orkestra.render.sync import sync

        report = sync(repo, apply=not (dry_run or check), force=force)
        warnings = _warnings(repo, report, check)
        if fmt is Format.json:
            emit_json(
                {**report.to_dict(), **({"warnings": [w.to_dict() for w in warnings]} if warnings else {})}
            )
        else:
            emit_lines(sync_lines(report, planned=dry_run or check))
        for warning in warnings:
            print(f"warning: {warning}", file=sys.stderr)
        return 1 if check and report.plan.drift else 0

    run(action)


def _warnings(repo: str | None, report: SyncReport, check: bool) -> list:
    """`orkestra doctor`'s cheap checks after sync wrote: outputs git ignores, server commands a bare PATH
    cannot start; on drift under --check only the first. Nothing runs on a no-op sync."""
    applied = report.applied
    wrote = applied is not None and bool(applied.written or applied.deleted)
    if not wrote and not (check and report.plan.drift):
        return []
    from orkestra.doctor import warnings_for
    from orkestra.workspace.root import find_root

    # drift under --check is CI's question: why the clone differs (an ignored output), not this PATH
    return warnings_for(find_root(repo), checks=("gitignore", "server") if wrote else ("gitignore",))
