"""Issue 31 class 11: concurrent `propose_decision` calls each take the next free id.

Several agents' MCP sessions (one stdio server each, or one HTTP server) proposing at once all saw
the same next id; every call but one failed with "already exists; propose again". Proposals now take
turns under a file lock in the state folder, and an id a lock-less writer takes meanwhile is skipped;
no record is ever overwritten.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import yaml
from conftest import git
from local_http import INITIALIZE, free_port, mcp_calls, wait_for_port
from memory_repo import make_memory_repo

from orkestra.why import propose

RECORDS = "ai_assets/reference/decisions/records"
FIRST = 4  # the memory repository holds DEC-PR-001..003


@pytest.fixture
def workspace(tmp_path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    make_memory_repo(repo)
    return repo


def _args(n: int) -> dict:
    return {"domain": "pricing", "title": f"Proposal number {n}", "summary": f"Summary {n}."}


def _records(repo: Path) -> dict[str, str]:
    """Each proposed record's id → its title (the file's id field must match its name)."""
    found = {}
    for path in sorted((repo / RECORDS).glob("DEC-PR-*.yaml")):
        record = yaml.safe_load(path.read_text())
        assert record["id"] == path.stem
        if record["status"] == "proposed":
            found[record["id"]] = record["title"]
    return found


def _expect_consecutive(repo: Path, count: int, titles: set[str]) -> None:
    records = _records(repo)
    assert sorted(records) == [f"DEC-PR-{n:03d}" for n in range(FIRST, FIRST + count)], records
    assert set(records.values()) == titles


class Stdio:
    def __init__(self, repo: Path):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "orkestra", "serve", "--root", str(repo)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.send(INITIALIZE)
        assert self.reply()["id"] == 1
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def send(self, message: dict) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def reply(self) -> dict:
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], 120)
        assert ready, "no reply"
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.communicate(timeout=30)


def test_concurrent_stdio_sessions_each_take_the_next_id(workspace):
    """Before: one record, and 'DEC-PR-004.yaml already exists; propose again' for the others."""
    sessions = [Stdio(workspace) for _ in range(6)]
    try:
        for n, session in enumerate(sessions):  # all sent before any answer is read
            session.send(
                {
                    "jsonrpc": "2.0",
                    "id": 2,
                    "method": "tools/call",
                    "params": {"name": "propose_decision", "arguments": _args(n)},
                }
            )
        replies = [session.reply() for session in sessions]
    finally:
        for session in sessions:
            session.close()
    for reply in replies:
        assert not reply["result"].get("isError"), reply
    ids = sorted(reply["result"]["structuredContent"]["id"] for reply in replies)
    assert ids == [f"DEC-PR-{n:03d}" for n in range(FIRST, FIRST + 6)]
    _expect_consecutive(workspace, 6, {f"Proposal number {n}" for n in range(6)})


def test_concurrent_http_sessions_each_take_the_next_id(workspace):
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "orkestra", "serve", "--http", "--port", str(port), "--root", str(workspace)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    results: dict[int, object] = {}

    def one(n: int) -> None:
        (results[n],) = mcp_calls(f"http://127.0.0.1:{port}/mcp", None, [("propose_decision", _args(n))])

    try:
        assert wait_for_port(port, server)
        threads = [threading.Thread(target=one, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
    finally:
        server.terminate()
        server.communicate(timeout=20)
    assert len(results) == 8, results
    assert not any(r.is_error for r in results.values()), results
    _expect_consecutive(workspace, 8, {f"Proposal number {n}" for n in range(8)})


def test_library_calls_from_many_processes_each_take_the_next_id(workspace, tmp_path):
    """Eight processes released at once by a shared file."""
    go = tmp_path / "go"
    script = (
        "import os, sys, time\n"
        "from orkestra.why.propose import propose_decision\n"
        "while not os.path.exists(sys.argv[2]): time.sleep(0.005)\n"
        "n = int(sys.argv[3])\n"
        "print(propose_decision(sys.argv[1], 'pricing', f'Proposal number {n}', f'Summary {n}.')['id'])\n"
    )
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(workspace), str(go), str(n)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(8)
    ]
    go.write_text("")
    outcomes = [worker.communicate(timeout=120) for worker in workers]
    assert all(worker.returncode == 0 for worker in workers), [err for _, err in outcomes]
    assert sorted(out.strip() for out, _ in outcomes) == [f"DEC-PR-{n:03d}" for n in range(FIRST, FIRST + 8)]
    _expect_consecutive(workspace, 8, {f"Proposal number {n}" for n in range(8)})


def test_an_id_taken_by_a_writer_without_the_lock_is_skipped_never_overwritten(workspace, monkeypatch):
    """A person (or `decisions new`) writes DEC-PR-004 just after our id was chosen."""
    planted = workspace / RECORDS / "DEC-PR-004.yaml"
    original = propose._create_exclusive

    def racing(target: Path, text: str) -> bool:
        if not planted.exists():
            planted.write_text("id: DEC-PR-004\ntitle: written by hand\n")
        return original(target, text)

    monkeypatch.setattr(propose, "_create_exclusive", racing)
    made = propose.propose_decision(workspace, "pricing", "Proposal number 9", "Summary 9.")
    assert made["id"] == "DEC-PR-005"
    assert planted.read_text() == "id: DEC-PR-004\ntitle: written by hand\n"
    assert yaml.safe_load((workspace / made["path"]).read_text())["title"] == "Proposal number 9"


def test_the_lock_lives_in_the_state_folder_and_never_through_a_link(workspace, tmp_path):
    made = propose.propose_decision(workspace, "pricing", "Proposal number 1", "Summary 1.")
    assert (workspace / ".orkestra" / propose.PROPOSE_LOCK).exists()
    assert made["id"] == "DEC-PR-004"
    outside = tmp_path / "outside"
    outside.mkdir()
    (workspace / ".orkestra" / propose.PROPOSE_LOCK).unlink()
    os.symlink(outside / "x.lock", workspace / ".orkestra" / propose.PROPOSE_LOCK)
    with pytest.raises(Exception, match="link"):
        propose.propose_decision(workspace, "pricing", "Proposal number 2", "Summary 2.")
    assert not (outside / "x.lock").exists()


def test_decisions_new_and_propose_decision_at_once_never_share_an_id(workspace, tmp_path):
    """`orkestra decisions new` takes the same lock (before: it checked, then replaced the file: two
    runs at once wrote one id twice, the second overwriting the first)."""
    go = tmp_path / "go"
    script = (
        "import os, sys, time\n"
        "while not os.path.exists(sys.argv[2]): time.sleep(0.005)\n"
        "if sys.argv[3] == 'new':\n"
        "    from orkestra.inspect.api import new_decision\n"
        "    print(new_decision(sys.argv[1], 'pricing', False)['id'])\n"
        "else:\n"
        "    from orkestra.why.propose import propose_decision\n"
        "    print(propose_decision(sys.argv[1], 'pricing', 'Proposal number 1', 'Summary.')['id'])\n"
    )
    kinds = ["new"] * 6 + ["propose"] * 2
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(workspace), str(go), kind],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for kind in kinds
    ]
    go.write_text("")
    outcomes = [worker.communicate(timeout=120) for worker in workers]
    assert all(worker.returncode == 0 for worker in workers), [err for _, err in outcomes]
    ids = sorted(out.strip() for out, _ in outcomes)
    assert ids == [f"DEC-PR-{n:03d}" for n in range(FIRST, FIRST + 8)]
    written = {path.stem for path in (workspace / RECORDS).glob("DEC-PR-*.yaml")}
    assert set(ids) <= written
