"""Hostile input for the institutional-memory features: why targets, registry paths, the hook, drafts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO, git
from memory_repo import make_memory_repo

from orkestra.errors import OrkestraError


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> Path:
    repo = tmp_path_factory.mktemp("why-security") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    make_memory_repo(repo)
    return repo


def test_why_refuses_a_symlink_leading_out_of_the_repository(shop, tmp_path):
    from orkestra.why.answer import why

    (tmp_path / "secret.py").write_text("KEY = 1\n")
    link = shop / "src" / "leak.py"
    link.symlink_to(tmp_path / "secret.py")
    try:
        with pytest.raises(OrkestraError, match="symlink leading out"):
            why(shop, "src/leak.py", index_lookup=False)
        with pytest.raises(OrkestraError, match=r"inside \.git"):
            why(shop, ".git/HEAD", index_lookup=False)
        with pytest.raises(OrkestraError, match="at most 1,000 characters"):
            why(shop, "a" * 5_000, index_lookup=False)
    finally:
        link.unlink()


def test_registry_paths_leaving_the_repository_are_reported_never_probed(tmp_path):
    from orkestra.why.lookup_build import build_lookup
    from orkestra.why.stale import stale_facts
    from orkestra.workspace import Workspace

    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    make_memory_repo(repo)
    truths = repo / "ai_assets/reference/ground_truths.yaml"
    truths.write_text(
        truths.read_text().replace(
            "evidence: [src/shop/notes.py]", "evidence: [../../../etc/passwd, /etc/hostname, .git/config]"
        )
    )
    ws = Workspace.load(repo)
    found = [d for d in stale_facts(ws, symbol_lookup=False) if d.field.startswith("statements.1.evidence")]
    assert [d.code for d in found] == ["outside-path"] * 3
    lookup = build_lookup(ws)
    assert not any(".." in path or path.startswith("/") for path in lookup["files"])


def _hook(payload: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "orkestra.why.hook"],
        check=False,
        input=payload,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=30,
        env={"PATH": os.environ["PATH"], "PYTHONPATH": str(REPO)},
    )


def test_hook_stays_silent_and_fast_on_hostile_payloads(shop, tmp_path):
    (shop / ".claude" / "orkestra").mkdir(parents=True, exist_ok=True)
    lookup = shop / ".claude" / "orkestra" / "memory.json"
    lookup.write_text(
        json.dumps(
            {
                "version": 1,
                "files": {"../outside.py": ["DEC-X"], "src/shop/pricing.py": ["DEC-X"]},
                "folders": {},
                "records": {
                    "DEC-X": {
                        "kind": "decision",
                        "status": "active",
                        "title": "t" * 50_000,
                        "do": [],
                        "avoid": [],
                    }
                },
            }
        )
    )
    (tmp_path / "outside.py").write_text("x\n")
    escape = shop / "src" / "escape.py"
    escape.symlink_to(tmp_path / "outside.py")
    try:
        cases = [
            json.dumps({"tool_name": "Read", "cwd": str(shop), "tool_input": {"file_path": str(escape)}}),
            json.dumps({"tool_name": "Read", "cwd": str(shop), "tool_input": {"file_path": "../outside.py"}}),
            json.dumps({"tool_name": "Read", "cwd": str(shop), "tool_input": {"file_path": ["a", "list"]}}),
            json.dumps({"tool_name": "Read", "cwd": "/nonexistent", "tool_input": {"file_path": "x"}}),
            "[1, 2, 3]",
            "x" * (3 << 20),  # a 3 MB non-JSON payload: read up to 1 MB, then dropped
        ]
        for payload in cases:
            start = time.perf_counter()
            result = _hook(payload, shop)
            assert result.returncode == 0, payload[:80]
            assert result.stdout == "", payload[:80]
            assert time.perf_counter() - start < 20
        covered = _hook(
            json.dumps(
                {"tool_name": "Edit", "cwd": str(shop), "tool_input": {"file_path": "src/shop/pricing.py"}}
            ),
            shop,
        )
        context = json.loads(covered.stdout)["hookSpecificOutput"]["additionalContext"]
        assert len(context) <= 2_000  # a huge record title is cut, never passed through whole
    finally:
        escape.unlink()
        lookup.unlink()


def test_a_proposed_draft_cannot_smuggle_fields_or_an_active_status(tmp_path):
    import yaml

    from orkestra.why.propose import propose_decision

    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    make_memory_repo(repo)
    result = propose_decision(
        repo,
        "PR",
        "Title\nstatus: active",
        "summary\nstatus: active\nid: DEC-PR-001",
        do=["x\n- injected"],
        files=["src/shop/pricing.py"],
    )
    record = yaml.safe_load((repo / result["path"]).read_text())
    assert (record["id"], record["status"]) == ("DEC-PR-004", "proposed")
    assert record["title"] == "Title status: active"  # one line; the YAML dumper quotes the rest
    assert record["agent_guidance"]["do"] == ["x\n- injected"]
    with pytest.raises(OrkestraError, match=r"inside \.git"):
        propose_decision(repo, "PR", "t", "s", files=[".git/config"])
    with pytest.raises(OrkestraError, match="at most 30 items"):
        propose_decision(repo, "PR", "t", "s", do=["x"] * 31)
    with pytest.raises(OrkestraError, match="not a commit sha"):
        propose_decision(repo, "PR", "t", "s", commits=["HEAD; rm -rf /"])
