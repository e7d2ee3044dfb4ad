"""`orkestra sync`: plan → diff → apply, ownership via the manifest, drift checks for CI."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clirun import run_cli
from conftest import REPO

from orkestra.render.state import sync_status
from orkestra.workspace import Workspace

RICH = REPO / "tests/fixtures/workspaces/rich"
MANIFEST = ".claude/.orkestra-manifest.json"


@pytest.fixture
def ws_root(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    shutil.copytree(RICH, root)
    return root


def sync(root: Path, *args: str):
    return run_cli("sync", *args, cwd=root)


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def mtimes(root: Path) -> dict[str, int]:
    return {p.relative_to(root).as_posix(): p.stat().st_mtime_ns for p in root.rglob("*") if p.is_file()}


def test_check_passes_after_sync_and_fails_after_registry_edit_naming_the_file(ws_root):
    assert sync(ws_root).returncode == 0
    assert sync(ws_root, "--check").returncode == 0
    agent = ws_root / "registries/agents/security-guardian.yaml"
    agent.write_text(agent.read_text().replace("max_turns: 30", "max_turns: 40"))
    check = sync(ws_root, "--check")
    assert check.returncode == 1
    dry = sync(ws_root, "--dry-run", "--json")
    assert dry.returncode == 0
    changes = json.loads(dry.stdout)["changes"]
    assert [(c["action"], c["path"], c["sources"]) for c in changes] == [
        ("update", ".claude/agents/security-guardian.md", ["registries/agents/security-guardian.yaml"])
    ]
    assert ".claude/agents/security-guardian.md" in sync(ws_root, "--dry-run").stdout


def test_second_sync_writes_nothing_and_keeps_mtimes(ws_root):
    assert sync(ws_root).returncode == 0
    before = mtimes(ws_root)
    # past the stamp's 50 ms racy window for what the first sync wrote (a new process took that long to start)
    time.sleep(0.06)
    second = sync(ws_root, "--json")
    assert second.returncode == 0
    data = json.loads(second.stdout)
    assert (data["written"], data["deleted"], data["manifest_written"]) == ([], [], False)
    # only the no-op stamp (derived state in the git-ignored load cache) is written
    after = mtimes(ws_root)
    assert {k: v for k, v in after.items() if not k.startswith(".orkestra/cache/sync/")} == before
    assert sorted(set(after) - set(before)) == [
        ".orkestra/cache/sync/fingerprint.json",
        ".orkestra/cache/sync/noop.json",
    ]
    third = sync(ws_root)  # answered from the stamp: not one file written
    assert third.returncode == 0
    assert "already in sync" in third.stdout
    assert mtimes(ws_root) == after


def test_two_clean_syncs_in_two_copies_give_identical_trees(tmp_path):
    roots = []
    for name in ("one", "two"):
        root = tmp_path / name / "ws"
        shutil.copytree(RICH, root)
        assert sync(root).returncode == 0
        roots.append(root)
    assert tree(roots[0]) == tree(roots[1])


def test_hand_edited_generated_file_survives_without_force(ws_root):
    assert sync(ws_root).returncode == 0
    target = ws_root / ".claude/agents/bio-analyst.md"
    target.write_text(target.read_text() + "\nmy local note\n")
    agent = ws_root / "registries/agents/bio-analyst.yaml"
    agent.write_text(agent.read_text().replace("Analyses genomic", "Analyses genomic and proteomic"))
    edited = target.read_bytes()
    refused = sync(ws_root)
    assert refused.returncode == 1
    assert ".claude/agents/bio-analyst.md: edited by hand" in refused.stderr
    assert target.read_bytes() == edited
    forced = sync(ws_root, "--force")
    assert forced.returncode == 0
    assert b"proteomic" in target.read_bytes()
    assert b"my local note" not in target.read_bytes()


def test_users_own_files_in_claude_are_never_deleted_and_stale_outputs_are_pruned(ws_root):
    assert sync(ws_root).returncode == 0
    own = ws_root / ".claude/agents/my-own-agent.md"
    own.write_text("---\nname: my-own-agent\ndescription: mine\n---\nmine\n")
    (ws_root / "registries/agents/bio-analyst.yaml").unlink()
    pending = sync(ws_root, "--check", "--json")
    assert pending.returncode == 1
    assert {
        "path": ".claude/agents/bio-analyst.md",
        "action": "delete",
        "reason": "no longer generated",
        "sources": [],
    } in json.loads(pending.stdout)["changes"]
    assert sync(ws_root).returncode == 0
    assert not (ws_root / ".claude/agents/bio-analyst.md").exists()
    assert own.read_text().startswith("---\nname: my-own-agent")
    assert sync(ws_root, "--check").returncode == 0


def test_pruning_a_skill_removes_its_emptied_directory(ws_root):
    assert sync(ws_root).returncode == 0
    shutil.rmtree(ws_root / "registries/skills/domains/schema-migration-workflow")
    scopes = ws_root / "registries/scopes.yaml"
    scopes.write_text(scopes.read_text().replace("[domains/schema-migration-workflow]", "[]"))
    assert sync(ws_root).returncode == 0
    assert not (ws_root / ".claude/skills/schema-migration-workflow").exists()


def test_unowned_file_at_an_output_path_is_a_conflict(ws_root):
    target = ws_root / ".claude/commands/registry-health.md"
    target.parent.mkdir(parents=True)
    target.write_text("my own command\n")
    result = sync(ws_root)
    assert result.returncode == 1
    assert "registry-health.md: exists but is not owned by orkestra" in result.stderr
    assert target.read_text() == "my own command\n"
    assert not (ws_root / MANIFEST).exists()


def test_user_settings_keys_survive_and_settings_are_never_pruned(ws_root):
    settings = ws_root / ".claude/settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash(ls:*)"]}}))
    assert sync(ws_root).returncode == 0
    merged = json.loads(settings.read_text())
    assert merged["permissions"] == {"allow": ["Bash(ls:*)"]}
    assert "hooks" in merged
    manifest = json.loads((ws_root / MANIFEST).read_text())
    assert list(manifest["merged"]) == [".claude/settings.json"]
    assert ".claude/settings.json" not in manifest["files"]
    settings.write_text(json.dumps({"permissions": {"allow": ["Read"]}}))  # the user drops our hooks
    assert sync(ws_root).returncode == 0
    assert json.loads(settings.read_text()) == {**merged, "permissions": {"allow": ["Read"]}}


def test_sync_status_reports_edits_missing_files_and_input_changes(ws_root):
    assert sync(ws_root).returncode == 0
    assert sync_status(Workspace.load(ws_root)).in_sync
    (ws_root / ".claude/agents/orchestrator.md").write_text("edited\n")
    (ws_root / ".mcp.json").unlink()
    (ws_root / "registries/values.yaml").write_text(
        (ws_root / "registries/values.yaml").read_text() + "\n# note\n"
    )
    status = sync_status(Workspace.load(ws_root))
    assert (status.in_sync, status.changed_inputs, status.edited_outputs, status.missing_outputs) == (
        False,
        True,
        [".claude/agents/orchestrator.md"],
        [".mcp.json"],
    )


def test_sync_status_does_not_import_jinja2(ws_root):
    code = (
        "import sys; from orkestra.workspace import Workspace; from orkestra.render.state import sync_status; "
        f"sync_status(Workspace.load({str(ws_root)!r})); print('jinja2' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_template_or_vendor_edit_is_noticed_by_the_no_load_fast_path(ws_root):
    assert sync(ws_root).returncode == 0
    vendor = ws_root / "vendor/acme-skills/deploy-preview/SKILL.md"
    vendor.write_text(vendor.read_text().replace("post the URL", "post the preview URL"))
    assert sync(ws_root, "--check").returncode == 1
    assert sync(ws_root).returncode == 0
    (ws_root / "templates").mkdir()
    (ws_root / "templates/command.md.j2").write_text(
        "---\n{{ frontmatter | frontmatter }}---\n{{ body }}\n\nEnd.\n"
    )
    dry = json.loads(sync(ws_root, "--dry-run", "--json").stdout)
    assert [c["path"] for c in dry["changes"]] == [".claude/commands/registry-health.md"]


def test_a_symlink_leading_outside_the_root_is_refused(ws_root, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (ws_root / ".claude").mkdir()
    (ws_root / ".claude/commands").symlink_to(outside)
    result = sync(ws_root)
    assert result.returncode == 1
    assert (
        "refusing to write '.claude/commands/registry-health.md': outside the workspace root" in result.stderr
    )
    assert list(outside.iterdir()) == []
