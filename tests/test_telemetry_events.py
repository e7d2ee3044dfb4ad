"""Every real-shaped hook payload becomes one stored event with the right labels (in-process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from orkestra.telemetry.hook import record_hook
from orkestra.telemetry.redact import MASK
from orkestra.telemetry.store import load_events

FIXTURES = Path(__file__).parent / "fixtures" / "hooks"
TS = "2026-03-01T10:00:00.000000Z"
CC = {"agent_tool": "claude-code"}
TOOL = {**CC, "permission_mode": "default"}

EXPECTED_LABELS = {
    "SessionStart": {
        **CC,
        "event": "SessionStart",
        "source": "startup",
        "model": "claude-sonnet-4-5",
        "outcome": "n/a",
    },
    "UserPromptSubmit": {**TOOL, "event": "UserPromptSubmit", "outcome": "n/a"},
    "PreToolUse-bash": {
        **TOOL,
        "event": "PreToolUse",
        "tool_name": "Bash",
        "tool_type": "bash",
        "bash_cli": "pytest",
        "outcome": "n/a",
    },
    "PostToolUse-bash": {
        **TOOL,
        "event": "PostToolUse",
        "tool_name": "Bash",
        "tool_type": "bash",
        "bash_cli": "pytest",
        "outcome": "success",
    },
    "PostToolUseFailure-bash": {
        **TOOL,
        "event": "PostToolUseFailure",
        "tool_name": "Bash",
        "tool_type": "bash",
        "bash_cli": "git",
        "outcome": "failure",
    },
    "PostToolUseFailure-interrupt": {
        **TOOL,
        "event": "PostToolUseFailure",
        "tool_name": "Bash",
        "tool_type": "bash",
        "bash_cli": "npm",
        "outcome": "interrupted",
    },
    "PreToolUse-mcp": {
        **TOOL,
        "event": "PreToolUse",
        "tool_name": "mcp__maguyva__find_symbol",
        "tool_type": "mcp",
        "mcp_server": "maguyva",
        "outcome": "n/a",
    },
    "PostToolUse-mcp": {
        **TOOL,
        "event": "PostToolUse",
        "tool_name": "mcp__maguyva__find_symbol",
        "tool_type": "mcp",
        "mcp_server": "maguyva",
        "outcome": "success",
    },
    "PostToolUse-read": {
        **TOOL,
        "event": "PostToolUse",
        "tool_name": "Read",
        "tool_type": "builtin",
        "outcome": "success",
    },
    "PostToolUse-skill": {
        **TOOL,
        "event": "PostToolUse",
        "tool_name": "Skill",
        "tool_type": "skill",
        "skill": "systematic-debugging",
        "outcome": "success",
    },
    "PreToolUse-agent": {
        **TOOL,
        "event": "PreToolUse",
        "tool_name": "Agent",
        "tool_type": "agent",
        "subagent_type": "code-reviewer",
        "outcome": "n/a",
    },
    "PermissionDenied": {
        **TOOL,
        "event": "PermissionDenied",
        "tool_name": "Bash",
        "tool_type": "bash",
        "bash_cli": "rm",
        "reason": "Denied by permission rule Bash(rm *)",
        "outcome": "failure",
    },
    "SubagentStart": {**CC, "event": "SubagentStart", "subagent_type": "code-reviewer", "outcome": "n/a"},
    "SubagentStop": {**CC, "event": "SubagentStop", "subagent_type": "code-reviewer", "outcome": "n/a"},
    "Notification": {
        **CC,
        "event": "Notification",
        "notification_type": "permission_prompt",
        "outcome": "n/a",
    },
    "PreCompact": {**CC, "event": "PreCompact", "trigger": "auto", "outcome": "n/a"},
    "Stop": {**CC, "event": "Stop", "outcome": "n/a"},
    "StopFailure": {**CC, "event": "StopFailure", "outcome": "failure"},
    "SessionEnd": {**CC, "event": "SessionEnd", "reason": "prompt_input_exit", "outcome": "n/a"},
}
HIGH_CARDINALITY = ("session_id", "prompt_id", "tool_use_id", "agent_id", "duration_ms", "tool_input", "cwd")


def fixture_payload(name: str, cwd: Path) -> str:
    payload = json.loads((FIXTURES / f"{name}.json").read_text())
    payload["cwd"] = str(cwd)
    return json.dumps(payload)


def test_every_fixture_has_expected_labels():
    names = {p.stem for p in FIXTURES.glob("*.json")} - {"codex-notify"}
    assert names == set(EXPECTED_LABELS)


@pytest.mark.parametrize("name", sorted(EXPECTED_LABELS))
def test_claude_code_payload_is_stored_with_its_labels(name, git_repo):
    recorded = record_hook(fixture_payload(name, git_repo / "src"), env={}, cwd=str(git_repo), ts=TS)
    assert Path(recorded.path) == git_repo / ".orkestra" / "telemetry" / "events-2026-03-01.jsonl"
    [stored] = load_events(Path(recorded.path).parent).events
    assert stored.labels == EXPECTED_LABELS[name]
    assert stored == recorded.event
    assert not set(HIGH_CARDINALITY) & set(stored.labels)
    assert stored.fields["session_id"] == "7f3c2a10-5b1e-4c6e-9d1a-2f4b8e6c0a11"


def test_tool_fields_keep_ids_duration_and_sizes_not_response_bodies(git_repo):
    recorded = record_hook(fixture_payload("PostToolUse-read", git_repo), env={}, cwd=str(git_repo), ts=TS)
    fields = recorded.event.fields
    assert fields["tool_use_id"] == "toolu_05Read"
    assert fields["duration_ms"] == 3
    assert "tool_response" not in fields
    assert fields["tool_response_chars"] > 100


def test_secrets_in_prompts_and_commands_are_redacted_before_storage(git_repo):
    prompt = record_hook(fixture_payload("UserPromptSubmit", git_repo), env={}, cwd=str(git_repo), ts=TS)
    push = record_hook(fixture_payload("PostToolUseFailure-bash", git_repo), env={}, cwd=str(git_repo), ts=TS)
    text = Path(prompt.path).read_text()
    assert "sk_test_51Habc" not in text
    assert "hunter2" not in text
    assert "ghp_aBcDeF" not in text
    assert prompt.event.fields["prompt"].endswith(f"STRIPE_SECRET_KEY={MASK} and password: {MASK}")
    assert push.event.fields["tool_input"]["command"] == (
        f"git push https://deploy:{MASK}@github.com/acme/shop.git main"
    )


def test_codex_notify_payload_maps_to_the_shared_schema(git_repo):
    raw = fixture_payload("codex-notify", git_repo)
    recorded = record_hook(raw, agent_tool="codex-cli", env={}, cwd="/", ts=TS)
    assert Path(recorded.path).parent == git_repo / ".orkestra" / "telemetry"
    assert recorded.event.labels == {
        "event": "agent-turn-complete",
        "agent_tool": "codex-cli",
        "client": "codex-tui",
        "outcome": "success",
    }
    assert recorded.event.fields == {
        "session_id": "0199a213-81c0-7800-8aa1-bbab2a035a53",
        "prompt_id": "12",
        "cwd": str(git_repo),
        "input_messages": ["Rename `foo` to `bar` and update the callsites."],
        "last_assistant_message_chars": 52,
    }


@pytest.mark.parametrize(
    "raw, reason",
    [
        ("{not json", "invalid JSON"),
        ("[1, 2]", "expected a JSON object, got list"),
        ('{"hello": "world"}', "no hook_event_name"),
        ("", "invalid JSON"),
    ],
)
def test_malformed_input_is_kept_as_a_malformed_event(raw, reason, git_repo):
    recorded = record_hook(raw, env={"CLAUDE_PROJECT_DIR": str(git_repo)}, cwd="/", ts=TS)
    assert recorded.event.labels == {"event": "malformed", "agent_tool": "claude-code", "outcome": "n/a"}
    assert recorded.event.fields["raw"] == raw
    assert recorded.event.fields["raw_chars"] == len(raw)
    assert recorded.event.fields["error"].startswith(reason)
    assert load_events(Path(recorded.path).parent).events == [recorded.event]


def test_codex_hooks_payloads_on_stdin_are_labelled_codex(git_repo):
    payload = {
        "session_id": "c1",
        "hook_event_name": "PostToolUse",
        "cwd": str(git_repo),
        "tool_name": "shell",
        "tool_input": {"command": "cargo test"},
        "tool_use_id": "call_1",
    }
    recorded = record_hook(json.dumps(payload), agent_tool="codex-cli", env={}, cwd="/", ts=TS)
    assert recorded.event.labels == {
        "event": "PostToolUse",
        "agent_tool": "codex-cli",
        "tool_name": "shell",
        "tool_type": "bash",
        "bash_cli": "cargo",
        "outcome": "success",
    }


def test_a_stale_claude_project_dir_falls_back_to_the_payload_cwd(git_repo, tmp_path):
    (git_repo / "sub").mkdir()
    recorded = record_hook(
        fixture_payload("Stop", git_repo / "sub"),
        env={"CLAUDE_PROJECT_DIR": str(tmp_path / "gone")},
        cwd="/",
        ts=TS,
    )
    assert Path(recorded.path).parent == git_repo / ".orkestra" / "telemetry"


def test_claude_project_dir_wins_over_the_payload_cwd(git_repo, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    recorded = record_hook(
        fixture_payload("Stop", elsewhere), env={"CLAUDE_PROJECT_DIR": str(git_repo)}, cwd="/", ts=TS
    )
    assert Path(recorded.path).parent == git_repo / ".orkestra" / "telemetry"
