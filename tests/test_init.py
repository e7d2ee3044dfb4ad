"""`orkestra init`: a minimal workspace that syncs at once; never overwrites; idempotent."""

from __future__ import annotations

import json
from pathlib import Path

from clirun import run_cli
from conftest import git


def test_init_then_sync_renders_a_working_claude_dir(git_repo: Path):
    created = run_cli("init", str(git_repo), cwd=git_repo.parent)
    assert created.returncode == 0, created.stderr
    assert "registries/agents/orchestrator.yaml" in json.loads(created.stdout)["created"]
    assert run_cli("validate", cwd=git_repo).stdout.strip() == "0 error(s), 0 warning(s)"
    assert run_cli("sync", cwd=git_repo).returncode == 0
    assert (git_repo / ".claude/agents/orchestrator.md").is_file()
    assert (git_repo / ".claude/skills/evidence-based-completion/SKILL.md").is_file()
    assert json.loads((git_repo / ".mcp.json").read_text())["mcpServers"]["maguyva"]["type"] == "stdio"
    assert not (git_repo / "templates").exists()
    assert run_cli("sync", "--check", cwd=git_repo).returncode == 0


def test_init_is_idempotent_and_never_overwrites(git_repo: Path):
    (git_repo / "orkestra.yaml").write_text("version: 1\nproject: mine\n")
    (git_repo / ".gitignore").write_text("node_modules/")
    first = json.loads(run_cli("init", cwd=git_repo).stdout)
    assert first["skipped"] == ["orkestra.yaml"]
    assert first["gitignore_updated"] is True
    assert first["gitattributes_updated"] is True
    assert (
        "ai_assets/reference/changelog/commits_processed.jsonl merge=union"
        in (git_repo / ".gitattributes").read_text()
    )
    second = json.loads(run_cli("init", cwd=git_repo).stdout)
    assert second["created"] == []
    assert second["gitignore_updated"] is False
    assert second["gitattributes_updated"] is False
    assert (git_repo / "orkestra.yaml").read_text() == "version: 1\nproject: mine\n"
    assert (git_repo / ".gitignore").read_text().splitlines() == [
        "node_modules/",
        "# orkestra derived state (caches, indexes)",
        ".orkestra/",
    ]
    git(git_repo, "add", "-A")
    assert ".orkestra" not in git(git_repo, "status", "--porcelain")
