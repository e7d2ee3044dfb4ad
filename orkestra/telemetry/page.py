"""The local dashboard: one self-contained HTML file drawn from the store, charts as inline SVG.

No script, no font, no request at view time: every chart is an ``<svg data-chart=NAME>`` we
render here, followed by the same numbers as a table. Charts: events over time by tool type,
failure rate per tool family, MCP server share, skills activated, subagent dispatches, failure
loops and the slowest tools; then a table of the latest events. Pure functions of a Report and
the events; ``write_page`` is the only side effect.
"""

from __future__ import annotations

import os
import statistics
from collections import Counter, defaultdict
from datetime import UTC, datetime
from html import escape
from typing import Any

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


# -- SVG ---------------------------------------------------------------------------------------


def _hbars(name: str, title: str, rows: list[tuple[str, float, str]], unit: str = "") -> str:
    """Horizontal bars: (label, value, text shown at the bar's end)."""
    rows = rows[:MAX_BARS]
    if not rows:
        return _empty(name, title)
    width, label_w, row_h = 640, 200, 24
    height = row_h * len(rows) + 10
    top = max(value for _, value, _ in rows) or 1
    parts = [
        (
            f'<svg data-chart="{name}" role="img" aria-label="{escape(title)}" viewBox="0 0 {width} {height}" '
            f'width="100%" style="max-width:{width}px" xmlns="http://www.w3.org/2000/svg">'
        )
    ]
    for i, (label, value, shown) in enumerate(rows):
        y = 5 + i * row_h
        bar = max((width - label_w - 190) * value / top, 1)
        color = FAIL if unit == "%" and value > 0 else BAR
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 16}" text-anchor="end" class="label">'
            f"<title>{escape(label)}</title>{escape(fit_label(label, LABEL_CHARS))}</text>"
            f'<rect x="{label_w}" y="{y + 3}" width="{bar:.1f}" height="{row_h - 6}" fill="{color}">'
            f"<title>{escape(label)}: {escape(shown)}</title></rect>"
            f'<text x="{label_w + bar + 6:.1f}" y="{y + 16}" class="value">{escape(shown)}</text>'
        )
    return "".join(parts) + "</svg>"


LABEL_CHARS = 28  # what the 200 px label column holds at 12 px (about 7 px a character)


def fit_label(label: str, room: int) -> str:
    """``label`` in at most ``room`` characters: cut in the middle with an ellipsis, keeping more of
    the end (``<session> · bash:pytest``: the family stays readable); the full label is the tooltip."""
    if len(label) <= room:
        return label
    head = (room - 1) // 3
    return label[:head] + "…" + label[len(label) - (room - 1 - head) :]


def _empty(name: str, title: str) -> str:
    return (
        f'<svg data-chart="{name}" data-empty="true" role="img" aria-label="{escape(title)}" viewBox="0 0 640 40" '
        f'width="640" height="40" xmlns="http://www.w3.org/2000/svg"><text x="10" y="25" class="label">'
        "nothing recorded in this range</text></svg>"
    )


def _stacked(name: str, title: str, labels: list[str], counts: dict[str, list[int]]) -> str:
    if not labels:
        return _empty(name, title)
    width, height, left, bottom = 1360, 260, 40, 40
    kinds = [k for k in counts if any(counts[k])]
    totals = [sum(counts[k][i] for k in kinds) for i in range(len(labels))]
    top = max(totals) or 1
    slot = (width - left - 10) / len(labels)
    plot_h = height - bottom - 30
    parts = [
        (
            f'<svg data-chart="{name}" role="img" aria-label="{escape(title)}" viewBox="0 0 {width} {height}" '
            f'width="100%" xmlns="http://www.w3.org/2000/svg">'
        ),
        f'<line x1="{left}" y1="{height - bottom}" x2="{width - 10}" y2="{height - bottom}" stroke="#999"/>',
        f'<text x="{left - 4}" y="{height - bottom - plot_h + 4}" text-anchor="end" class="value">{top}</text>',
        f'<text x="{left - 4}" y="{height - bottom}" text-anchor="end" class="value">0</text>',
    ]
    ticks = _ticks(labels, slot, left)
    for i in range(len(labels)):
        y = height - bottom
        for kind in kinds:
            value = counts[kind][i]
            if value:
                h = plot_h * value / top
                y -= h
                parts.append(
                    f'<rect x="{left + i * slot + 1:.1f}" y="{y:.1f}" width="{max(slot - 2, 1):.1f}" '
                    f'height="{h:.1f}" fill="{COLORS.get(kind, COLORS["other"])}">'
                    f"<title>{escape(labels[i])} {kind}: {value}</title></rect>"
                )
        if i in ticks:
            parts.append(
                f'<text x="{left + i * slot:.1f}" y="{height - bottom + 16}" class="value">'
                f"{escape(labels[i])}</text>"
            )
    for j, kind in enumerate(kinds):  # legend
        x = left + j * 110
        parts.append(
            f'<rect x="{x}" y="{height - 14}" width="12" height="12" fill="{COLORS.get(kind, COLORS["other"])}"/>'
            f'<text x="{x + 16}" y="{height - 4}" class="label">{kind}</text>'
        )
    return "".join(parts) + "</svg>"


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


def _table(headers: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _section(title: str, chart: str, headers: list[str], rows: list[list[Any]], note: str = "") -> str:
    note_html = f'<p class="note">{escape(note)}</p>' if note else ""
    return (
        f"<section><h2>{escape(title)}</h2>{note_html}{chart}"
        f"<details><summary>table</summary>{_table(headers, rows)}</details></section>"
    )


STYLE = """
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#222;background:#fafafa}
h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:0 0 8px}
section{background:#fff;border:1px solid #ddd;border-radius:6px;padding:14px 16px;margin:0 0 16px}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(540px,1fr));gap:0 16px}
.totals{display:flex;gap:24px;flex-wrap:wrap}.totals div{font-size:12px;color:#555}
.totals b{display:block;font-size:22px;color:#222}
svg text.label{font-size:12px;fill:#333}svg text.value{font-size:11px;fill:#555}
table{border-collapse:collapse;font-size:12px;margin-top:8px}td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}
th{background:#f0f0f0}.note{color:#666;font-size:12px;margin:0 0 8px}summary{cursor:pointer;color:#4e79a7}
"""


def render_page(
    report: Report,
    events: list[Event],
    title: str = "Agent telemetry",
    filters: dict[str, str | None] | None = None,
) -> str:
    """The whole HTML document for ``report`` (built from ``events``)."""
    labels, counts = timeline(events)
    shown = {k: v for k, v in (filters or {}).items() if v}
    scope = ", ".join(f"{k} {v}" for k, v in shown.items()) or "all events"
    span = f"{report.time_range['first'] or '–'} → {report.time_range['last'] or '–'}"
    totals = "".join(
        f"<div><b>{value}</b>{escape(key.replace('_', ' '))}</div>" for key, value in report.totals.items()
    )
    families = report.families
    slow = slowest(events)
    loops = report.loops
    over_time = _section(
        "Events over time by tool type",
        _stacked("events-over-time", "Tool calls over time", labels, counts),
        ["slice", *[k for k in counts if any(counts[k])]],
        [
            [label, *[counts[k][i] for k in counts if any(counts[k])]]
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
            _hbars(
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
            _hbars(
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
            _hbars("skills", "Skills activated", [(k, v, str(v)) for k, v in report.skills.items()]),
            ["skill", "calls"],
            [[k, v] for k, v in report.skills.items()],
        ),
        _section(
            "Subagent dispatches",
            _hbars("subagents", "Subagent dispatches", [(k, v, str(v)) for k, v in report.subagents.items()]),
            ["subagent_type", "dispatches"],
            [[k, v] for k, v in report.subagents.items()],
        ),
        _section(
            "Failure loops",
            _hbars(
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
            _hbars(
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
    counts_by_event = Counter({k: v for k, v in report.events.items()})
    warnings = "".join(f"<li>{escape(w)}</li>" for w in report.warnings[:20])
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<title>{escape(title)}</title><meta name="viewport" content="width=device-width">'
        f"<style>{STYLE}</style></head><body>"
        f'<header><h1>{escape(title)}</h1><p class="note">{escape(scope)} · {escape(span)}</p></header>'
        f'<section><div class="totals">{totals}</div></section>'
        f'{over_time}<div class="grid">{"".join(sections)}</div>'
        '<section id="events"><h2>Events (table view)</h2>'
        f'<p class="note">Latest {len(latest)} of {len(events)} events, newest first. '
        f"By event: {escape(', '.join(f'{k} {v}' for k, v in counts_by_event.most_common()))}</p>"
        f"{_table(['time (UTC)', 'event', 'agent', 'tool type', 'family', 'outcome', 'session'], rows)}</section>"
        + (f"<section><h2>Store warnings</h2><ul>{warnings}</ul></section>" if warnings else "")
        + "</body></html>\n"
    )


def write_page(path: str | os.PathLike[str], html: str) -> None:
    """Write ``html`` to ``path`` atomically (a reader sees the old page or the new one)."""
    from orkestra.atomic import write_atomic

    write_atomic(path, html)
