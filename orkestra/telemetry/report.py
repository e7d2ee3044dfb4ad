"""Stored events → the answers the telemetry is for (pure; ``report_project`` reads the store).

Which tool types a session used, which tool families fail most, which MCP servers and
skills it leaned on, which subagent types were dispatched, and which sessions looped on
the same failing call. A tool *call* merges its PreToolUse and completion events by
``tool_use_id``; its outcome comes from the completion (PostToolUse, PostToolUseFailure,
PermissionDenied), or is ``n/a`` when none was recorded.
"""

from __future__ import annotations

import os
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from orkestra.telemetry.events import MALFORMED, Event
from orkestra.telemetry.project import store_dir_for
from orkestra.telemetry.store import load_events

LOOP_THRESHOLD = 3  # consecutive failures of one family in one session
COMPLETIONS = frozenset({"PostToolUse", "PostToolUseFailure", "PermissionDenied"})
SUBAGENT_EVENTS = frozenset({"SubagentStart", "SubagentStop"})
UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


def parse_since(text: str, now: datetime | None = None) -> datetime:
    """``90s``, ``30m``, ``1h``, ``2d``, ``1w`` before ``now``, or an ISO date/datetime (UTC if naive)."""
    now = now or datetime.now(UTC)
    match = re.fullmatch(r"\s*(\d+)\s*([smhdw])\s*", text)
    if match:
        return now - timedelta(**{UNITS[match[2]]: int(match[1])})
    try:
        moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        expected = "a duration like 1h, 30m, 2d or an ISO date"
        raise ValueError(f"--since: expected {expected}, got {text!r}") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call, its Pre and completion events merged."""

    session_id: str
    ts: str
    family: str
    tool_type: str
    outcome: str
    mcp_server: str | None = None
    skill: str | None = None
    subagent_type: str | None = None


def family_of(labels: dict[str, str]) -> str:
    """The failure-rate grouping: ``bash:git``, ``mcp:maguyva``, else the tool name (Read, Skill...)."""
    if labels.get("tool_type") == "bash":
        return f"bash:{labels.get('bash_cli', '?')}"
    if labels.get("tool_type") == "mcp":
        return f"mcp:{labels.get('mcp_server', '?')}"
    return labels.get("tool_name", "?")


def tool_calls(events: Iterable[Event]) -> list[ToolCall]:
    """Tool events merged into calls, in the order their first event was seen."""
    merged: dict[tuple[str, str], tuple[Event, Event | None]] = {}
    for index, event in enumerate(events):
        if "tool_type" not in event.labels:
            continue
        session = str(event.fields.get("session_id", ""))
        key = (session, str(event.fields.get("tool_use_id") or f"#{index}"))
        first, completion = merged.get(key, (event, None))
        merged[key] = (first, event if event.name in COMPLETIONS else completion)
    calls = []
    for (session, _), (first, completion) in merged.items():
        labels = {**first.labels, **(completion.labels if completion else {})}
        calls.append(
            ToolCall(
                session_id=session,
                ts=first.ts,
                family=family_of(labels),
                tool_type=labels["tool_type"],
                outcome=labels["outcome"] if completion else "n/a",
                mcp_server=labels.get("mcp_server"),
                skill=labels.get("skill"),
                subagent_type=labels.get("subagent_type"),
            )
        )
    return calls


@dataclass(frozen=True, slots=True)
class Loop:
    """A run of consecutive failing calls of one family in one session."""

    session_id: str
    family: str
    failures: int
    first: str
    last: str


def find_loops(calls: Iterable[ToolCall], threshold: int = LOOP_THRESHOLD) -> list[Loop]:
    """Runs of ≥ ``threshold`` failures of the same family in a session; a success or interrupt ends a run."""
    runs: dict[tuple[str, str], list[ToolCall]] = defaultdict(list)
    loops: list[Loop] = []

    def close(key: tuple[str, str]) -> None:
        run = runs.pop(key, [])
        if len(run) >= threshold:
            loops.append(
                Loop(session_id=key[0], family=key[1], failures=len(run), first=run[0].ts, last=run[-1].ts)
            )

    for call in sorted(calls, key=lambda c: c.ts):
        key = (call.session_id, call.family)
        if call.outcome == "failure":
            runs[key].append(call)
        elif call.outcome != "n/a":
            close(key)
    for key in list(runs):
        close(key)
    return sorted(loops, key=lambda loop: (loop.first, loop.session_id, loop.family))


def _subagents(events: list[Event], calls: list[ToolCall]) -> Counter[str]:
    """Dispatches per subagent type: distinct agent ids from Subagent events, else Agent tool calls."""
    dispatched: dict[tuple[str, str], str] = {}
    for index, event in enumerate(events):
        if event.name in SUBAGENT_EVENTS:
            session = str(event.fields.get("session_id", ""))
            agent = str(event.fields.get("agent_id") or f"#{index}")
            dispatched[(session, agent)] = event.labels.get("subagent_type", "?")
    counts = Counter(dispatched.values())
    seen_sessions = {session for session, _ in dispatched}
    counts.update(
        c.subagent_type or "?" for c in calls if c.tool_type == "agent" and c.session_id not in seen_sessions
    )
    return counts


@dataclass(frozen=True, slots=True)
class Report:
    """Everything ``orkestra telemetry report`` prints (shape documented in docs/cli.md)."""

    time_range: dict[str, str | None]
    totals: dict[str, int]
    events: dict[str, int]
    agent_tools: dict[str, int]
    tool_mix: dict[str, int]
    families: list[dict[str, Any]]
    mcp_servers: list[dict[str, Any]]
    skills: dict[str, int]
    subagents: dict[str, int]
    loops: list[Loop]
    warnings: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _sorted_counts(counter: Counter[str]) -> dict[str, int]:
    return dict(sorted(counter.items(), key=lambda item: (-item[1], item[0])))


def _families(calls: list[ToolCall]) -> list[dict[str, Any]]:
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    kinds: dict[str, str] = {}
    for call in calls:
        rows[call.family][call.outcome] += 1
        kinds[call.family] = call.tool_type
    table = []
    for family, outcomes in rows.items():
        completed = outcomes.total() - outcomes["n/a"]
        table.append(
            {
                "family": family,
                "tool_type": kinds[family],
                "calls": outcomes.total(),
                "failures": outcomes["failure"],
                "interrupted": outcomes["interrupted"],
                "failure_rate": round(outcomes["failure"] / completed, 4) if completed else 0.0,
            }
        )
    return sorted(table, key=lambda r: (-r["failure_rate"], -r["failures"], -r["calls"], r["family"]))


def _mcp_servers(calls: list[ToolCall]) -> list[dict[str, Any]]:
    counts = Counter(c.mcp_server or "?" for c in calls if c.tool_type == "mcp")
    total = counts.total()
    return [
        {"server": server, "calls": n, "share": round(n / total, 4)}
        for server, n in _sorted_counts(counts).items()
    ]


FAMILY_COLUMNS = ["family", "type", "calls", "failures", "interrupted", "failure rate"]
SERVER_COLUMNS = ["server", "calls", "share"]


def family_rows(families: list[dict[str, Any]]) -> list[list]:
    """``Report.families`` as table rows under FAMILY_COLUMNS (the CLI table and the HTML page)."""
    return [
        [r["family"], r["tool_type"], r["calls"], r["failures"], r["interrupted"], f"{r['failure_rate']:.1%}"]
        for r in families
    ]


def server_rows(servers: list[dict[str, Any]]) -> list[list]:
    """``Report.mcp_servers`` as table rows under SERVER_COLUMNS."""
    return [[r["server"], r["calls"], f"{r['share']:.1%}"] for r in servers]


def build_report(
    events: list[Event], warnings: list[str] | None = None, loop_threshold: int = LOOP_THRESHOLD
) -> Report:
    """Aggregate ``events`` (already filtered by time and session) into a Report."""
    calls = tool_calls(events)
    sessions = {e.fields.get("session_id") for e in events} - {None, ""}
    return Report(
        time_range={"first": events[0].ts if events else None, "last": events[-1].ts if events else None},
        totals={
            "events": len(events),
            "sessions": len(sessions),
            "tool_calls": len(calls),
            "failed_calls": sum(c.outcome == "failure" for c in calls),
            "malformed": sum(e.name == MALFORMED for e in events),
        },
        events=_sorted_counts(Counter(e.name for e in events)),
        agent_tools=_sorted_counts(Counter(e.labels.get("agent_tool", "?") for e in events)),
        tool_mix=_sorted_counts(Counter(c.tool_type for c in calls)),
        families=_families(calls),
        mcp_servers=_mcp_servers(calls),
        skills=_sorted_counts(Counter(c.skill or "?" for c in calls if c.tool_type == "skill")),
        subagents=_sorted_counts(_subagents(events, calls)),
        loops=find_loops(calls, loop_threshold),
        warnings=list(warnings or []),
    )


def project_events(
    root: str | os.PathLike[str],
    since: str | None = None,
    session: str | None = None,
    store_dir: str | None = None,
    now: datetime | None = None,
) -> tuple[str, list[Event], list[str]]:
    """(store directory, events, warnings) of the project's store (``telemetry.store_dir`` unless given)."""
    directory = store_dir_for(Path(root), store_dir)
    loaded = load_events(directory, parse_since(since, now) if since else None, session)
    if session and not loaded.events:  # a typo, or a session that only lies outside --since?
        known = {str(e.fields.get("session_id", "")) for e in load_events(directory).events} - {""}
        if session not in known:
            from orkestra.errors import NotFoundError

            raise NotFoundError("session", session, sorted(known))
    return directory, loaded.events, loaded.warnings


def report_project(
    root: str | os.PathLike[str],
    since: str | None = None,
    session: str | None = None,
    store_dir: str | None = None,
    now: datetime | None = None,
) -> Report:
    """Read the project's store (``telemetry.store_dir`` unless given) and build its Report."""
    _, events, warnings = project_events(root, since, session, store_dir, now)
    return build_report(events, warnings)
