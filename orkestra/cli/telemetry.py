"""`orkestra telemetry` commands: questions answered from the local hook-event store."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import typer

from orkestra.cli.options import Format, FormatOption, RepoOption, group, pick_format

if TYPE_CHECKING:
    from orkestra.telemetry.report import Report

app = group("Query the local telemetry store written by the hooks.")

SINCE = typer.Option(None, "--since", help="Only events newer than 1h, 30m, 2d... or an ISO date.")
SESSION = typer.Option(None, "--session", help="Only events of this session id.")
STORE_DIR = typer.Option(None, "--store-dir", help="Store directory (default from orkestra.yaml).")


@app.command("report")
def report(
    since: str | None = SINCE,
    session: str | None = SESSION,
    store_dir: str | None = STORE_DIR,
    repo: RepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """What the agents did: tools, failures, servers, skills, loops.

    Tool mix, failure rate per tool family, MCP server share, skills, subagents and failure
    loops. An unknown --session exits 1 with "did you mean ...".

    Example: orkestra telemetry report --since 1h
    """
    from orkestra.cli.output import run

    def action() -> int:
        from orkestra.errors import UsageError
        from orkestra.telemetry.report import report_project
        from orkestra.telemetry.store import find_project_root

        try:
            result = report_project(find_project_root(repo or os.getcwd()), since, session, store_dir)
        except ValueError as exc:
            raise UsageError(str(exc)) from exc
        _print(result, fmt)
        return 0

    run(action)


@app.command("dashboard")
def dashboard(
    grafana: bool = typer.Option(
        False, "--grafana", help="Write the provisionable Grafana dashboard JSON (Loki queries) instead."
    ),
    output: str | None = typer.Option(
        None,
        "--output",
        "-o",
        help="File to write (default <store>/dashboard.html or <store>/grafana-dashboard.json).",
    ),
    since: str | None = SINCE,
    session: str | None = SESSION,
    store_dir: str | None = STORE_DIR,
    repo: RepoOption = None,
) -> None:
    """Write the local dashboard page, or a Grafana dashboard.

    The local page is one self-contained HTML file; --grafana writes the Grafana JSON instead.

    The page has inline SVG charts and tables and needs no network to view. The Grafana JSON needs
    the 'grafana' extra and queries the Loki stream that `telemetry.loki` pushes. Prints the path.

    Example: orkestra telemetry dashboard --since 7d && xdg-open .orkestra/telemetry/dashboard.html
    """
    from orkestra.cli.output import run

    def action() -> int:
        import json
        from pathlib import Path

        from orkestra.errors import UsageError
        from orkestra.telemetry.project import load_settings, store_dir_for
        from orkestra.telemetry.store import find_project_root

        root = find_project_root(repo or os.getcwd())
        settings = load_settings(Path(root))
        directory = store_dir_for(Path(root), store_dir)
        if grafana:
            from orkestra.telemetry.grafana import build_dashboard

            if since or session:
                raise UsageError(
                    "--since and --session filter the local page; Grafana has its own time "
                    "picker and session variable"
                )
            try:
                document = build_dashboard(*([settings.loki.service_name] if settings.loki else []))
            except RuntimeError as exc:
                raise UsageError(str(exc)) from exc
            text = json.dumps(document, indent=2) + "\n"
            path = output or os.path.join(directory, "grafana-dashboard.json")
        else:
            from orkestra.telemetry.page import render_page
            from orkestra.telemetry.report import build_report, project_events

            try:
                directory, events, warnings = project_events(root, since, session, store_dir)
            except ValueError as exc:
                raise UsageError(str(exc)) from exc
            text = render_page(
                build_report(events, warnings),
                events,
                title=f"Agent telemetry · {os.path.basename(root)}",
                filters={"since": since, "session": session},
            )
            path = output or os.path.join(directory, "dashboard.html")
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        from orkestra.telemetry.page import write_page

        write_page(path, text)
        typer.echo(path)
        return 0

    run(action)


@app.command("flush")
def flush(
    store_dir: str | None = STORE_DIR,
    repo: RepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Push the events waiting in the Loki outbox to `telemetry.loki`.

    The outbox holds what the hooks could not send. JSON: {"sent", "pending", "rejected",
    "warnings"}. Exit 0 when nothing is left
    pending, 1 when some events are still waiting (Loki unreachable), 2 without a loki section.

    Example: orkestra telemetry flush
    """
    from orkestra.cli.output import run

    def action() -> int:
        from pathlib import Path

        from orkestra.cli.output import show_record
        from orkestra.errors import OrkestraError, UsageError
        from orkestra.telemetry import loki
        from orkestra.telemetry.project import load_settings, store_dir_for
        from orkestra.telemetry.store import UnsafeStoreDir, find_project_root

        root = find_project_root(repo or os.getcwd())
        settings = load_settings(Path(root))
        if not settings.loki:
            raise UsageError("no telemetry.loki section in orkestra.yaml (endpoint, credential_env)")
        where = loki.target(
            settings.loki.endpoint,
            settings.loki.credential_env,
            settings.loki.tenant,
            settings.loki.service_name,
        )
        try:
            result = loki.flush(store_dir_for(Path(root), store_dir), where)
        except UnsafeStoreDir as exc:  # a link planted in the outbox folder
            raise OrkestraError(str(exc)) from None
        show_record(result._asdict(), fmt, "telemetry flush")
        return 0 if result.pending == 0 else 1

    run(action)


def _print(result: Report, fmt: Format | None) -> None:
    from orkestra.cli.output import emit_json, emit_table, emit_text
    from orkestra.telemetry.report import FAMILY_COLUMNS, SERVER_COLUMNS, family_rows, server_rows

    chosen = pick_format(fmt, Format.table)
    if chosen is Format.json:
        emit_json(result.to_dict())
        return
    if chosen is Format.text:
        emit_text(result.to_dict())
        return
    totals = {**result.totals, **{f"time_{k}": v for k, v in result.time_range.items()}}
    emit_table("Totals", ["metric", "value"], list(totals.items()))
    emit_table("Tool calls by type", ["tool_type", "calls"], list(result.tool_mix.items()))
    emit_table("Tool families (worst first)", FAMILY_COLUMNS, family_rows(result.families))
    emit_table("MCP servers", SERVER_COLUMNS, server_rows(result.mcp_servers))
    emit_table("Skills activated", ["skill", "calls"], list(result.skills.items()))
    emit_table("Subagents dispatched", ["subagent_type", "dispatches"], list(result.subagents.items()))
    emit_table(
        "Failure loops",
        ["session", "family", "failures", "first", "last"],
        [[lp.session_id, lp.family, lp.failures, lp.first, lp.last] for lp in result.loops],
    )
    for warning in result.warnings:
        typer.echo(f"warning: {warning}", err=True)
