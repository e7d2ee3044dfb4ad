"""`orkestra import` on hostile input: symlinks out of the tree, oversized files, broken frontmatter."""

from __future__ import annotations

import json
from pathlib import Path

from clirun import run_cli


def test_import_skips_symlinks_huge_files_and_broken_frontmatter(git_repo: Path, tmp_path: Path):
    secret = tmp_path / "secret.md"
    secret.write_text("---\nname: leak\ndescription: outside the tree\n---\nsecret\n")
    agents = git_repo / ".claude/agents"
    agents.mkdir(parents=True)
    (agents / "leak.md").symlink_to(secret)
    (agents / "huge.md").write_text("---\nname: huge\ndescription: big\n---\n" + "x" * 1_100_000)
    (agents / "broken.md").write_text("---\nname: broken\ndescription: [unclosed\n")
    assert run_cli("init", "--minimal", cwd=git_repo).returncode == 0
    result = run_cli("import", cwd=git_repo)
    assert result.returncode == 0, result.stderr
    reasons = {s["path"]: s["reason"] for s in json.loads(result.stdout)["skipped"]}
    assert "symbolic link" in reasons[".claude/agents/leak.md"]
    assert "larger than" in reasons[".claude/agents/huge.md"]
    assert "frontmatter" in reasons[".claude/agents/broken.md"]
    assert not list((git_repo / "registries/agents").glob("leak*"))
    assert "secret" not in "".join(p.read_text() for p in (git_repo / "registries").rglob("*.yaml"))


def test_import_leaves_a_symlinked_skill_folder_alone(git_repo: Path, tmp_path: Path):
    outside = tmp_path / "outside-skill"
    outside.mkdir()
    (outside / "SKILL.md").write_text("---\nname: outside-skill\ndescription: Use when never.\n---\nsecret\n")
    (git_repo / ".claude/skills").mkdir(parents=True)
    (git_repo / ".claude/skills/outside-skill").symlink_to(outside, target_is_directory=True)
    assert run_cli("init", "--minimal", cwd=git_repo).returncode == 0
    report = json.loads(run_cli("import", cwd=git_repo).stdout)
    assert report["skipped"][0]["reason"].startswith("skill folder is a symbolic link")
    assert not (git_repo / "registries/skills/project").exists()
