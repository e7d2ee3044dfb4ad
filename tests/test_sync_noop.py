"""The stat-only no-op sync: a stamp written when a sync ends in sync answers the next unchanged
`orkestra sync` without yaml, pydantic or typer, and any change to an input, an output, the
manifest or the tree's folders sends the next sync back to the full check."""

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

from orkestra.render.freshness import unchanged_by_stat
from orkestra.render.sync import sync

RICH = REPO / "tests/fixtures/workspaces/rich"
AGENT = "registries/agents/security-guardian.yaml"
SLACK = 0.06  # past the load cache's racy window (a path changed within 50 ms of a stamp is never trusted)


@pytest.fixture
def stamped(tmp_path: Path) -> Path:
    """A synced copy of the rich workspace whose second (no-op) sync left a trusted stamp."""
    root = tmp_path / "ws"
    shutil.copytree(RICH, root)
    sync(root)
    time.sleep(SLACK)
    assert not unchanged_by_stat(root)  # the first sync's own writes are too recent to trust
    sync(root)
    assert unchanged_by_stat(root)
    return root


def test_an_unchanged_tree_is_answered_from_the_stamp_and_a_third_sync_writes_nothing(stamped):
    report = sync(stamped)
    assert not report.plan.drift
    assert report.applied.written == ()
    assert report.applied.deleted == ()
    assert report.plan.manifest.files  # the manifest is still read (a cheap JSON file) for the report


@pytest.mark.parametrize(
    "change",
    [
        "edit-same-size",
        "new-input",
        "new-folder",
        "delete-output",
        "edit-output",
        "edit-config",
        "edit-manifest",
        "journal",
    ],
)
def test_every_kind_of_change_voids_the_stamp(stamped, change):
    time.sleep(SLACK)
    if change == "edit-same-size":
        path = stamped / AGENT
        path.write_text(path.read_text().replace("max_turns: 30", "max_turns: 40"))
    elif change == "new-input":
        (stamped / "registries/agents/extra.yaml").write_text("# not an agent yet\n")
    elif change == "new-folder":
        (stamped / "docs/sub").mkdir(parents=True)
        (stamped / "docs/sub/ground_truths.yaml").write_text("truths: []\n")
    elif change == "delete-output":
        (stamped / ".claude/agents/security-guardian.md").unlink()
    elif change == "edit-output":
        path = stamped / ".claude/agents/security-guardian.md"
        path.write_text(path.read_text().replace("a", "b", 1))
    elif change == "edit-config":
        with (stamped / "orkestra.yaml").open("a") as handle:
            handle.write("# a comment\n")
    elif change == "edit-manifest":
        path = stamped / ".claude/.orkestra-manifest.json"
        path.write_text(path.read_text() + " ")
    elif change == "journal":
        (stamped / ".orkestra/sync-journal.json").write_text('{"version": 1, "phase": "prepare", "ops": []}')
    assert not unchanged_by_stat(stamped)


def test_a_drifted_output_is_still_reported_by_check_after_a_stamp(stamped):
    time.sleep(SLACK)
    path = stamped / ".claude/agents/security-guardian.md"
    path.write_text(path.read_text() + "\nhand edit\n")
    check = run_cli("sync", "--check", cwd=stamped)
    assert check.returncode == 1
    assert "in sync" not in check.stdout.splitlines()[-1:]


def test_force_never_takes_the_stamp(stamped):
    report = sync(stamped, force=True)
    assert report.applied is not None
    assert not report.plan.drift


@pytest.mark.parametrize("args", [("sync",), ("sync", "--check")])
def test_the_fast_path_prints_exactly_what_the_full_command_prints(stamped, args):
    fast = run_cli(*args, cwd=stamped)
    full = run_cli(*args, cwd=stamped, env={"ORKESTRA_NO_FASTPATH": "1"})
    assert (fast.returncode, fast.stdout, fast.stderr) == (full.returncode, full.stdout, full.stderr)
    assert fast.returncode == 0
    assert fast.stdout.strip() in (
        "in sync",
        "wrote 0 file(s), deleted 0; already in sync",
    )


def test_the_no_op_cli_imports_no_yaml_pydantic_typer_or_jinja(stamped):
    code = (
        "import sys; sys.argv = ['orkestra', 'sync']; from orkestra.entry import main; main(); "
        "print([m for m in ('yaml', 'pydantic', 'typer', 'jinja2', 'orkestra.cli') if m in sys.modules])"
    )
    for attempt in range(2):
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=stamped, capture_output=True, text=True, check=True
        )
        lines = out.stdout.splitlines()
        if len(lines) == 2 or attempt:  # two lines: the fast path answered, and the probe printed
            break
        # one line: the full CLI answered (same text) and exited before the probe. Seen once in four
        # whole-suite runs on 2026-12-02, never alone (170 runs): a stamp distrusted, cause not found;
        # stamp again and ask once more, so the check below is about imports, not that flake
        time.sleep(SLACK)
        sync(stamped)
        time.sleep(SLACK)
    assert lines == ["wrote 0 file(s), deleted 0; already in sync", "[]"]


def test_a_changed_tree_goes_through_the_full_cli_and_is_stamped_again(stamped):
    time.sleep(SLACK)
    path = stamped / AGENT
    path.write_text(path.read_text().replace("max_turns: 30", "max_turns: 40"))
    result = run_cli("sync", "--json", cwd=stamped)
    assert result.returncode == 0
    assert json.loads(result.stdout)["written"] == [".claude/agents/security-guardian.md"]
    time.sleep(SLACK)
    sync(stamped)  # the full check finds it in sync and stamps it
    assert unchanged_by_stat(stamped)


def test_a_changed_sync_reads_the_manifest_once_and_walks_the_tree_once(stamped, monkeypatch):
    import os as os_module

    import orkestra.fs.scan as scan_module
    import orkestra.render.manifest as manifest_module

    walks, reads = [], []
    real_walk, real_read = scan_module.walk_tree, manifest_module.read_manifest_at

    def counting_walk(top, *args, **kwargs):
        walks.append(os_module.fspath(top))
        return real_walk(top, *args, **kwargs)

    def counting_read(root, rel):
        reads.append(rel)
        return real_read(root, rel)

    monkeypatch.setattr(scan_module, "walk_tree", counting_walk)
    monkeypatch.setattr(manifest_module, "read_manifest_at", counting_read)
    time.sleep(SLACK)
    path = stamped / AGENT
    path.write_text(path.read_text().replace("max_turns: 30", "max_turns: 40"))
    report = sync(stamped)
    assert report.applied.written == (".claude/agents/security-guardian.md",)
    assert walks.count(os_module.fspath(stamped)) == 1  # check, load and plan share one walk
    assert reads == [".claude/.orkestra-manifest.json"]


def _stamp(root: Path) -> None:
    """Sync twice past the racy window: the second (no-op) sync leaves a trusted stamp."""
    sync(root)
    time.sleep(SLACK)
    sync(root)


def test_the_stamp_lives_in_the_configured_state_folder_however_its_key_is_spelled(tmp_path):
    # a double-quoted key with an escape is still `state` (read as YAML, not matched as text)
    root = tmp_path / "ws"
    shutil.copytree(RICH, root)
    with (root / "orkestra.yaml").open("a") as config:
        config.write('paths:\n  "st\\x61te": var/state\n')
    _stamp(root)
    assert (root / "var/state/cache/sync/fingerprint.json").is_file()
    assert not (root / ".orkestra").exists()
    assert unchanged_by_stat(root)
    assert run_cli("sync", cwd=root).stdout == "wrote 0 file(s), deleted 0; already in sync\n"


def test_moving_the_state_folder_voids_the_stamp_left_in_the_old_one(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(RICH, root)
    _stamp(root)
    assert unchanged_by_stat(root)
    time.sleep(SLACK)
    with (root / "orkestra.yaml").open("a") as config:
        config.write("paths: {state: var/state}\n")
    assert not unchanged_by_stat(root)  # the stamp in .orkestra/ watched orkestra.yaml
    _stamp(root)
    assert (root / "var/state/cache/sync/fingerprint.json").is_file()
    assert unchanged_by_stat(root)


def test_a_config_that_mentions_state_elsewhere_is_still_answered_without_yaml(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(RICH, root)
    with (root / "orkestra.yaml").open("a") as config:
        config.write("# state: kept in .orkestra (the default)\n")
    _stamp(root)
    code = (
        "import sys; sys.argv = ['orkestra', 'sync', '--check']; from orkestra.entry import main; main(); "
        "print([m for m in ('yaml', 'maguyva.safe_yaml', 'pydantic', 'typer') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["in sync", "[]"]
