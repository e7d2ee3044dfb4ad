"""The JSONL store: one line per event, never interleaved, git-ignored, read back with filters."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import UTC, datetime

from conftest import git

from orkestra.telemetry.events import Event
from orkestra.telemetry.store import MAX_LINE, append_event, encode_event, find_project_root, load_events

WRITER = """
import sys
from pathlib import Path
from orkestra.telemetry.events import Event
from orkestra.telemetry.store import append_event
worker, count, directory = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
for i in range(count):
    append_event(directory, Event(ts="2026-03-01T10:00:00.000000Z", labels={"event": "Stop"},
                                  fields={"session_id": worker, "n": i, "pad": worker * 6000}))
"""


def test_concurrent_writers_never_interleave_lines(tmp_path):
    directory = tmp_path / "store"
    workers = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(w), "150", str(directory)]) for w in range(4)
    ]
    assert [p.wait() for p in workers] == [0, 0, 0, 0]
    lines = (directory / "events-2026-03-01.jsonl").read_text().splitlines()
    events = [json.loads(line) for line in lines]  # a torn line would not parse
    assert len(events) == 600
    for w in range(4):
        mine = [e["fields"]["n"] for e in events if e["fields"]["session_id"] == str(w)]
        assert mine == list(range(150))
        assert all(e["fields"]["pad"] == str(w) * 6000 for e in events if e["fields"]["session_id"] == str(w))


def test_store_directory_is_created_git_ignored(git_repo):
    directory = git_repo / ".orkestra" / "telemetry"
    append_event(directory, Event(ts="2026-03-01T10:00:00.000000Z", labels={"event": "Stop"}, fields={}))
    assert git(git_repo, "status", "--porcelain", "--untracked-files=all") == ""


def test_project_root_is_found_by_walking_up(git_repo, tmp_path):
    deep = git_repo / "a" / "b"
    deep.mkdir(parents=True)
    assert find_project_root(deep) == str(git_repo)
    (git_repo / "a" / "orkestra.yaml").write_text("version: 1\n")
    assert find_project_root(deep) == str(git_repo / "a")
    loose = tmp_path / "loose"
    loose.mkdir()
    assert find_project_root(loose) == str(loose)


def test_oversize_events_keep_labels_and_small_fields_only():
    event = Event(
        ts="2026-03-01T10:00:00.000000Z",
        labels={"event": "PostToolUse", "tool_type": "mcp"},
        fields={"session_id": "s1", "duration_ms": 5, "tool_input": {"blob": ["x" * 1000] * 100}},
    )
    full = len(json.dumps(event.to_dict(), separators=(",", ":"))) + 1
    line = encode_event(event)
    assert full > MAX_LINE > len(line)
    assert json.loads(line) == {
        "ts": event.ts,
        "labels": event.labels,
        "fields": {"session_id": "s1", "duration_ms": 5, "truncated_bytes": full},
    }


def test_load_filters_by_time_and_session_and_reports_bad_lines(tmp_path):
    for ts, session in [
        ("2026-03-01T09:00:00.000000Z", "a"),
        ("2026-03-02T08:00:00.000000Z", "a"),
        ("2026-03-02T09:30:00.000000Z", "b"),
        ("2026-03-02T10:00:00.000000Z", "a"),
    ]:
        append_event(tmp_path, Event(ts=ts, labels={"event": "Stop"}, fields={"session_id": session}))
    with (tmp_path / "events-2026-03-02.jsonl").open("a") as handle:
        handle.write("{torn\n")
    since = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    loaded = load_events(tmp_path, since=since)
    assert [(e.ts[:16], e.fields["session_id"]) for e in loaded.events] == [
        ("2026-03-02T09:30", "b"),
        ("2026-03-02T10:00", "a"),
    ]
    [warning] = loaded.warnings
    assert warning.startswith(f"{tmp_path}/events-2026-03-02.jsonl:4:1: unreadable event line")
    assert [e.ts[:10] for e in load_events(tmp_path, session="a").events] == [
        "2026-03-01",
        "2026-03-02",
        "2026-03-02",
    ]
