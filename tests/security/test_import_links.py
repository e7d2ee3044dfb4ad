"""`orkestra import` never reads through a folder linked out of the repository.

Before: only the file itself was checked, so `.claude -> ~/.claude` (or `.claude/agents`, `.claude/commands`,
`.cursor/rules`, a skills folder) copied private agents, commands and rules into `registries/`, ready to be
committed. Every folder on the way is now checked by the workspace's one resolver (``Containment``), the
file is opened with ``O_NOFOLLOW`` and must be a regular file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import run_cli

SECRET = "PRIVATE-HOME-CONTENT"


def home(tmp_path: Path) -> Path:
    """A user's private ~/.claude and ~/.cursor/rules, outside the repository."""
    base = tmp_path / "home"
    for folder in (".claude/agents", ".claude/commands", ".claude/skills/private-skill", ".cursor/rules"):
        (base / folder).mkdir(parents=True)
    (base / ".claude/agents/personal.md").write_text(
        f"---\nname: personal\ndescription: mine\n---\n{SECRET}\n"
    )
    (base / ".claude/commands/deploy.md").write_text(f"---\ndescription: mine\n---\n{SECRET}\n")
    (base / ".claude/skills/private-skill/SKILL.md").write_text(
        f"---\nname: private-skill\ndescription: Use when mine.\n---\n{SECRET}\n"
    )
    (base / ".cursor/rules/house.mdc").write_text(f"---\ndescription: mine\n---\n{SECRET}\n")
    return base


@pytest.fixture
def repo(git_repo: Path) -> Path:
    assert run_cli("init", "--minimal", cwd=git_repo).returncode == 0
    return git_repo


def imported(repo: Path) -> dict:
    result = run_cli("import", "--format", "json", cwd=repo)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def leaked(repo: Path) -> list[str]:
    return [
        p.relative_to(repo).as_posix()
        for p in (repo / "registries").rglob("*")
        if p.is_file() and SECRET in p.read_text(errors="replace")
    ]


@pytest.mark.parametrize(
    ("link", "target"),
    [
        (".claude", ".claude"),
        (".claude/agents", ".claude/agents"),
        (".claude/commands", ".claude/commands"),
        (".claude/skills", ".claude/skills"),
        (".cursor/rules", ".cursor/rules"),
        (".cursor", ".cursor"),
        (".agents/skills", ".claude/skills"),
    ],
)
def test_a_folder_linked_out_of_the_repository_is_never_read(repo: Path, tmp_path: Path, link, target):
    outside = home(tmp_path)
    (repo / link).parent.mkdir(parents=True, exist_ok=True)
    (repo / link).symlink_to(outside / target, target_is_directory=True)
    report = imported(repo)
    assert leaked(repo) == []
    assert report["items"] == []
    assert any(s["path"] == link and "outside" in s["reason"] for s in report["skipped"]), report["skipped"]


def test_a_link_two_levels_up_from_the_file_is_caught_too(repo: Path, tmp_path: Path):
    """`.claude` is a real folder, `agents` inside it a link, the file inside that a plain file."""
    outside = home(tmp_path)
    (repo / ".claude").mkdir()
    (repo / ".claude/agents").symlink_to(outside / ".claude/agents", target_is_directory=True)
    (repo / ".claude/commands").mkdir()
    (repo / ".claude/commands/review.md").write_text("---\ndescription: Review.\n---\nReview the diff.\n")
    report = imported(repo)
    assert leaked(repo) == []
    assert [i["name"] for i in report["items"]] == ["review"]  # the rest still imports


def test_a_folder_linked_inside_a_skill_is_left_out(repo: Path, tmp_path: Path):
    outside = home(tmp_path)
    skill = repo / ".claude/skills/release-notes"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: release-notes\ndescription: Use when releasing.\n---\nBody.\n"
    )
    (skill / "references").symlink_to(outside / ".claude/agents", target_is_directory=True)
    (skill / "notes.md").symlink_to(outside / ".cursor/rules/house.mdc")
    report = imported(repo)
    assert leaked(repo) == []
    assert {s["path"] for s in report["skipped"]} >= {
        ".claude/skills/release-notes/references",
        ".claude/skills/release-notes/notes.md",
    }
    assert (repo / "registries/skills/project/release-notes/SKILL.md").is_file()


def test_a_fifo_where_an_agent_is_expected_is_skipped_not_waited_on(repo: Path):
    """Before: `open()` of a FIFO blocked the import for ever (no writer ever comes)."""
    agents = repo / ".claude/agents"
    agents.mkdir(parents=True)
    os.mkfifo(agents / "stuck.md")
    os.mkfifo(repo / "CLAUDE.md")
    (agents / "fine.md").write_text("---\nname: fine\ndescription: Fine.\n---\nBody.\n")
    try:
        result = subprocess.run(
            [sys.executable, "-m", "orkestra", "import", "--format", "json"],
            cwd=repo,
            capture_output=True,
            text=True,
            timeout=120,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("import hangs on a FIFO")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    reasons = {s["path"]: s["reason"] for s in report["skipped"]}
    assert "regular file" in reasons[".claude/agents/stuck.md"]
    assert "regular file" in reasons["CLAUDE.md"]
    assert [i["name"] for i in report["items"]] == ["fine"]
