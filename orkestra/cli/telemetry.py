"""`orkestra telemetry` commands: questions answered from the local hook-event store."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Optional

import typer

from orkestra.cli.output import Format

if TYPE_CHECKING:
    from orkestra.telemetry.report import Report

app = typer.Typer(help="Query the local telemetry store written by the hooks.", no_args_is_help=True)


@app.command("report")
def report(
    since: Optional[str] = typer.Option(None, "--since",
                                        help="Only events newer than 1h, 30m, 2d... or an ISO date."),
    session: Optional[str] = typer.Option(None, "--session", help="Only events of this session id."),
    store_dir: Optional[str] = typer.Option(None, "--store-dir",
                                            help="Store directory (default from orkestra.yaml)."),
    fmt: Format = typer.Option(Format.json, "--format", help="json (default) or table."),
) -> None:
    """Tool mix, failure rate per tool family, MCP server share, skills, subagents and failure loops.

    Example: orkestra telemetry report --since 1h --format table
    """
    from orkestra.cli.output import run

    def action() -> int:
        from orkestra.errors import UsageError
        from orkestra.telemetry.report import report_project
        from orkestra.telemetry.store import find_project_root

        try:
            result = report_project(find_project_root(os.getcwd()), since, session, store_dir)
        except ValueError as exc:
            raise UsageError(str(exc)) from exc
        _print(result, fmt)
        return 0

    run(action)


def _print(result: Report, fmt: Format) -> None:
    from orkestra.cli.output import emit_json, emit_table

    if fmt == Format.json:
        emit_json(result.to_dict())
        return
    totals = {**result.totals, **{f"time_{k}": v for k, v in result.time_range.items()}}
    emit_table("Totals", ["metric", "value"], list(totals.items()))
    emit_table("Tool calls by type", ["tool_type", "calls"], list(result.tool_mix.items()))
    emit_table("Tool families (worst first)",
               ["family", "type", "calls", "failures", "interrupted", "failure rate"],
               [[r["family"], r["tool_type"], r["calls"], r["failures"], r["interrupted"],
                 f"{r['failure_rate']:.1%}"] for r in result.families])
    emit_table("MCP servers", ["server", "calls", "share"],
               [[r["server"], r["calls"], f"{r['share']:.1%}"] for r in result.mcp_servers])
    emit_table("Skills activated", ["skill", "calls"], list(result.skills.items()))
    emit_table("Subagents dispatched", ["subagent_type", "dispatches"], list(result.subagents.items()))
    emit_table("Failure loops", ["session", "family", "failures", "first", "last"],
               [[lp.session_id, lp.family, lp.failures, lp.first, lp.last] for lp in result.loops])
    for warning in result.warnings:
        typer.echo(f"warning: {warning}", err=True)
