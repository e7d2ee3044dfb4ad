"""Item 15 of issue 14: a killed sync ends old or new (after the next run), never mixed, with no debris."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO
from ork_workspace import cli, workspace

sys.path.insert(0, str(REPO / "bench"))
from bench_kill_sync import debris, outputs

CRASH = """
import os, sys
from orkestra.fs import guard
from orkestra.render.sync import sync
method, limit = sys.argv[1], int(sys.argv[2])
original, calls = getattr(guard.SafeTree, method), [0]
def crash(self, *args, **kwargs):
    calls[0] += 1
    if calls[0] > limit:
        os._exit(137)  # like kill -9: no cleanup, no finally
    return original(self, *args, **kwargs)
setattr(guard.SafeTree, method, crash)
sync(sys.argv[3])
"""


def change_inputs(root: Path) -> None:
    """Every skill re-rendered, one agent deleted, one created."""
    (root / "templates").mkdir(exist_ok=True)
    template = (REPO / "orkestra/render/templates/skill.md.j2").read_text()
    (root / "templates/skill.md.j2").write_text(template.rstrip("\n") + "\n\n<!-- revision 2 -->\n")
    (root / "registries/agents/bio-analyst.yaml").unlink()
    source = (root / "registries/agents/architecture-advisor.yaml").read_text()
    (root / "registries/agents/design-advisor.yaml").write_text(
        source.replace("name: architecture-advisor", "name: design-advisor")
    )


@pytest.fixture
def states(tmp_path):
    """(pristine root: old outputs + new inputs, old outputs, new outputs)."""
    root = workspace(tmp_path, "pristine")
    assert cli(root, "sync").returncode == 0
    old = outputs(root)
    change_inputs(root)
    reference = tmp_path / "reference"
    shutil.copytree(root, reference, symlinks=True)
    assert cli(reference, "sync").returncode == 0
    new = outputs(reference)
    assert old != new
    assert len(set(old) ^ set(new)) >= 2
    return root, old, new


def _trial(tmp_path: Path, pristine: Path, name: str) -> Path:
    root = tmp_path / name
    shutil.copytree(pristine, root, symlinks=True)
    return root


@pytest.mark.parametrize(
    "method, limit, expected",
    [
        ("stage", 1, "old"),  # killed after staging the journal only
        ("stage", 4, "old"),  # killed half-way through writing temp files
        ("commit", 2, "new"),  # killed right after the journal said "commit"
        ("commit", 5, "new"),  # killed with three outputs renamed, the rest pending
    ],
)
def test_a_crash_at_each_phase_is_rolled_back_or_completed_by_the_next_check(
    tmp_path, states, method, limit, expected
):
    pristine, old, new = states
    root = _trial(tmp_path, pristine, f"{method}-{limit}")
    crashed = subprocess.run(
        [sys.executable, "-c", CRASH, method, str(limit), str(root)], capture_output=True, check=False
    )
    assert crashed.returncode == 137
    if method == "commit" and limit > 2:
        assert outputs(root) not in (old, new)  # the kill left a mix on disk ...
    check = cli(root, "sync", "--check")
    assert outputs(root) == (old if expected == "old" else new)  # ... which the next run resolves
    assert debris(root) == []
    assert check.returncode == (1 if expected == "old" else 0), check.stderr
    assert cli(root, "sync").returncode == 0
    assert outputs(root) == new
    assert debris(root) == []


def test_kill_9_at_random_moments_ends_old_or_new_without_debris(tmp_path, states):
    pristine, old, new = states
    probe = _trial(tmp_path, pristine, "probe")
    start = time.perf_counter()
    assert cli(probe, "sync").returncode == 0
    duration = time.perf_counter() - start
    rng = random.Random(14)
    for trial in range(3):
        root = _trial(tmp_path, pristine, f"kill-{trial}")
        proc = subprocess.Popen(
            [sys.executable, "-m", "orkestra", "sync"],
            cwd=root,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            proc.wait(timeout=rng.uniform(0.4, 1.0) * duration)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
        cli(root, "sync", "--check")
        assert outputs(root) in (old, new), f"trial {trial}: mixed tree"
        assert debris(root) == []


def test_stray_temp_files_of_an_old_killed_run_are_cleaned(tmp_path, states):
    pristine, _, new = states
    root = _trial(tmp_path, pristine, "stray")
    (root / ".claude/agents/.orchestrator.md.4242.orkestra-tmp").write_text("half")
    (root / ".claude/skills/schema-migration-workflow/.SKILL.md.99.orkestra-tmp").write_text("half")
    (root / "packages/search/.GROUND_TRUTHS.md.7.orkestra-tmp").write_text("half")
    assert cli(root, "sync").returncode == 0
    assert debris(root) == []
    assert outputs(root) == new


def test_an_owned_output_replaced_by_a_directory_is_a_clear_error(tmp_path, states):
    pristine, old, _ = states
    root = _trial(tmp_path, pristine, "dir")
    target = root / ".claude/agents/orchestrator.md"
    target.unlink()
    target.mkdir()
    (target / "notes.txt").write_text("mine")
    result = cli(root, "sync")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "IsADirectoryError" not in result.stderr
    assert ".claude/agents/orchestrator.md" in result.stderr
    assert "directory" in result.stderr
    assert (target / "notes.txt").read_text() == "mine"
    assert outputs(root) == {k: v for k, v in old.items() if k != ".claude/agents/orchestrator.md"} | {
        ".claude/agents/orchestrator.md/notes.txt": b"mine"
    }
