"""A planted no-op stamp cannot make `orkestra sync --check` pass over tampered output.

The stamp (``.orkestra/cache/sync/``) is trusted only while every watched path keeps its mtime,
size, inode change time and inode number. A tree shipped with a stamp and with mtimes restored by
hand (a tarball, ``touch -d``) gets new inodes and ctimes when unpacked, so the stamp never matches."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest
from clirun import run_cli
from conftest import REPO

from orkestra.errors import WorkspaceError
from orkestra.render.freshness import unchanged_by_stat
from orkestra.render.sync import sync

RICH = REPO / "tests/fixtures/workspaces/rich"
OUTPUT = ".claude/agents/security-guardian.md"


def test_a_stamp_copied_with_its_mtimes_onto_tampered_output_is_not_trusted(tmp_path: Path):
    original = tmp_path / "original"
    shutil.copytree(RICH, original)
    sync(original)
    time.sleep(0.06)
    sync(original)
    assert unchanged_by_stat(original)

    planted = tmp_path / "planted"
    shutil.copytree(original, planted, symlinks=True)  # copy2: every mtime kept, the stamp included
    target = planted / OUTPUT
    stat = target.stat()
    text = target.read_text()
    tampered = text.replace("a", "b", 1)
    assert len(tampered) == len(text)
    assert tampered != text
    target.write_text(tampered)
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size, same mtime as stamped

    assert not unchanged_by_stat(planted)
    check = run_cli("sync", "--check", cwd=planted)
    assert check.returncode == 1
    assert OUTPUT in check.stdout


def test_a_stamp_under_a_symlinked_state_folder_is_never_written(tmp_path: Path):
    root = tmp_path / "ws"
    shutil.copytree(RICH, root)
    outside = tmp_path / "outside"
    outside.mkdir()
    shutil.rmtree(root / ".orkestra", ignore_errors=True)
    (root / ".orkestra").symlink_to(outside, target_is_directory=True)
    with pytest.raises(WorkspaceError, match="symlink resolves outside the workspace"):
        sync(root)  # the stamp's folder is made (through the write guard) before validation refuses
    assert list(outside.rglob("*")) == []
    assert not unchanged_by_stat(root)


def test_a_fifo_planted_where_the_stamp_is_read_is_refused_not_waited_on(tmp_path: Path):
    import subprocess
    import sys

    root = tmp_path / "ws"
    shutil.copytree(RICH, root)
    sync(root)  # in sync, and the stamp's folder exists
    fingerprint = root / ".orkestra/cache/sync/fingerprint.json"
    fingerprint.unlink(missing_ok=True)
    os.mkfifo(fingerprint)  # a tarball can carry one; opening it to read would block for ever
    check = subprocess.run(
        [sys.executable, "-m", "orkestra", "sync", "--check"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert check.returncode == 0
    assert check.stdout == "in sync\n"
