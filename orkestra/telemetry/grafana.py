"""The Grafana dashboard over the Loki stream, generated with ``grafana-foundation-sdk``.

``panel_specs`` is pure data (title, kind, LogQL), shared by the builder and by the tests that
run every query against Loki. The LogQL follows the seeds' schema (``orkestra.telemetry.loki``):
stream selectors on ``service_name``/``agent_tool``/``event``/``tool_type``/``mcp_server``,
``session_id`` and ``repository`` as structured-metadata filters, and ``| json`` for the fields
of the line (``tool_name``, ``bash_cli``, ``skill``, ``subagent_type``). Variables: agent tool
(label values), session and repository (regex text boxes, ``.*`` for all).
The SDK is the ``grafana`` extra: ``pip install 'orkestra[grafana]'``.
"""

from __future__ import annotations

import json
from collections import namedtuple
from typing import Any

from orkestra.telemetry.loki import SERVICE_NAME

DATASOURCE_VAR = "datasource"
UID = "orkestra-agent-hooks"
COMPLETIONS = "PostToolUse|PostToolUseFailure|PermissionDenied"
FAILURES = "PostToolUseFailure|PermissionDenied|StopFailure"
# Defaults a query takes outside Grafana (the tests, `orkestra telemetry dashboard --grafana --print-queries`).
DEFAULTS = {"agent_tool": ".*", "session": ".*", "repository": ".*", "__auto": "1m", "__range": "1h"}


class PanelSpec(namedtuple("PanelSpec", "title kind expr legend instant width height description")):
    """One panel: ``kind`` is logs | timeseries | barchart | piechart | stat."""

    __slots__ = ()


def _selector(service_name: str, **matchers: str) -> str:
    parts = [f'service_name="{service_name}"', 'agent_tool=~"$agent_tool"']
    for name, value in matchers.items():
        op = "=~" if "|" in value else "="
        parts.append(f'{name}{op}"{value}"')
    return "{" + ", ".join(parts) + '} | session_id=~"$session" | repository=~"$repository"'


def panel_specs(service_name: str = SERVICE_NAME) -> list[PanelSpec]:
    """Every panel of the dashboard, in layout order."""

    def sel(**matchers: str) -> str:
        return _selector(service_name, **matchers)

    def by(label: str, logs: str, window: str = "$__range") -> str:
        return f"sum by ({label}) (count_over_time({logs} [{window}]))"

    return [
        PanelSpec(
            "Events",
            "stat",
            f"sum(count_over_time({sel()} [$__range]))",
            "events",
            True,
            4,
            4,
            "Hook events in the time range.",
        ),
        PanelSpec(
            "Tool calls",
            "stat",
            f"sum(count_over_time({sel(event='PreToolUse')} [$__range]))",
            "calls",
            True,
            4,
            4,
            "PreToolUse events: one per tool call.",
        ),
        PanelSpec(
            "Tool failures",
            "stat",
            f"sum(count_over_time({sel(event=COMPLETIONS.split('|', 1)[1])} [$__range]))",
            "failures",
            True,
            4,
            4,
            "PostToolUseFailure and PermissionDenied events.",
        ),
        PanelSpec(
            "Prompts",
            "stat",
            f"sum(count_over_time({sel(event='UserPromptSubmit')} [$__range]))",
            "prompts",
            True,
            4,
            4,
            "UserPromptSubmit events.",
        ),
        PanelSpec(
            "Sessions' agents",
            "piechart",
            by("agent_tool", sel()),
            "{{agent_tool}}",
            True,
            8,
            8,
            "Events per agent runtime (claude-code, codex-cli), by the agent_tool label.",
        ),
        PanelSpec(
            "Events over time",
            "timeseries",
            by("event", sel(), "$__auto"),
            "{{event}}",
            False,
            12,
            8,
            "Every hook event, by event name.",
        ),
        PanelSpec(
            "Tool calls by type",
            "timeseries",
            by("tool_type", sel(event="PreToolUse"), "$__auto"),
            "{{tool_type}}",
            False,
            12,
            8,
            "builtin, mcp, skill, agent, bash.",
        ),
        PanelSpec(
            "Failures by tool",
            "barchart",
            by("tool_name", sel(event=COMPLETIONS.split("|", 1)[1]) + " | json"),
            "{{tool_name}}",
            True,
            8,
            8,
            "Failed tool calls per tool.",
        ),
        PanelSpec(
            "Prompts over time",
            "timeseries",
            f"sum(count_over_time({sel(event='UserPromptSubmit')} [$__auto]))",
            "prompts",
            False,
            8,
            8,
            "User prompts submitted.",
        ),
        PanelSpec(
            "Built-in tools",
            "barchart",
            by("tool_name", sel(event="PreToolUse", tool_type="builtin") + " | json"),
            "{{tool_name}}",
            True,
            8,
            8,
            "Calls per built-in tool (Read, Edit, Grep...).",
        ),
        PanelSpec(
            "MCP servers",
            "piechart",
            by("mcp_server", sel(event="PreToolUse", tool_type="mcp")),
            "{{mcp_server}}",
            True,
            8,
            8,
            "Share of MCP calls per server.",
        ),
        PanelSpec(
            "Shell command families",
            "barchart",
            by("bash_cli", sel(event="PreToolUse", tool_type="bash") + " | json"),
            "{{bash_cli}}",
            True,
            8,
            8,
            "Bash calls per command family (git, pytest, npm...).",
        ),
        PanelSpec(
            "Skills",
            "barchart",
            by("skill", sel(event="PreToolUse", tool_type="skill") + " | json"),
            "{{skill}}",
            True,
            8,
            8,
            "Skills activated.",
        ),
        PanelSpec(
            "Subagents dispatched",
            "barchart",
            by("subagent_type", sel(event="SubagentStart") + " | json"),
            "{{subagent_type}}",
            True,
            8,
            8,
            "SubagentStart events per subagent type.",
        ),
        PanelSpec(
            "Failures",
            "logs",
            sel(event=FAILURES) + " | json",
            "",
            False,
            12,
            10,
            "Failed tool calls and stop failures, newest first.",
        ),
        PanelSpec(
            "Activity feed", "logs", sel() + " | json", "", False, 12, 10, "Every event, newest first."
        ),
        PanelSpec(
            "Prompts",
            "logs",
            sel(event="UserPromptSubmit") + " | json",
            "",
            False,
            24,
            8,
            "The prompts themselves (redacted, truncated).",
        ),
    ]


def expand(expr: str, values: dict[str, str] | None = None) -> str:
    """A panel's LogQL with its dashboard variables replaced (for running it outside Grafana)."""
    values = {**DEFAULTS, **(values or {})}
    for name in sorted(values, key=len, reverse=True):
        expr = expr.replace(f"${name}", values[name])
    return expr


def build_dashboard(service_name: str = SERVICE_NAME) -> dict[str, Any]:
    """The provisionable dashboard JSON (a dict), built with grafana-foundation-sdk."""
    try:
        from grafana_foundation_sdk.builders import barchart as bars
        from grafana_foundation_sdk.builders import dashboard as dash
        from grafana_foundation_sdk.builders import logs, loki, piechart, stat, timeseries
        from grafana_foundation_sdk.cog.encoder import JSONEncoder
        from grafana_foundation_sdk.models.dashboard import DataSourceRef, VariableOption, VariableRefresh
    except ImportError as exc:
        raise RuntimeError(
            "the Grafana dashboard needs the 'grafana' extra: pip install 'orkestra[grafana]'"
        ) from exc

    source = DataSourceRef(type_val="loki", uid=f"${{{DATASOURCE_VAR}}}")
    everything = VariableOption(selected=True, text="All", value=".*")
    builder = (
        dash.Dashboard("Agent hooks (Claude Code, Codex)")
        .uid(UID)
        .tags(["orkestra", "agents", "loki"])
        .description(f'Hook events pushed by orkestra-hook to Loki ({{service_name="{service_name}"}}).')
        .time("now-24h", "now")
        .refresh("1m")
        .with_variable(dash.DatasourceVariable(DATASOURCE_VAR).label("Loki").type("loki"))
        .with_variable(
            dash.QueryVariable("agent_tool")
            .label("Agent tool")
            .datasource(source)
            .query(f'label_values({{service_name="{service_name}"}}, agent_tool)')
            .include_all(True)
            .all_value(".*")
            .multi(True)
            .current(everything)
            .refresh(VariableRefresh.ON_TIME_RANGE_CHANGED)
        )
        .with_variable(dash.TextBoxVariable("session").label("Session id (regex)").default_value(".*"))
        .with_variable(dash.TextBoxVariable("repository").label("Repository (regex)").default_value(".*"))
    )
    kinds = {
        "logs": logs.Panel,
        "timeseries": timeseries.Panel,
        "barchart": bars.Panel,
        "piechart": piechart.Panel,
        "stat": stat.Panel,
    }
    for spec in panel_specs(service_name):
        query = loki.Dataquery().expr(spec.expr).ref_id("A")
        if spec.legend:
            query = query.legend_format(spec.legend)
        query = query.instant(True) if spec.instant else query.range(True)
        panel = (
            kinds[spec.kind]()
            .title(spec.title)
            .description(spec.description)
            .datasource(source)
            .with_target(query)
            .span(spec.width)
            .height(spec.height)
        )
        if spec.kind == "logs":
            panel = panel.show_time(True).wrap_log_message(True).enable_log_details(True)
        builder = builder.with_panel(panel)
    return json.loads(json.dumps(builder.build(), cls=JSONEncoder))
