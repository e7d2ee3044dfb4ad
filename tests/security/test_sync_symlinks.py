"""Item 1 and 2 of issue 14: sync never writes through a symlink, never copies from outside the tree."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from ork_workspace import RENDERED_SKILL, SKILL, cli, errors, files, workspace

from orkestra.fs.guard import SafeTree, UnsafePath


def test_committed_symlink_into_git_hooks_never_gets_a_hook_written(tmp_path):
    root = workspace(tmp_path)
    (root / f"{SKILL}/scripts/post-checkout").write_text("#!/bin/sh\necho pwned > /tmp/pwned\n")
    os.chmod(root / f"{SKILL}/scripts/post-checkout", 0o755)
    (root / RENDERED_SKILL).mkdir(parents=True)
    (root / RENDERED_SKILL / "scripts").symlink_to("../../../.git/hooks")
    result = cli(root, "sync")
    assert result.returncode == 1
    assert "symlink" in result.stderr
    assert f"{RENDERED_SKILL}/scripts" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (root / ".git/hooks/post-checkout").exists()
    assert not (root / ".git/hooks/plan.sh").exists()


@pytest.mark.parametrize(
    "link, target",
    [
        (".claude", ".git"),  # the whole output folder
        (".claude", "../outside"),  # ... or leading out of the tree
        (".claude/agents", "../.git/info"),  # a folder in the middle
        (".mcp.json", ".git/hooks/pre-commit"),  # the final file itself
        (".claude/agents/orchestrator.md", "../../../outside/victim.txt"),
    ],
)
def test_no_component_of_an_output_may_be_a_symlink(tmp_path, link, target):
    root = workspace(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "victim.txt").write_text("keep me\n")
    (root / ".git/hooks/pre-commit").write_text("#!/bin/sh\nexit 0\n")
    before_git, before_out = files(root / ".git"), files(outside)
    (root / link).parent.mkdir(parents=True, exist_ok=True)
    (root / link).symlink_to(target)
    result = cli(root, "sync")
    assert result.returncode == 1, result.stdout
    assert "symlink" in result.stderr, result.stderr
    assert link in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    assert files(root / ".git") == before_git
    assert files(outside) == before_out
    assert (root / link).is_symlink()  # left as it was, not replaced either


def test_safe_tree_refuses_git_at_any_depth_and_any_case(tmp_path):
    with SafeTree(tmp_path) as tree:
        for rel in (".git/config", "a/.git/hooks/x", "a/.GIT/x", "../x", "/etc/passwd", "a/./b", "a//b"):
            with pytest.raises(UnsafePath):
                tree.write(rel, b"x")
        tree.write("a/b/c.txt", b"ok")
    assert (tmp_path / "a/b/c.txt").read_bytes() == b"ok"
    assert not list(tmp_path.rglob(".git"))


def test_safe_tree_replaces_nothing_through_a_link_swapped_in_later(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "elsewhere").mkdir()
    with SafeTree(tmp_path) as tree:
        tree.check("out/file.txt")
        os.rename(tmp_path / "out", tmp_path / "out-old")
        (tmp_path / "out").symlink_to(tmp_path / "elsewhere")
        tree.write("out/file.txt", b"data")  # the folder opened before the swap is used
    assert list((tmp_path / "elsewhere").iterdir()) == []


# --- item 2: sources that resolve outside the workspace ---------------------------------------


def _secret_dir(tmp_path: Path) -> Path:
    secret = tmp_path / "private"
    secret.mkdir()
    (secret / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nsecret\n")
    return secret


def _assert_refused(root: Path, link_rel: str) -> None:
    found = errors(root)
    assert any(link_rel in f"{d['path']} {d['message']}" and "symlink" in d["message"] for d in found), found
    result = cli(root, "sync")
    assert result.returncode == 1
    assert link_rel in result.stderr
    rendered = files(root / ".claude") if (root / ".claude").exists() else {}
    assert not any(
        b"PRIVATE KEY" in data or b"secret" in data.split(b"\n", 1)[-1][:6] for data in rendered.values()
    )


def test_symlinked_references_folder_outside_is_a_validation_error_naming_the_link(tmp_path):
    root = workspace(tmp_path)
    secret = _secret_dir(tmp_path)
    link = f"{SKILL}/references"
    for child in (root / link).iterdir():
        child.unlink()
    (root / link).rmdir()
    (root / link).symlink_to(secret)
    _assert_refused(root, link)


def test_symlinked_reference_file_outside_is_a_validation_error(tmp_path):
    root = workspace(tmp_path)
    secret = _secret_dir(tmp_path)
    link = f"{SKILL}/references/notes.md"
    (root / link).symlink_to(secret / "id_rsa")
    _assert_refused(root, link)


def test_symlinked_reference_into_git_is_refused(tmp_path):
    root = workspace(tmp_path)
    link = f"{SKILL}/assets/config"
    (root / link).parent.mkdir()
    (root / link).symlink_to(root / ".git/config")
    _assert_refused(root, link)


def test_symlinked_agent_yaml_outside_is_a_validation_error(tmp_path):
    root = workspace(tmp_path)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    agent = root / "registries/agents/bio-analyst.yaml"
    (outside / "bio-analyst.yaml").write_bytes(agent.read_bytes())
    agent.unlink()
    agent.symlink_to(outside / "bio-analyst.yaml")
    _assert_refused(root, "registries/agents/bio-analyst.yaml")


def test_symlinked_registries_folder_outside_is_refused(tmp_path):
    root = workspace(tmp_path)
    os.rename(root / "registries/agents", tmp_path / "agents")
    (root / "registries/agents").symlink_to(tmp_path / "agents")
    _assert_refused(root, "registries/agents")


def test_symlinked_template_outside_is_refused(tmp_path):
    root = workspace(tmp_path)
    secret = _secret_dir(tmp_path)
    (root / "templates").mkdir()
    (root / "templates/agent.md.j2").symlink_to(secret / "id_rsa")
    _assert_refused(root, "templates/agent.md.j2")


def test_a_symlink_that_stays_inside_the_tree_still_works(tmp_path):
    root = workspace(tmp_path)
    (root / f"{SKILL}/references/copy.md").symlink_to("checklist.md")
    assert errors(root) == []
    assert cli(root, "sync").returncode == 0
    rendered = root / RENDERED_SKILL / "references"
    assert (rendered / "copy.md").read_bytes() == (rendered / "checklist.md").read_bytes()
    assert not (rendered / "copy.md").is_symlink()


@pytest.mark.parametrize("setup", ["link-state", "link-cache", "absolute-state"])
def test_the_catalog_cache_never_writes_through_a_symlink_or_outside(tmp_path, setup):
    root = workspace(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    if setup == "link-state":
        (root / ".orkestra").symlink_to(outside)
    elif setup == "link-cache":
        (root / ".orkestra").mkdir()
        (root / ".orkestra/cache").symlink_to(root / ".git/hooks")
    else:
        config = root / "orkestra.yaml"
        config.write_text(config.read_text() + f"paths:\n  state: {outside}\n")
    before = files(root / ".git")
    result = cli(root, "agents", "list")
    assert "Traceback" not in result.stderr
    assert list(outside.iterdir()) == []
    assert files(root / ".git") == before


@pytest.mark.parametrize(
    "link",
    [
        "registries/skills/domains/evil",
        "vendor/acme-skills/evil",
        "ai_assets/reference/decisions/records/DEC-XX-001.yaml",
    ],
)
def test_any_symlink_out_of_a_source_folder_is_an_error_even_where_nothing_reads_it(tmp_path, link):
    root = workspace(tmp_path)
    evil = tmp_path / "evil"
    evil.mkdir()
    (evil / "SKILL.md").write_text("---\nname: evil\ndescription: x\n---\n# Evil\n")
    (root / link).symlink_to(evil if not link.endswith(".yaml") else evil / "SKILL.md")
    _assert_refused(root, link)
