"""`telemetry report` figures, checked exactly against a generated 10k-event store."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from telemetry_synth import write_store

from orkestra.telemetry.events import parse_payload
from orkestra.telemetry.report import Loop, build_report, parse_since, report_project
from orkestra.telemetry.store import load_events


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    root = tmp_path_factory.mktemp("project")
    write_store(root / ".orkestra" / "telemetry")
    return root


def test_report_over_10k_events_has_the_exact_figures(synthetic):
    report = report_project(synthetic)
    assert report.time_range == {
        "first": "2026-03-01T00:00:00.000000Z",
        "last": "2026-03-01T02:46:39.000000Z",
    }
    assert report.totals == {
        "events": 10_000,
        "sessions": 10,
        "tool_calls": 4000,
        "failed_calls": 630,
        "malformed": 10,
    }
    assert report.events == {
        "PreToolUse": 4000,
        "PostToolUse": 2870,
        "PostToolUseFailure": 1130,
        "Stop": 500,
        "SubagentStart": 500,
        "SubagentStop": 500,
        "UserPromptSubmit": 490,
        "malformed": 10,
    }
    assert report.tool_mix == {"bash": 1500, "mcp": 1000, "agent": 500, "builtin": 500, "skill": 500}
    rows = [
        (f["family"], f["calls"], f["failures"], f["interrupted"], f["failure_rate"]) for f in report.families
    ]
    assert rows == [
        ("bash:pytest", 500, 380, 0, 0.76),
        ("mcp:github", 500, 250, 0, 0.5),
        ("Agent", 500, 0, 0, 0.0),
        ("Read", 500, 0, 0, 0.0),
        ("Skill", 500, 0, 0, 0.0),
        ("bash:git", 500, 0, 0, 0.0),
        ("bash:npm", 500, 0, 500, 0.0),
        ("mcp:maguyva", 500, 0, 0, 0.0),
    ]
    assert report.mcp_servers == [
        {"server": "github", "calls": 500, "share": 0.5},
        {"server": "maguyva", "calls": 500, "share": 0.5},
    ]
    assert report.skills == {"systematic-debugging": 500}
    assert report.subagents == {"code-reviewer": 500}
    assert report.agent_tools == {"claude-code": 10_000}
    assert report.warnings == []


def test_sessions_looping_on_failing_pytest_are_found(synthetic):
    loops = report_project(synthetic).loops
    assert len(loops) == 10 * 12  # runs of 3 in every 4 blocks; the final run of 2 is below the threshold
    assert {(lp.family, lp.failures) for lp in loops} == {("bash:pytest", 3)}
    assert loops[0] == Loop(
        session_id="s0",
        family="bash:pytest",
        failures=3,
        first="2026-03-01T00:00:09.000000Z",
        last="2026-03-01T00:00:49.000000Z",
    )


def test_since_and_session_filters(synthetic):
    now = datetime(2026, 3, 1, 2, 46, 40, tzinfo=UTC)
    assert report_project(synthetic, since="100s", now=now).totals["events"] == 100
    assert report_project(synthetic, since="2026-03-01T02:30:00Z").totals["events"] == 1000
    one = report_project(synthetic, session="s3")
    assert one.totals == {"events": 999, "sessions": 1, "tool_calls": 400, "failed_calls": 63, "malformed": 0}
    assert report_project(synthetic, since="1d", now=datetime(2026, 4, 1, tzinfo=UTC)).totals["events"] == 0


def test_parse_since_rejects_garbage():
    assert parse_since("2026-03-01") == datetime(2026, 3, 1, tzinfo=UTC)
    with pytest.raises(ValueError, match="--since"):
        parse_since("yesterday")


def events(*payloads: dict):
    return [parse_payload(json.dumps(p), f"2026-03-01T00:00:{i:02d}.000000Z") for i, p in enumerate(payloads)]


def bash(session: str, n: int, command: str, failed: bool | None, interrupt: bool = False) -> dict:
    base = {
        "session_id": session,
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": f"t{n}",
    }
    if failed is None:
        return {**base, "hook_event_name": "PreToolUse"}
    if failed:
        return {**base, "hook_event_name": "PostToolUseFailure", "error": "x", "is_interrupt": interrupt}
    return {**base, "hook_event_name": "PostToolUse"}


def test_a_success_or_interrupt_ends_a_failure_run_but_other_families_do_not():
    report = build_report(
        events(
            bash("a", 1, "git push", True),
            bash("a", 2, "ls", False),
            bash("a", 3, "git push", True),
            bash("a", 4, "git push", True),  # 3 consecutive git failures with an ls in between: a loop
            bash("b", 5, "make", True),
            bash("b", 6, "make", True),
            bash("b", 7, "make", True, interrupt=True),
            bash("b", 8, "make", True),  # the interrupt splits the run: no loop
            bash("b", 9, "cargo build", None),  # a call with no completion recorded
        )
    )
    assert report.loops == [
        Loop("a", "bash:git", 3, first="2026-03-01T00:00:00.000000Z", last="2026-03-01T00:00:03.000000Z")
    ]
    assert report.totals["tool_calls"] == 9
    assert {f["family"]: (f["calls"], f["failures"], f["failure_rate"]) for f in report.families} == {
        "bash:git": (3, 3, 1.0),
        "bash:make": (4, 3, 0.75),
        "bash:ls": (1, 0, 0.0),
        "bash:cargo": (1, 0, 0.0),
    }


def test_subagents_fall_back_to_agent_calls_without_subagent_events_and_codex_is_counted():
    report = build_report(
        [
            *events(
                {
                    "session_id": "a",
                    "hook_event_name": "PreToolUse",
                    "tool_name": "Task",
                    "tool_input": {"subagent_type": "Explore"},
                    "tool_use_id": "t1",
                },
                {
                    "session_id": "b",
                    "hook_event_name": "SubagentStart",
                    "agent_id": "x",
                    "agent_type": "Plan",
                },
                {"session_id": "b", "hook_event_name": "SubagentStop", "agent_id": "x", "agent_type": "Plan"},
                {
                    "session_id": "b",
                    "hook_event_name": "PostToolUse",
                    "tool_name": "Agent",
                    "tool_input": {"subagent_type": "Plan"},
                    "tool_use_id": "t2",
                },
            ),
            parse_payload(
                '{"type": "agent-turn-complete", "thread-id": "c"}',
                "2026-03-01T00:01:00.000000Z",
                agent_tool="codex-cli",
            ),
        ]
    )
    assert report.subagents == {"Explore": 1, "Plan": 1}
    assert report.agent_tools == {"claude-code": 4, "codex-cli": 1}
    assert report.totals["sessions"] == 3


def test_unreadable_store_lines_surface_as_warnings(tmp_path):
    directory = tmp_path / ".orkestra" / "telemetry"
    directory.mkdir(parents=True)
    (directory / "events-2026-03-01.jsonl").write_text('{"ts": "x"}\n')
    report = report_project(tmp_path)
    assert report.totals["events"] == 0
    assert report.warnings == [f"{directory}/events-2026-03-01.jsonl:1:1: unreadable event line ('labels')"]
    assert load_events(directory).events == []
