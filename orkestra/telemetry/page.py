"""The local dashboard: one self-contained HTML file drawn from the store, charts as inline SVG.

No script, no font, no request at view time: every chart is an ``<svg data-chart=NAME>`` drawn
from the positions computed here by the Jinja templates in ``templates/`` (``page.html.j2``, its
charts in ``charts.html.j2``; autoescaped), followed by the same numbers as a table. Charts: events over time by tool type,
failure rate per tool family, MCP server share, skills activated, subagent dispatches, failure
loops and the slowest tools; then a table of the latest events. Pure functions of a Report and
the events; ``write_page`` is the only side effect.
"""

from __future__ import annotations

import os
import statistics
from collections import Counter, defaultdict
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

import jinja2

from orkestra.telemetry.events import Event
from orkestra.telemetry.report import (
    COMPLETIONS,
    FAMILY_COLUMNS,
    SERVER_COLUMNS,
    Report,
    family_of,
    family_rows,
    server_rows,
)

TOOL_TYPES = ("builtin", "bash", "mcp", "skill", "agent")
COLORS = {
    "builtin": "#4e79a7",
    "bash": "#f28e2b",
    "mcp": "#59a14f",
    "skill": "#b07aa1",
    "agent": "#e15759",
    "other": "#9c9c9c",
}
BAR = "#4e79a7"
FAIL = "#e15759"
MAX_BARS = 15
MAX_ROWS = 500  # events in the table view
BUCKETS = 48


def _ts(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)


def timeline(events: list[Event], buckets: int = BUCKETS) -> tuple[list[str], dict[str, list[int]]]:
    """Tool events per tool type in ``buckets`` equal time slices: (slice start labels, counts per type)."""
    tools = [e for e in events if "tool_type" in e.labels and e.name == "PreToolUse"] or [
        e for e in events if "tool_type" in e.labels
    ]
    counts = {kind: [0] * buckets for kind in TOOL_TYPES}
    if not tools:
        return [], counts
    first, last = _ts(tools[0].ts), _ts(tools[-1].ts)
    span = max((last - first).total_seconds(), 1.0)
    for event in tools:
        index = min(int((_ts(event.ts) - first).total_seconds() / span * buckets), buckets - 1)
        counts.setdefault(event.labels["tool_type"], [0] * buckets)[index] += 1
    starts = [first + (last - first) * (i / buckets) for i in range(buckets)]
    return [_stamp(start, span / buckets, span) for start in starts], counts


def _stamp(moment: datetime, slice_seconds: float, span: float) -> str:
    """A slice's start as precise as its length needs, so neighbouring slices never share a label:
    the day once the range passes a day, seconds when slices are shorter than a minute (and
    milliseconds under a second)."""
    day = "%m-%d " if span > 86400 else ""
    if slice_seconds >= 60:
        return moment.strftime(day + "%H:%M")
    if slice_seconds >= 1:
        return moment.strftime(day + "%H:%M:%S")
    return moment.strftime(day + "%H:%M:%S.%f")[:-3]


def slowest(events: list[Event], top: int = MAX_BARS) -> list[dict[str, Any]]:
    """Tool families by median duration: ``duration_ms`` of the completion, else Pre → completion time."""
    started: dict[tuple[str, str], Event] = {}
    durations: dict[str, list[float]] = defaultdict(list)
    for event in events:
        use_id = event.fields.get("tool_use_id")
        if "tool_type" not in event.labels or not use_id:
            continue
        key = (str(event.fields.get("session_id", "")), str(use_id))
        if event.name == "PreToolUse":
            started[key] = event
        elif event.name in COMPLETIONS:
            value = event.fields.get("duration_ms")
            if not isinstance(value, (int, float)) and key in started:
                value = (_ts(event.ts) - _ts(started[key].ts)).total_seconds() * 1000
            if isinstance(value, (int, float)):
                durations[
                    family_of({**(started[key].labels if key in started else {}), **event.labels})
                ].append(value)
    rows = [
        {
            "family": family,
            "calls": len(values),
            "median_ms": round(statistics.median(values), 1),
            "max_ms": round(max(values), 1),
        }
        for family, values in durations.items()
    ]
    return sorted(rows, key=lambda r: (-r["median_ms"], r["family"]))[:top]


# -- charts: positions here, markup in templates/charts.html.j2 ----------------------------------


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    """The page's templates, packaged with orkestra (``templates/*.html.j2``), autoescaped."""
    return jinja2.Environment(
        loader=jinja2.PackageLoader("orkestra.telemetry", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def _macro(name: str):
    return getattr(_environment().get_template("charts.html.j2").module, name)


def hbars_chart(name: str, title: str, rows: list[tuple[str, float, str]], unit: str = "") -> dict[str, Any]:
    """Horizontal bars: (label, value, text shown at the bar's end); the label cut to fit, the full
    label as the tooltip."""
    rows = rows[:MAX_BARS]
    width, label_w, row_h = 640, 200, 24
    top = max((value for _, value, _ in rows), default=0) or 1
    bars = []
    for i, (label, value, shown) in enumerate(rows):
        y = 5 + i * row_h
        bar = max((width - label_w - 190) * value / top, 1)
        bars.append(
            {
                "label": label,
                "short": fit_label(label, LABEL_CHARS),
                "shown": shown,
                "text_y": y + 16,
                "bar_y": y + 3,
                "bar": bar,
                "value_x": label_w + bar + 6,
                "color": FAIL if unit == "%" and value > 0 else BAR,
            }
        )
    return {
        "kind": "hbars",
        "name": name,
        "title": title,
        "width": width,
        "height": row_h * len(rows) + 10,
        "label_x": label_w - 6,
        "bar_x": label_w,
        "bar_h": row_h - 6,
        "rows": bars,
    }


def _hbars(name: str, title: str, rows: list[tuple[str, float, str]], unit: str = "") -> str:
    """The horizontal bar chart's SVG."""
    return str(_macro("hbars")(hbars_chart(name, title, rows, unit)))


LABEL_CHARS = 28  # what the 200 px label column holds at 12 px (about 7 px a character)


def fit_label(label: str, room: int) -> str:
    """``label`` in at most ``room`` characters: cut in the middle with an ellipsis, keeping more of
    the end (``<session> · bash:pytest``: the family stays readable); the full label is the tooltip."""
    if len(label) <= room:
        return label
    head = (room - 1) // 3
    return label[:head] + "…" + label[len(label) - (room - 1 - head) :]


def stacked_chart(name: str, title: str, labels: list[str], counts: dict[str, list[int]]) -> dict[str, Any]:
    """Counts per slice stacked by kind, a label under the slices where it fits, and a legend."""
    width, height, left, bottom = 1360, 260, 40, 40
    kinds = [k for k in counts if any(counts[k])]
    totals = [sum(counts[k][i] for k in kinds) for i in range(len(labels))]
    top = max(totals, default=0) or 1
    slot = (width - left - 10) / max(len(labels), 1)
    plot_h = height - bottom - 30
    ticks = _ticks(labels, slot, left)
    slices = []
    for i, label in enumerate(labels):
        y, bars = height - bottom, []
        for kind in kinds:
            value = counts[kind][i]
            if value:
                h = plot_h * value / top
                y -= h
                bars.append(
                    {
                        "x": left + i * slot + 1,
                        "y": y,
                        "width": max(slot - 2, 1),
                        "height": h,
                        "color": COLORS.get(kind, COLORS["other"]),
                        "kind": kind,
                        "value": value,
                    }
                )
        slices.append({"label": label, "x": left + i * slot, "tick": i in ticks, "bars": bars})
    legend = [
        {"x": left + j * 110, "kind": kind, "color": COLORS.get(kind, COLORS["other"])}
        for j, kind in enumerate(kinds)
    ]
    return {
        "kind": "stacked",
        "name": name,
        "title": title,
        "width": width,
        "height": height,
        "left": left,
        "axis_y": height - bottom,
        "top": top,
        "top_y": height - bottom - plot_h + 4,
        "slices": slices,
        "legend": legend,
    }


def _stacked(name: str, title: str, labels: list[str], counts: dict[str, list[int]]) -> str:
    """The stacked time chart's SVG."""
    return str(_macro("stacked")(stacked_chart(name, title, labels, counts)))


def _ticks(labels: list[str], slot: float, left: float, char_px: float = 6.5, gap: float = 12) -> set[int]:
    """The slices whose start is written under the axis: a label only where it fits after the last
    one written (by its width at 11 px), and never the same text twice."""
    shown: set[int] = set()
    free_from, last = left, None
    for i, label in enumerate(labels):
        x = left + i * slot
        if x >= free_from and label != last:
            shown.add(i)
            free_from, last = x + len(label) * char_px + gap, label
    return shown


def _section(
    title: str, chart: dict[str, Any], headers: list[str], rows: list[list[Any]], note: str = ""
) -> dict:
    return {"title": title, "chart": chart, "headers": headers, "rows": rows, "note": note}


EVENT_COLUMNS = ["time (UTC)", "event", "agent", "tool type", "family", "outcome", "session"]


def render_page(
    report: Report,
    events: list[Event],
    title: str = "Agent telemetry",
    filters: dict[str, str | None] | None = None,
) -> str:
    """The whole HTML document for ``report`` (built from ``events``), from ``templates/page.html.j2``."""
    labels, counts = timeline(events)
    shown = {k: v for k, v in (filters or {}).items() if v}
    families = report.families
    slow = slowest(events)
    loops = report.loops
    drawn = [k for k in counts if any(counts[k])]
    over_time = _section(
        "Events over time by tool type",
        stacked_chart("events-over-time", "Tool calls over time", labels, counts),
        ["slice", *drawn],
        [
            [label, *[counts[k][i] for k in drawn]]
            for i, label in enumerate(labels)
            if any(counts[k][i] for k in counts)
        ],
        "Tool calls (PreToolUse) per slice of the time range, stacked by tool type.",
    )
    looping: Counter[str] = Counter()
    looped: Counter[str] = Counter()
    for lp in loops:
        looping[f"{lp.session_id} · {lp.family}"] += 1
        looped[f"{lp.session_id} · {lp.family}"] += lp.failures
    sections = [
        _section(
            "Failure rate per tool family",
            hbars_chart(
                "failure-rate",
                "Failure rate per tool family",
                [
                    (r["family"], r["failure_rate"] * 100, f"{r['failure_rate']:.0%} of {r['calls']}")
                    for r in families
                ],
                "%",
            ),
            FAMILY_COLUMNS,
            family_rows(families),
        ),
        _section(
            "MCP server share",
            hbars_chart(
                "mcp-share",
                "MCP server share",
                [
                    (r["server"], r["share"] * 100, f"{r['share']:.0%} ({r['calls']})")
                    for r in report.mcp_servers
                ],
            ),
            SERVER_COLUMNS,
            server_rows(report.mcp_servers),
        ),
        _section(
            "Skills activated",
            hbars_chart("skills", "Skills activated", [(k, v, str(v)) for k, v in report.skills.items()]),
            ["skill", "calls"],
            [[k, v] for k, v in report.skills.items()],
        ),
        _section(
            "Subagent dispatches",
            hbars_chart(
                "subagents", "Subagent dispatches", [(k, v, str(v)) for k, v in report.subagents.items()]
            ),
            ["subagent_type", "dispatches"],
            [[k, v] for k, v in report.subagents.items()],
        ),
        _section(
            "Failure loops",
            hbars_chart(
                "failure-loops",
                "Failure loops",
                [
                    (key, looped[key], f"{n} loop{'s' * (n > 1)}, {looped[key]} failures")
                    for key, n in sorted(looping.items(), key=lambda kv: (-looped[kv[0]], kv[0]))
                ],
            ),
            ["session", "family", "failures", "first", "last"],
            [[lp.session_id, lp.family, lp.failures, lp.first, lp.last] for lp in loops],
            "Runs of 3 or more consecutive failures of one tool family in one session "
            "(bars: failures inside loops, per session and family).",
        ),
        _section(
            "Slowest tools",
            hbars_chart(
                "slowest-tools",
                "Slowest tools (median)",
                [
                    (r["family"], r["median_ms"], f"{r['median_ms']:.0f} ms median, {r['calls']} calls")
                    for r in slow
                ],
            ),
            ["family", "calls", "median ms", "max ms"],
            [[r["family"], r["calls"], r["median_ms"], r["max_ms"]] for r in slow],
        ),
    ]
    latest = events[-MAX_ROWS:][::-1]
    rows = [
        [
            e.ts[:19].replace("T", " "),
            e.name,
            e.labels.get("agent_tool", ""),
            e.labels.get("tool_type", ""),
            family_of(e.labels) if "tool_type" in e.labels else "",
            e.labels.get("outcome", ""),
            str(e.fields.get("session_id", ""))[:36],
        ]
        for e in latest
    ]
    return (
        _environment()
        .get_template("page.html.j2")
        .render(
            title=title,
            scope=", ".join(f"{k} {v}" for k, v in shown.items()) or "all events",
            span=f"{report.time_range['first'] or '–'} → {report.time_range['last'] or '–'}",
            totals=report.totals,
            over_time=over_time,
            sections=sections,
            latest=len(latest),
            total=len(events),
            by_event=", ".join(f"{k} {v}" for k, v in Counter(report.events).most_common()),
            event_headers=EVENT_COLUMNS,
            event_rows=rows,
            warnings=report.warnings[:20],
        )
    )


def write_page(path: str | os.PathLike[str], html: str) -> None:
    """Write ``html`` to ``path`` atomically (a reader sees the old page or the new one)."""
    from orkestra.fs.atomic import write_atomic

    write_atomic(path, html)
