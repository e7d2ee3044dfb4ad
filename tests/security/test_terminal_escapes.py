"""Terminal escapes and rich markup from a cloned repository are shown, never obeyed.

A commit subject, a file name or an argument reaches our tables, text and ``CHANGELOG.md``. Before,
an ESC sequence in one (``\\x1b]52;c;…`` writes the clipboard, ``\\x1b]0;…\\x07`` the window title,
``\\x1b[2J`` clears the screen) went to the terminal as is and into the committed changelog, a
carriage return overwrote the line before it, and rich read ``[link=https://…]`` in a table cell
as markup and printed a live hyperlink. JSON output was already safe: it escapes controls itself.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from clirun import run_cli
from conftest import git

RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
SUBJECT = "feat: \x1b]52;c;cHduZWQ=\x07copied \x1b[2Jcleared \x9b31m c1 safe\rEVIL [link=https://evil.example]click[/link]"


@pytest.fixture
def hostile_history(git_repo: Path) -> Path:
    assert run_cli("init", cwd=git_repo).returncode == 0
    (git_repo / "a.py").write_text("def plan_route(x):\n    return x\n")
    os.symlink("a.py", git_repo / "esc\x1b[31m.py")  # a file name with an escape in it
    git(git_repo, "add", "-A")
    subprocess.run(
        ["git", "commit", "-q", "-F", "-"],
        cwd=git_repo,
        input=SUBJECT.encode(),
        check=True,
        env={
            **os.environ,
            "GIT_AUTHOR_NAME": "A",
            "GIT_AUTHOR_EMAIL": "a@example.com",
            "GIT_COMMITTER_NAME": "A",
            "GIT_COMMITTER_EMAIL": "a@example.com",
        },
    )
    return git_repo


def test_the_changelog_writes_escapes_not_controls(hostile_history: Path):
    done = run_cli("mine", "auto", cwd=hostile_history)
    assert done.returncode == 0, done.stderr
    changelog = (hostile_history / "CHANGELOG.md").read_text(encoding="utf-8")
    assert RAW_CONTROL.search(changelog) is None
    # CR: whitespace there
    assert "\\x1b]52;c;cHduZWQ=\\x07copied" in changelog
    assert "safe EVIL" in changelog
    assert "\\x9b31m" in changelog


@pytest.mark.parametrize("fmt", ["table", "text"])
def test_listings_for_people_show_escapes_and_markup_as_text(hostile_history: Path, fmt: str):
    assert run_cli("mine", "sync", cwd=hostile_history).returncode == 0
    done = run_cli("mine", "candidates", "--format", fmt, cwd=hostile_history, env={"COLUMNS": "400"})
    assert done.returncode == 0, done.stderr
    assert RAW_CONTROL.search(done.stdout.replace("\n", "")) is None
    assert "\\x1b[2Jcleared" in done.stdout
    if fmt == "table":  # rich's markup is off: the brackets are text, no hyperlink is made
        assert "[link=https://evil.example]click[/link]" in done.stdout


def test_json_output_is_unchanged(hostile_history: Path):
    assert run_cli("mine", "sync", cwd=hostile_history).returncode == 0
    done = run_cli("mine", "candidates", "--format", "json", cwd=hostile_history)
    assert done.returncode == 0, done.stderr
    subjects = [c["subject"] for c in json.loads(done.stdout)["candidates"]]
    assert any(
        s.startswith("feat: \x1b]52;c;cHduZWQ=\x07copied") for s in subjects
    )  # the raw text, escaped by JSON


def test_code_listings_and_errors_show_escapes(hostile_history: Path):
    assert run_cli("index", cwd=hostile_history, program="maguyva").returncode == 0
    done = run_cli(
        "code", "search", "plan_route", "--format", "table", cwd=hostile_history, env={"COLUMNS": "300"}
    )
    assert done.returncode == 0, done.stderr
    assert "\x1b[31m" not in done.stdout
    error = run_cli("agents", "info", "x\x1b]0;owned\x07", cwd=hostile_history)
    assert error.returncode == 1
    assert "\x1b" not in error.stderr
    assert "\\x1b]0;owned\\x07" in error.stderr
