"""The git listing: a run with nothing changed asks ``git status`` alone and opens no file, and every
kind of change (edits git sees, edits only a stat sees, index moves, links, ignore files, settings)
still gives the same index as a clean run of the same tree."""

from __future__ import annotations

import os
import shutil
import sqlite3

import pytest
from conftest import git
from index_helpers import commit_all, dump_index, write_tree

import maguyva.index.listing as listing
import maguyva.index.scan as scan
from maguyva.index.listing import ListingRecord
from maguyva.index.pipeline import index_repository
from maguyva.store import open_store

TREE = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def helper():\n    return 1\n",
    "pkg/use.py": "from pkg.core import helper\n\n\ndef main():\n    return helper()\n",
    "docs/guide.md": "# Guide\n\nCall main.\n",
    "assets/logo.bin": b"\x89PNG\0\0binary",
    ".gitignore": "generated/\n",
}


@pytest.fixture
def repo(git_repo, monkeypatch):
    monkeypatch.setattr(scan, "RACY_WINDOW_NS", 0)  # stamps trusted at once: the runs below are quick
    write_tree(git_repo, TREE)
    commit_all(git_repo)
    return git_repo


def _spy_git(monkeypatch) -> list[str]:
    commands: list[str] = []
    start = listing._git_start

    def spy(root, *args):
        commands.append(next(a for a in args if not a.startswith("-")))
        return start(root, *args)

    monkeypatch.setattr(listing, "_git_start", spy)
    return commands


def _same_as_clean(repo, store, tmp_path):
    clean = tmp_path / "clean.db"
    if clean.exists():
        clean.unlink()
    index_repository(repo, clean, full=True)
    assert dump_index(store) == dump_index(clean)
    assert _centrality(store) == _centrality(clean)


def _centrality(db_path):
    db = sqlite3.connect(db_path)
    try:
        return db.execute(
            "SELECT path, symbol, round(pagerank, 9) FROM centrality_rows ORDER BY 1, 2"
        ).fetchall()
    finally:
        db.close()


def test_a_run_with_nothing_changed_asks_git_status_alone_and_opens_nothing(repo, tmp_path, monkeypatch):
    store = tmp_path / "index.db"
    first = index_repository(repo, store)
    centrality = _centrality(store)
    commands = _spy_git(monkeypatch)
    opened: list[str] = []

    def counting_open(path, *args, **kwargs):
        opened.append(str(path))
        return open(path, *args, **kwargs)

    monkeypatch.setattr(scan, "open", counting_open, raising=False)
    again = index_repository(repo, store)
    assert commands == ["status"]
    assert opened == []
    assert (again.added, again.changed, again.deleted, again.unchanged) == (0, 0, 0, first.files)
    assert (again.files, again.skipped) == (first.files, first.skipped) == (5, 1)  # the binary, remembered
    assert (again.mode, again.symbols, again.edges) == ("incremental", first.symbols, first.edges)
    assert _centrality(store)
    assert _centrality(store) == centrality
    db = open_store(store, readonly=True)
    try:
        record = ListingRecord.from_json(db.recorded_listing())
    finally:
        db.close()
    assert record is not None
    assert record.skipped == (("assets/logo.bin", "binary"),)


def _edit_same_size_mtime_put_back(repo):
    path = repo / "pkg/core.py"
    before = path.stat()
    path.write_text("def helper():\n    return 2\n")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def _stage_an_edit(repo):
    write_tree(repo, {"pkg/core.py": "def helper():\n    return 3\n\n\ndef other():\n    return 4\n"})
    git(repo, "add", "pkg/core.py")


def _commit_on_a_branch_then_check_it_out(repo):
    git(repo, "checkout", "-q", "-b", "topic")
    write_tree(repo, {"pkg/new.py": "from pkg.core import helper\n\nVALUE = helper()\n"})
    (repo / "docs/guide.md").unlink()
    commit_all(repo, "topic")
    git(repo, "checkout", "-q", "main")
    git(repo, "checkout", "-q", "topic")


def _untracked_file_appears(repo):
    write_tree(repo, {"scratch.py": "def scratch():\n    return 5\n"})


def _tracked_file_deleted(repo):
    (repo / "pkg/use.py").unlink()


def _tracked_directory_swapped_for_a_link(repo):
    shutil.copytree(repo / "pkg", repo / "elsewhere")
    shutil.rmtree(repo / "pkg")
    (repo / "pkg").symlink_to("elsewhere")


def _git_refreshes_its_index_after_a_touch(repo):
    os.utime(repo / "pkg/core.py", ns=(1, 1))
    git(repo, "status", "--porcelain")  # rewrites the index with the new stat data


def _maguyvaignore_added(repo):
    write_tree(repo, {".maguyvaignore": "docs/\n"})


def _binary_becomes_text(repo):
    write_tree(repo, {"assets/logo.bin": "now text\n"})


def _assume_unchanged_file_edited(repo):
    git(repo, "update-index", "--assume-unchanged", "pkg/core.py")
    write_tree(repo, {"pkg/core.py": "def helper():\n    return 'hidden from git status'\n"})


@pytest.mark.parametrize(
    "change",
    [
        _edit_same_size_mtime_put_back,
        _stage_an_edit,
        _commit_on_a_branch_then_check_it_out,
        _untracked_file_appears,
        _tracked_file_deleted,
        _tracked_directory_swapped_for_a_link,
        _git_refreshes_its_index_after_a_touch,
        _maguyvaignore_added,
        _binary_becomes_text,
        _assume_unchanged_file_edited,
    ],
)
def test_every_kind_of_change_after_a_quick_run_gives_the_clean_index(repo, tmp_path, change, monkeypatch):
    store = tmp_path / "index.db"
    index_repository(repo, store)
    commands = _spy_git(monkeypatch)
    index_repository(repo, store)  # a quick run: its record is the one the next run compares against
    assert commands == ["status"]
    change(repo)
    index_repository(repo, store)
    _same_as_clean(repo, store, tmp_path)
    index_repository(repo, store)  # and the run after that, quick again, keeps it
    _same_as_clean(repo, store, tmp_path)


def test_a_tracked_link_is_looked_at_every_run_as_git_cannot_see_its_target_change(repo, tmp_path):
    write_tree(repo, {"generated/impl.py": "def made():\n    return 1\n"})  # ignored by .gitignore
    (repo / "pkg/made.py").symlink_to("../generated/impl.py")
    commit_all(repo)
    store = tmp_path / "index.db"
    index_repository(repo, store)
    index_repository(repo, store)
    write_tree(repo, {"generated/impl.py": "def made_again():\n    return 2\n"})  # git status: clean
    assert git(repo, "status", "--porcelain") == ""
    summary = index_repository(repo, store)
    assert summary.changed == 1
    _same_as_clean(repo, store, tmp_path)


def test_a_lower_size_cap_skips_a_file_a_quick_run_had_kept(repo, tmp_path):
    store = tmp_path / "index.db"
    index_repository(repo, store)
    summary = index_repository(repo, store, max_bytes=40)
    assert "pkg/use.py" not in {s for s in _indexed(store)}
    assert summary.deleted == 1


def _indexed(store):
    db = open_store(store, readonly=True)
    try:
        return set(db.known_files())
    finally:
        db.close()


def test_what_git_status_reports_is_looked_at_again_though_its_report_is_the_same(
    repo, tmp_path, monkeypatch
):
    write_tree(
        repo, {"scratch.py": "def scratch():\n    return 5\n", "pkg/core.py": "def helper():\n    return 6\n"}
    )
    nested = repo / "vendor/lib"
    nested.mkdir(parents=True)
    git(nested, "init", "-q", "-b", "main")
    write_tree(nested, {"lib.py": "def lib():\n    return 7\n", "gone.py": "def gone():\n    return 8\n"})
    store = tmp_path / "index.db"
    index_repository(repo, store)
    index_repository(repo, store)
    before = git(repo, "--no-optional-locks", "status", "--porcelain")  # leaves git's index as it is
    # an untracked file and a modified tracked file edited again, a nested repository's file deleted
    write_tree(
        repo,
        {"scratch.py": "def scratch_two():\n    return 9\n", "pkg/core.py": "def helper():\n    return 10\n"},
    )
    (nested / "gone.py").unlink()
    assert git(repo, "--no-optional-locks", "status", "--porcelain") == before  # the same report
    commands = _spy_git(monkeypatch)
    summary = index_repository(repo, store)
    assert commands == ["status"]
    assert (summary.changed, summary.deleted) == (2, 1)
    _same_as_clean(repo, store, tmp_path)


def _skipped_as_clean(repo, store, tmp_path, summary):
    clean = index_repository(repo, tmp_path / "skips.db", full=True)
    assert summary.skipped == clean.skipped


def test_an_edit_then_its_revert_take_the_quick_listing_and_give_the_clean_index(repo, tmp_path, monkeypatch):
    store = tmp_path / "index.db"
    index_repository(repo, store)
    index_repository(repo, store)
    commands = _spy_git(monkeypatch)
    original = (repo / "pkg/core.py").read_text()
    steps = [
        lambda: write_tree(repo, {"pkg/core.py": original + "\n\ndef added():\n    return helper()\n"}),
        lambda: write_tree(repo, {"assets/logo.bin": "text now\n"}),  # a skipped binary becomes text
        lambda: write_tree(repo, {"pkg/core.py": original}),  # reverted: status reports it no more
        lambda: write_tree(repo, {"assets/logo.bin": b"\x89PNG\0\0binary"}),  # and back to the binary
        lambda: None,
    ]
    for step in steps:
        commands.clear()
        step()
        summary = index_repository(repo, store)
        assert commands == ["status"]  # git's index never moved: no ls-files
        _same_as_clean(repo, store, tmp_path)
        _skipped_as_clean(repo, store, tmp_path, summary)


def test_an_edited_maguyvaignore_takes_the_full_listing(repo, tmp_path, monkeypatch):
    write_tree(repo, {".maguyvaignore": "nothing/\n"})
    store = tmp_path / "index.db"
    index_repository(repo, store)  # .maguyvaignore is untracked: status reports it on every run
    commands = _spy_git(monkeypatch)
    write_tree(repo, {".maguyvaignore": "docs/\n"})  # filters a file the last run kept
    index_repository(repo, store)
    assert commands == ["status", "ls-files"]
    assert "docs/guide.md" not in _indexed(store)
    _same_as_clean(repo, store, tmp_path)


def test_a_git_file_pointing_at_a_fifo_index_neither_blocks_nor_takes_the_quick_listing(tmp_path):
    from maguyva.index.listing import _index_trailer

    gitdir = tmp_path / "elsewhere"
    gitdir.mkdir()
    os.mkfifo(gitdir / "index")
    work = tmp_path / "work"
    work.mkdir()
    (work / ".git").write_text(f"gitdir: {gitdir}\n")
    assert _index_trailer(work) is None


def test_an_untracked_directory_that_becomes_a_nested_repository_is_walked_once(repo, tmp_path, monkeypatch):
    write_tree(repo, {"tools/gen.py": "def gen():\n    return 1\n"})  # untracked: status lists the file
    store = tmp_path / "index.db"
    index_repository(repo, store)
    index_repository(repo, store)
    git(repo / "tools", "init", "-q", "-b", "main")  # now status says "? tools/": a nested repository
    commands = _spy_git(monkeypatch)
    summary = index_repository(repo, store)
    assert commands == ["status"]
    # gen.py once
    assert summary.files == 6
    assert summary.changed == summary.added == summary.deleted == 0
    _same_as_clean(repo, store, tmp_path)
