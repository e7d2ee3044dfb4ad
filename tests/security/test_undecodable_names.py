"""File names that are not UTF-8: legal on Linux, found in old Latin-1 trees, and one ``touch`` away
in a hostile clone.

Python hands such a name over with surrogates (``caf\\udce9.py``), which neither SQLite nor a
hash's ``str.encode`` accepts. One such file used to stop ``maguyva index`` (and every later
incremental run) with a ``UnicodeEncodeError`` traceback, and one in ``registries/`` stopped
``sync``, ``system status`` and every listing the same way.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import git, run_cli

from maguyva.index.scan import scan_repository

LATIN1 = os.fsdecode(b"caf\xe9.py")


@pytest.fixture
def latin1_tree(git_repo: Path) -> Path:
    (git_repo / "ok.py").write_text("def plan_route(x):\n    return x\n")
    (git_repo / LATIN1).write_text("def latin():\n    return 1\n")
    git(git_repo, "add", "-A")
    git(git_repo, "commit", "-qm", "feat: a Latin-1 file name")
    return git_repo


def _index(repo: Path, *extra: str) -> dict:
    done = run_cli("index", "--format", "json", *extra, cwd=repo, program="maguyva")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return json.loads(done.stdout)


def test_the_index_skips_a_name_that_is_not_utf8_and_keeps_the_rest(latin1_tree: Path):
    report = _index(latin1_tree)
    assert report["files"] == 1
    assert report["skipped"] == 1
    assert {s.path: s.reason for s in scan_repository(latin1_tree).skipped} == {
        LATIN1: "file name is not valid UTF-8"
    }
    found = run_cli("symbol", "plan_route", "--format", "json", cwd=latin1_tree, program="maguyva")
    assert found.returncode == 0
    assert "ok.py:1" in found.stdout


def test_incremental_runs_over_the_name_change_nothing_and_do_not_fail(latin1_tree: Path):
    _index(latin1_tree)
    with open(latin1_tree / LATIN1, "a") as handle:  # git status now reports it: the quick path asks for it
        handle.write("x = 2\n")
    (latin1_tree / os.fsdecode(b"new\xff.py")).write_text("y = 1\n")  # untracked, not UTF-8 either
    assert _index(latin1_tree)["skipped"] == 2
    assert _index(latin1_tree, "--full")["files"] == 1
    status = run_cli("status", "--format", "json", cwd=latin1_tree, program="maguyva")
    assert status.returncode == 0
    assert "Traceback" not in status.stderr


def test_a_registry_file_name_that_is_not_utf8_is_reported_not_a_traceback(git_repo: Path):
    assert run_cli("init", cwd=git_repo).returncode == 0
    (git_repo / "registries" / "agents" / os.fsdecode(b"bad\xff.yaml")).write_text("name: bad\n")
    for command in (("validate",), ("sync", "--check"), ("system", "status"), ("agents", "list")):
        done = run_cli(*command, cwd=git_repo, env={"PYTHONIOENCODING": "utf-8"})
        assert "Traceback" not in done.stderr, (
            command,
            done.stderr,
        )
        assert "UnicodeEncodeError" not in done.stderr, (
            command,
            done.stderr,
        )
        assert done.returncode in (0, 1), (command, done.returncode)
    validated = run_cli("validate", cwd=git_repo, env={"PYTHONIOENCODING": "utf-8"})
    assert validated.returncode == 1
    assert "registries/agents/bad" in validated.stdout + validated.stderr
