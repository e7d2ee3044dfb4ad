"""Hostile hook input (issue #14 item 17): bad bytes, bombs and huge strings are stored, fast.

Every input below reaches the real ``orkestra-hook`` console script on stdin (or argv for
Codex) in a subprocess. Each must leave exactly one line in the store — a ``malformed`` event
holding the raw text (truncated, redacted) when the payload cannot be read as one — exit 0 with
nothing on stdout, and stay within the handler's time budget: measured against a benign payload
of the same size in the same run, never against a wall-clock constant.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from orkestra.telemetry.events import parse_payload
from orkestra.telemetry.hook import record_hook
from orkestra.telemetry.redact import MASK, redact, redact_text
from orkestra.telemetry.store import MAX_LINE, encode_event, load_events

HOOK = str(Path(sys.executable).parent / "orkestra-hook")
TS = "2026-03-01T10:00:00.000000Z"
STOP = '{"hook_event_name":"Stop","session_id":"s1"'


def nested(depth: int) -> bytes:
    return (STOP + ',"tool_input":' + "[" * depth + "]" * depth + "}").encode()


def many_keys(count: int) -> bytes:
    return (STOP + ',"tool_input":{' + ",".join(f'"k{i}":{i}' for i in range(count)) + "}}").encode()


HOSTILE: dict[str, tuple[bytes, str]] = {
    "invalid-utf8": (STOP.encode() + b',"cwd":"/tmp/\xff\xfe\xc3("}', "invalid UTF-8"),
    "lone-surrogate": ((STOP + r',"prompt":"\ud800 alone"}').encode(), "lone surrogate"),
    "utf16": ((STOP + "}").encode("utf-16"), "UTF-16"),
    "utf16-no-bom": ((STOP + "}").encode("utf-16-le"), "UTF-16"),
    "nested-900": (nested(900), "nested deeper than"),
    "nested-100k": (nested(100_000), "nested deeper than"),
    "100k-keys": (many_keys(100_000), "more than"),
}


def run_hook(repo: Path, data: bytes, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([HOOK, *args], input=data, capture_output=True, cwd=repo, timeout=60, check=False)


def stored(repo: Path) -> list:
    loaded = load_events(repo / ".orkestra" / "telemetry")
    assert loaded.warnings == []
    return loaded.events


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_unreadable_payload_is_stored_as_malformed_not_lost(name, git_repo):
    data, reason = HOSTILE[name]
    result = run_hook(git_repo, data)
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    [event] = stored(git_repo)
    assert event.name == "malformed"
    assert reason in event.fields["error"]
    assert event.fields["raw_chars"] > 0
    assert len(event.fields["raw"]) <= 2100
    assert "hook_event_name" in event.fields["raw"]  # the raw text is kept for inspection


def test_codex_argv_with_undecodable_bytes_is_stored_as_malformed(git_repo):
    # Python decodes argv with surrogateescape: a bad byte arrives as a lone surrogate.
    result = subprocess.run(
        [HOOK.encode(), b"codex-notify", b'{"type":"agent-turn-complete","x":"\xff"}'],
        capture_output=True,
        cwd=git_repo,
        timeout=60,
        check=False,
    )
    assert (result.returncode, result.stdout, result.stderr) == (0, b"", b"")
    [event] = stored(git_repo)
    assert (event.name, event.labels["agent_tool"]) == ("malformed", "codex-cli")
    assert "lone surrogate" in event.fields["error"]


def test_encode_event_never_recurses_without_bound():
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    event = parse_payload(STOP + "}", TS)._replace(fields={"session_id": "s1", "blob": deep, "bad": "\udc80"})
    line = encode_event(event)
    assert line.endswith(b"\n")
    assert len(line) <= MAX_LINE
    back = json.loads(line)
    assert back["labels"]["event"] == "Stop"
    assert back["fields"]["session_id"] == "s1"


def test_huge_strings_are_capped_in_labels_and_fields(git_repo):
    payload = {
        "hook_event_name": "PreToolUse",
        "session_id": "s" * 200_000,
        "tool_name": "mcp__" + "x" * 100_000,
        "tool_input": {"command": "y" * 300_000, "k" * 50_000: 1},
    }
    recorded = record_hook(json.dumps(payload), env={}, cwd=str(git_repo), ts=TS)
    [event] = stored(git_repo)
    assert event == recorded.event
    assert all(len(value) <= 200 for value in event.labels.values())
    assert len(event.fields["session_id"]) <= 2100
    assert all(len(key) <= 200 for key in event.fields["tool_input"])


def _best_of(runs: int, action) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def test_redaction_is_linear_in_the_size_of_the_input():
    token = "A" * 40_000  # one unbroken 40 KB token: the old patterns backtracked over it
    lower = "b" * 40_000
    floor = _best_of(3, lambda: redact_text("x " * 20_000))  # 40 KB of ordinary words
    assert _best_of(3, lambda: redact_text(token)) < 20 * floor + 0.002
    assert _best_of(3, lambda: redact_text(lower)) < 20 * floor + 0.002
    assert _best_of(3, lambda: redact({"session_id": "S" * 200_000})) < 20 * floor + 0.002
    # a secret straddling the cut is still masked
    assert "abcdef" not in redact_text("A" * 1985 + " sk-proj-abcdefghijklmnopqrstuvwxyz")
    assert redact_text("A" * 1900 + " OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwxyz").count(MASK) == 1


def _parse_floor(text: str) -> None:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        pass


def test_the_time_budget_holds_whatever_the_input(git_repo):
    """Each hostile payload costs about what parsing it plus a benign payload of its size costs."""
    store = str(git_repo / "store")
    for name, (data, _) in sorted(HOSTILE.items()):
        text = data.decode("utf-8", "replace")
        benign = json.dumps({"hook_event_name": "Stop", "session_id": "s1", "note": "w " * (len(text) // 2)})
        floor = _best_of(
            2, lambda benign=benign: record_hook(benign, store_dir=store, env={}, cwd=str(git_repo))
        ) + _best_of(2, lambda text=text: _parse_floor(text))
        cost = _best_of(2, lambda data=data: record_hook(data, store_dir=store, env={}, cwd=str(git_repo)))
        assert cost < 5 * floor + 0.005, (name, cost, floor)
    for hostile in (
        {"session_id": "S" * 200_000},
        {"tool_input": {"token": "A" * 40_000, "cmd": "b" * 40_000}},
    ):
        text = json.dumps({"hook_event_name": "PreToolUse", "tool_name": "Bash", **hostile})
        benign = json.dumps({"hook_event_name": "Stop", "note": "w " * (len(text) // 2)})
        floor = _best_of(
            2, lambda benign=benign: record_hook(benign, store_dir=store, env={}, cwd=str(git_repo))
        )
        cost = _best_of(2, lambda text=text: record_hook(text, store_dir=store, env={}, cwd=str(git_repo)))
        assert cost < 10 * floor + 0.005, (sorted(hostile), cost, floor)
