"""A cloned repository's symlinks and config cannot make mining write outside it.

Each case commits a link (or a config value) that points out of the repository, runs the real CLI,
and checks that the command exits 1 naming the path, and that nothing outside changed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from clirun import run_cli
from conftest import git
from mine_repo import commit
from outside_tree import outside_folder, untouched

LEDGER = "ai_assets/reference/changelog"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    return outside_folder(tmp_path)


def _linked(repo: Path, rel: str, target: Path) -> None:
    link = repo / rel
    link.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(target, link)
    git(repo, "add", "-f", rel)
    git(repo, "commit", "-q", "-m", f"chore: link {rel}")


def _refused(result, *names: str) -> None:
    assert result.returncode == 1, result.stdout + result.stderr
    assert "refusing to" in result.stderr, result.stderr
    assert all(name in result.stderr for name in names), result.stderr


def test_a_symlinked_gitattributes_is_neither_read_nor_written(git_repo, outside):
    commit(git_repo, "feat: one", {"a.py": "1\n"}, day=1)
    _linked(git_repo, ".gitattributes", outside / "keep.txt")
    _refused(run_cli("mine", "sync", cwd=git_repo), ".gitattributes", str(outside / "keep.txt"))
    untouched(outside)


@pytest.mark.parametrize("link", [".orkestra", ".orkestra/mining", ".orkestra/mining/sync.lock"])
def test_a_symlinked_state_folder_or_lock_is_refused(git_repo, outside, link):
    commit(git_repo, "feat: one", {"a.py": "1\n"}, day=1)
    _linked(git_repo, link, outside / "keep.txt" if link.endswith(".lock") else outside)
    _refused(run_cli("mine", "sync", cwd=git_repo), link)
    untouched(outside)


@pytest.mark.parametrize("setting", ["paths:\n  state: {outside}\n", "paths:\n  state: ../outside\n"])
def test_a_state_folder_configured_outside_is_refused(git_repo, outside, setting):
    (git_repo / "orkestra.yaml").write_text("version: 1\n" + setting.format(outside=outside))
    commit(git_repo, "feat: one", {"a.py": "1\n"}, day=1)
    result = run_cli("mine", "sync", cwd=git_repo)
    assert result.returncode == 1, result.stderr
    assert "refusing to write" in result.stderr, result.stderr
    untouched(outside)


@pytest.mark.parametrize("link", [LEDGER, f"{LEDGER}/commits_processed.jsonl"])
def test_a_symlinked_ledger_folder_or_file_is_refused(git_repo, outside, link):
    sha = commit(git_repo, "feat: one", {"a.py": "1\n"}, day=1)
    _linked(git_repo, link, outside / "keep.txt" if link.endswith(".jsonl") else outside)
    assert run_cli("mine", "sync", cwd=git_repo).returncode == 0
    _refused(run_cli("mine", "classify", sha, "--skip", "--reason", "test", cwd=git_repo), link)
    untouched(outside)


def test_a_symlinked_package_changelog_is_refused(git_repo, outside):
    commit(git_repo, "feat: one", {"a.py": "1\n"}, day=1)
    _linked(git_repo, "CHANGELOG.md", outside / "keep.txt")
    sha = git(git_repo, "rev-parse", "HEAD~1").strip()
    assert run_cli("mine", "sync", cwd=git_repo).returncode == 0
    assert run_cli("mine", "classify", sha, "--changelog", "added", cwd=git_repo).returncode == 0
    _refused(run_cli("registry", "changelog", "render", "--package", "root", cwd=git_repo), "CHANGELOG.md")
    untouched(outside)


@pytest.mark.parametrize("link", [f"{LEDGER}/release_notes.jsonl", ".orkestra/mining/commits.jsonl"])
def test_a_symlinked_ledger_or_index_is_not_read_either(git_repo, outside, link):
    """Read through a link, an outside file's lines would end up in a CHANGELOG.md or a status."""
    commit(git_repo, "feat: one", {"a.py": "1\n"}, day=1)
    assert run_cli("mine", "sync", cwd=git_repo).returncode == 0
    (git_repo / link).unlink(missing_ok=True)
    (outside / "keep.txt").write_text("keep me\n")
    _linked(git_repo, link, outside / "keep.txt")
    _refused(run_cli("mine", "status", cwd=git_repo), link)
    untouched(outside)


@pytest.mark.parametrize(
    "setting, command",
    [
        ("mining:\n  ledger_dir: .git/hooks\n", ("mine", "classify", "HEAD", "--skip", "--reason", "x")),
        ("mining:\n  ledger_dir: ../outside\n", ("mine", "classify", "HEAD", "--skip", "--reason", "x")),
        (
            "mining:\n  changelog:\n    path: ../outside/CHANGELOG.md\n",
            ("registry", "changelog", "render", "--package", "root"),
        ),
    ],
)
def test_mining_paths_configured_outside_or_into_git_are_refused(git_repo, outside, setting, command):
    (git_repo / "orkestra.yaml").write_text("version: 1\n" + setting)
    sha = commit(git_repo, "feat: one", {"a.py": "1\n"}, day=1)
    assert run_cli("mine", "sync", cwd=git_repo).returncode == 0
    args = [sha if arg == "HEAD" else arg for arg in command]
    result = run_cli(*args, cwd=git_repo)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "refusing to" in result.stderr, result.stdout + result.stderr
    untouched(outside)
    assert not list((git_repo / ".git" / "hooks").glob("*.jsonl"))
