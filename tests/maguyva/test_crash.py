"""A SIGKILL in the middle of an index run leaves a usable store; the next run completes."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time

from index_helpers import write_tree

FILES = 600
WAL_BYTES = 2_000_000  # the write transaction is under way once the WAL has grown this far


def _corpus(root):
    body = "".join(
        f"def f{i}(x):\n    return g{i}(x) + {i}\n\n\ndef g{i}(y):\n    return y * {i}\n\n\n"
        for i in range(40)
    )
    write_tree(
        root, {f"pkg{n % 30}/mod{n}.py": f"from pkg0.mod0 import f0\n\n\n{body}" for n in range(FILES)}
    )


def _index(repo, *extra):
    return subprocess.Popen(
        [sys.executable, "-m", "orkestra", "code", "index", str(repo), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def _kill_once_grown(run, files, grown: int) -> None:
    """SIGKILL ``run`` once one of ``files()`` holds ``grown`` bytes (its write is under way)."""
    while run.poll() is None and not any(f.exists() and f.stat().st_size > grown for f in files()):
        time.sleep(0.01)
    run.send_signal(signal.SIGKILL)
    run.communicate()
    assert run.returncode == -signal.SIGKILL, "the indexer finished before it could be killed"


def _counts(db) -> tuple:
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return (
            con.execute("SELECT count(*) FROM files").fetchone()[0],
            con.execute("SELECT count(*) FROM symbols").fetchone()[0],
        )
    finally:
        con.close()


def test_a_first_index_killed_mid_build_leaves_no_index_and_the_next_run_completes(git_repo):
    _corpus(git_repo)
    db = git_repo / ".git" / "maguyva" / "index.db"
    # its pages stay in the cache until the commit: the file holds the schema while the run extracts
    _kill_once_grown(_index(git_repo), lambda: list(db.parent.glob(".index.db.*.building")), 0)
    assert not db.exists()  # built aside: the index appears whole or not at all
    assert list(db.parent.glob(".index.db.*.building"))  # what the killed run left

    done = subprocess.run(
        [sys.executable, "-m", "orkestra", "code", "index", str(git_repo)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert _counts(db) == (FILES, FILES * 80)
    assert sorted(p.name for p in db.parent.iterdir() if "building" in p.name) == []  # the stale one went


def test_a_full_rebuild_killed_mid_run_leaves_the_previous_index(git_repo):
    _corpus(git_repo)
    db = git_repo / ".git" / "maguyva" / "index.db"
    first = subprocess.run(
        [sys.executable, "-m", "orkestra", "code", "index", str(git_repo)], capture_output=True, text=True
    )
    assert first.returncode == 0, first.stderr
    wal = db.parent / "index.db-wal"
    _kill_once_grown(_index(git_repo, "--full"), lambda: [wal], WAL_BYTES)
    assert _counts(db) == (FILES, FILES * 80)  # the killed run's clearing rolled back with it
