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


def test_the_index_survives_a_sigkill_mid_run_and_the_next_run_completes(git_repo):
    _corpus(git_repo)
    db = git_repo / ".git" / "maguyva" / "index.db"
    run = subprocess.Popen(
        [sys.executable, "-m", "orkestra", "code", "index", str(git_repo)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    wal = db.parent / "index.db-wal"
    while run.poll() is None and not (wal.exists() and wal.stat().st_size > WAL_BYTES):
        time.sleep(0.01)
    run.send_signal(signal.SIGKILL)
    run.communicate()
    assert run.returncode == -signal.SIGKILL, "the indexer finished before it could be killed"
    con = sqlite3.connect(db)  # the killed run committed nothing: its transaction rolls back
    assert con.execute("SELECT count(*) FROM files").fetchone() == (0,)
    con.close()

    done = subprocess.run(
        [sys.executable, "-m", "orkestra", "code", "index", str(git_repo)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert con.execute("SELECT count(*) FROM files").fetchone() == (FILES,)
        assert con.execute("SELECT count(*) FROM symbols").fetchone() == (FILES * 80,)
    finally:
        con.close()
