"""A synthetic telemetry store with known counts, shared by the report tests and bench/bench_hooks.py.

10 sessions × 50 blocks × 20 events = 10,000 events. Per block: a prompt, then tool calls
git (ok), maguyva MCP (ok), github MCP (fails on even blocks), Read (ok), pytest (fails
except every 4th block: runs of 3 failures), the systematic-debugging skill, an Agent
call dispatching a code-reviewer subagent, npm (interrupted), then Stop. The last block
of each session has a malformed line in place of its prompt.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from orkestra.telemetry.events import Event, parse_payload, timestamp
from orkestra.telemetry.store import encode_event

SESSIONS, BLOCKS = 10, 50
START = datetime(2026, 3, 1, tzinfo=UTC)


def _block(session: str, block: int) -> list[dict | str]:
    def call(n: int, tool: str, tool_input: dict, event: str = "PostToolUse", **extra) -> list[dict]:
        base = {
            "session_id": session,
            "cwd": "/p",
            "tool_name": tool,
            "tool_input": tool_input,
            "tool_use_id": f"{session}-{block}-{n}",
        }
        return [{**base, "hook_event_name": "PreToolUse"}, {**base, "hook_event_name": event, **extra}]

    fail = {"event": "PostToolUseFailure", "error": "boom", "is_interrupt": False}
    prompt: dict | str = (
        {"session_id": session, "hook_event_name": "UserPromptSubmit", "prompt": "go"}
        if block < BLOCKS - 1
        else "{truncated payload"
    )
    agent_pre, agent_post = call(7, "Agent", {"subagent_type": "code-reviewer", "prompt": "review"})
    subagent = {"session_id": session, "agent_id": f"{session}-{block}-agent", "agent_type": "code-reviewer"}
    return [
        prompt,
        *call(1, "Bash", {"command": "git status"}),
        *call(2, "mcp__maguyva__find_symbol", {"symbol_name": "X"}),
        *call(3, "mcp__github__create_issue", {"title": "t"}, **(fail if block % 2 == 0 else {})),
        *call(4, "Read", {"file_path": "/p/a.py"}),
        *call(5, "Bash", {"command": "python -m pytest -x"}, **(fail if block % 4 != 3 else {})),
        *call(6, "Skill", {"skill": "systematic-debugging"}),
        agent_pre,
        {**subagent, "hook_event_name": "SubagentStart"},
        {**subagent, "hook_event_name": "SubagentStop", "stop_hook_active": False},
        agent_post,
        *call(
            8,
            "Bash",
            {"command": "npm run build"},
            event="PostToolUseFailure",
            error="Interrupted",
            is_interrupt=True,
        ),
        {"session_id": session, "hook_event_name": "Stop", "stop_hook_active": False},
    ]


def synthetic_events() -> list[Event]:
    """The 10,000 enriched events, one second apart from START."""
    payloads = [p for s in range(SESSIONS) for b in range(BLOCKS) for p in _block(f"s{s}", b)]
    return [
        parse_payload(p if isinstance(p, str) else json.dumps(p), timestamp(START + timedelta(seconds=i)))
        for i, p in enumerate(payloads)
    ]


def write_store(directory: Path) -> list[Event]:
    """Write the synthetic events into ``directory`` as a day file; return them."""
    events = synthetic_events()
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "events-2026-03-01.jsonl").write_bytes(b"".join(encode_event(e) for e in events))
    return events
