"""Issue 14 item 13: an edit that keeps size and mtime is still seen (stat data is never trusted blindly)."""

from __future__ import annotations

import os
import time
from pathlib import Path

from maguyva_hostile import commit_all

from maguyva.api import Maguyva
from maguyva.index import scan
from maguyva.index.pipeline import index_repository, index_status

BEFORE = "def alpha_one():\n    return 1\n"
AFTER = "def omega_two():\n    return 2\n"  # same size


def _edit_keeping_stat(path: Path) -> None:
    stat = path.stat()
    path.write_text(AFTER)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert (path.stat().st_size, path.stat().st_mtime_ns) == (stat.st_size, stat.st_mtime_ns)


def _check(repo: Path, store: Path) -> None:
    target = repo / "pkg" / "mod.py"
    _edit_keeping_stat(target)
    status = index_status(repo, store)
    assert status.not_in_map["changed"] == ["pkg/mod.py"]
    assert status.stale is True
    api = Maguyva.open(repo, str(store))
    try:
        assert [e["path"] for e in api.index_status()["not_in_map"]] == ["pkg/mod.py"]
    finally:
        api.close()
    summary = index_repository(repo, store, workers=1)
    assert summary.changed == 1
    api = Maguyva.open(repo, str(store))
    try:
        assert api.find_symbol("omega_two")["count"] == 1
        assert api.find_symbol("alpha_one")["count"] == 0
        assert api.index_status()["not_in_map"] == []
    finally:
        api.close()
    assert index_status(repo, store).stale is False


def _repo(git_repo: Path) -> Path:
    (git_repo / "pkg").mkdir()
    (git_repo / "pkg" / "mod.py").write_text(BEFORE)
    (git_repo / "pkg" / "other.py").write_text("def stays():\n    return 0\n")
    commit_all(git_repo)
    return git_repo


def test_an_edit_in_the_same_timestamp_tick_as_the_index_is_seen(git_repo, tmp_path, monkeypatch):
    """The racy case: indexed right after it was written, then edited within the same timestamp tick.
    A coarse clock is simulated by a stamp blind to ctime, so only git's racy rule can catch it."""
    monkeypatch.setattr(scan, "stat_stamp", lambda stat: stat.st_mtime_ns)
    repo, store = _repo(git_repo), tmp_path / "index.db"
    index_repository(repo, store, full=True, workers=1)
    assert {f.record.path: f.mtime_ns for f in scan.scan_repository(repo).files} == {
        "pkg/mod.py": 0,
        "pkg/other.py": 0,
    }
    _check(repo, store)


def test_an_old_file_edited_with_its_mtime_put_back_is_seen(git_repo, tmp_path, monkeypatch):
    """Not racy at all: the file is old, then rewritten and its mtime restored (checkouts, cp -p, tools).
    The racy window is closed, so only the stat stamp's ctime can catch it."""
    monkeypatch.setattr(scan, "RACY_WINDOW_NS", 0)
    repo, store = _repo(git_repo), tmp_path / "index.db"
    old = time.time_ns() - 3600 * 10**9
    for path in (repo / "pkg").iterdir():
        os.utime(path, ns=(old, old))
    index_repository(repo, store, full=True, workers=1)
    _check(repo, store)
