"""Two smaller holes of issue 31.

Names with a trailing newline passed validation: ``re.match(r"^[a-z0-9-]+$", "reviewer\\n")`` matches,
because ``$`` also matches before a final newline. Every name, id, date and sha pattern now ends in ``\\Z``.

A ``.git`` *file* (``gitdir: /elsewhere/.git``, or a ``.git`` link) made git, and so Maguyva's default
store, use another repository's git dir: ``code index --full`` replaced that repository's index. The
store is now used only when the git dir points back at the work tree (a linked worktree, a submodule)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from clirun import Result, run_cli
from conftest import git
from ork_workspace import cli, errors, workspace

# --- trailing newlines ---------------------------------------------------------------------------


def test_every_validation_pattern_refuses_a_trailing_newline():
    from orkestra import importer
    from orkestra.mining import classify, decisions, validate
    from orkestra.mining import git as mining_git
    from orkestra.trust import conformance
    from orkestra.why import propose
    from orkestra.workspace import models

    cases = [
        (models.NAME_RE, "code-reviewer"),
        (models.GT_ID_RE, "GT-RICH-001"),
        (models.DECISION_ID_RE, "DEC-ABC-001"),
        (models.DATE_RE, "2026-01-01"),
        (importer._NAME, "code-reviewer"),
        (conformance.NAME_RE, "deploy-preview"),
        (classify.SHA_RE, "a" * 40),
        (mining_git.SHA_RE, "a" * 40),
        (mining_git.STATUS_RE, "M"),
        (validate.FULL_SHA_RE, "a" * 40),
        (decisions.DECISION_ID_RE, "DEC-ABC-001"),
        (propose.SHA_RE, "a" * 40),
    ]
    for pattern, good in cases:
        assert pattern.match(good), pattern.pattern
        for bad in (good + "\n", good + "\n\n", good + "\r\n"):
            assert pattern.match(bad) is None, (pattern.pattern, bad)


def test_an_agent_named_with_a_trailing_newline_is_a_located_error(tmp_path: Path):
    root = workspace(tmp_path)
    agent = root / "registries/agents/architecture-advisor.yaml"
    agent.write_text(
        agent.read_text().replace("name: architecture-advisor", 'name: "architecture-advisor\\n"')
    )
    truths = root / "ai_assets/reference/ground_truths.yaml"
    truths.write_text(truths.read_text().replace("id: GT-RICH-001", 'id: "GT-RICH-001\\n"'))
    result = cli(root, "validate")
    assert result.returncode == 1
    found = {(d["path"], d["field"]) for d in errors(root)}
    assert ("registries/agents/architecture-advisor.yaml", "name") in found, found
    assert any(path.endswith("ground_truths.yaml") and "id" in field for path, field in found), found


def test_import_never_names_a_registry_file_with_a_newline(git_repo: Path):
    from conftest import run_cli

    assert run_cli("init", "--minimal", cwd=git_repo).returncode == 0
    agents = git_repo / ".claude/agents"
    agents.mkdir(parents=True)
    (agents / "reviewer\n.md").write_text("---\ndescription: Reviews.\n---\nReview.\n")
    (agents / "fine.md").write_text("---\nname: fine\ndescription: Fine.\n---\nBody.\n")
    report = json.loads(run_cli("import", "--format", "json", cwd=git_repo).stdout)
    assert [i["name"] for i in report["items"]] == ["fine"]
    assert not [p for p in (git_repo / "registries").rglob("*") if "\n" in p.name]


def test_a_vendor_skill_name_with_a_newline_fails_conformance():
    from orkestra.trust.conformance import NAME_RE

    assert NAME_RE.match("deploy-preview\n") is None


# --- a .git file or link pointing at another repository -------------------------------------------


def index(root: Path, *args: str) -> Result:
    return run_cli("code", "index", *args, cwd=root)


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """Another repository on the same machine, with its own index."""
    repo = tmp_path / "victim"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "victim_code.py").write_text("def victim_function():\n    return 1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "victim")
    assert index(repo).returncode == 0
    return repo


def victim_store(victim: Path) -> bytes:
    return (victim / ".git/maguyva/index.db").read_bytes()


@pytest.mark.parametrize("pointer", ["gitdir-absolute", "gitdir-relative", "symlink"])
def test_a_git_pointer_to_another_repository_never_touches_its_index(tmp_path: Path, victim: Path, pointer):
    hostile = tmp_path / "hostile"
    hostile.mkdir()
    (hostile / "planted.py").write_text("def planted():\n    return 2\n")
    if pointer == "gitdir-absolute":
        (hostile / ".git").write_text(f"gitdir: {victim / '.git'}\n")
    elif pointer == "gitdir-relative":
        (hostile / ".git").write_text("gitdir: ../victim/.git\n")
    else:
        (hostile / ".git").symlink_to(victim / ".git", target_is_directory=True)
    before = victim_store(victim)
    for args in (("--full",), ()):
        result = index(hostile, *args)
        assert result.returncode != 0
        assert "another repository" in result.stderr
        assert "Traceback" not in result.stderr
    assert victim_store(victim) == before


def test_a_linked_worktree_and_a_submodule_keep_their_own_index(tmp_path: Path, victim: Path):
    """The legitimate `.git` files: the git dir points back at the work tree."""
    worktree = tmp_path / "wt"
    git(victim, "worktree", "add", "-q", str(worktree))
    assert index(worktree).returncode == 0
    assert (victim / ".git/worktrees/wt/maguyva/index.db").is_file()

    parent = tmp_path / "parent"
    parent.mkdir()
    git(parent, "init", "-q", "-b", "main")
    git(parent, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(victim), "sub")
    result = index(parent / "sub")
    assert result.returncode == 0, result.stderr
    assert (parent / ".git/modules/sub/maguyva/index.db").is_file()


def test_the_store_resolver_says_which_git_dir_it_refused(tmp_path: Path, victim: Path):
    from maguyva.errors import MaguyvaError
    from maguyva.store.location import own_git_dir, store_path

    hostile = tmp_path / "hostile"
    hostile.mkdir()
    (hostile / ".git").write_text(f"gitdir: {victim / '.git'}\n")
    with pytest.raises(MaguyvaError, match=re.escape(str(victim / ".git"))):
        store_path(hostile)
    assert own_git_dir(victim, victim / ".git") == victim / ".git"
    shutil.rmtree(hostile)
    assert os.path.isdir(victim / ".git")


@pytest.mark.parametrize("link", ["maguyva", "maguyva/index.db"])
def test_a_linked_store_folder_or_file_inside_git_is_refused(tmp_path: Path, victim: Path, link: str):
    """The same, built differently: a real `.git` folder (a tarball's) whose `maguyva/` or `index.db` is a
    link to another repository's index."""
    hostile = tmp_path / "hostile"
    hostile.mkdir()
    git(hostile, "init", "-q", "-b", "main")
    (hostile / "planted.py").write_text("def planted():\n    return 2\n")
    if link == "maguyva":
        (hostile / ".git/maguyva").symlink_to(victim / ".git/maguyva", target_is_directory=True)
    else:
        (hostile / ".git/maguyva").mkdir()
        (hostile / ".git/maguyva/index.db").symlink_to(victim / ".git/maguyva/index.db")
    before = victim_store(victim)
    for args in (("--full",), ()):
        result = index(hostile, *args)
        assert result.returncode != 0
        assert "symlink" in result.stderr
        assert "Traceback" not in result.stderr
    assert victim_store(victim) == before
