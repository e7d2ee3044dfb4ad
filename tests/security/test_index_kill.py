"""Issue 14 item 11: kill -9 of `code index --full` at any moment leaves the previous index serving."""

from __future__ import annotations

import json
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from maguyva_hostile import cli, cli_json, commit_all, file_count, write_corpus

from maguyva.api import Maguyva

OLD, NEW = 300, 340
KILLS = 3  # one at a known point (the rebuild's write transaction is under way), the rest at random
# the ranker's index beside the store (``<index>.rank.npz``) is keyed by the files' hashes and written by
# rename; a writer killed mid-write may leave its ``.<pid>.tmp``, removed by the next write
ALLOWED = {"index.db", "index.db-wal", "index.db-shm", "index.db.rank.npz"}
TEMPORARY = re.compile(r"index\.db\.rank\.npz\.\d+\.tmp")


def _serving(root: Path, db: Path) -> int:
    """The number of files the index answers for, checked through the API a server would use."""
    api = Maguyva.open(root, str(db))
    try:
        found = api.find_symbol("f0")["count"]
        status = api.index_status()
    finally:
        api.close()
    files = sum(entry["files"] for entry in status["languages"])
    assert found == min(files, 20), (found, files)
    return files


def _kill(root: Path, db: Path, after: float | None) -> int | None:
    """Start `code index --full`; kill -9 it ``after`` seconds in (None: once its WAL is 1 MB). Its exit code."""
    run = subprocess.Popen(
        [sys.executable, "-m", "orkestra", "code", "index", "--full", str(root)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wal = db.parent / "index.db-wal"
    started = time.monotonic()
    if after is None:
        base = wal.stat().st_size if wal.exists() else 0
        while run.poll() is None and not (wal.exists() and wal.stat().st_size > base + 1_000_000):
            time.sleep(0.005)
    else:
        while run.poll() is None and time.monotonic() - started < after:
            time.sleep(0.005)
    run.send_signal(signal.SIGKILL)
    run.wait()
    return run.returncode


@pytest.mark.slow
def test_killed_full_rebuilds_leave_the_old_index_or_the_new_one(git_repo):
    write_corpus(git_repo, OLD)
    commit_all(git_repo)
    db = git_repo / ".git" / "maguyva" / "index.db"
    started = time.monotonic()
    cli_json("code", "index", str(git_repo), cwd=git_repo)
    duration = time.monotonic() - started
    assert _serving(git_repo, db) == OLD
    write_corpus(git_repo, NEW)  # the rebuild would add 40 files
    rng = random.Random(14)
    outcomes = []
    for attempt in range(KILLS):
        code = _kill(git_repo, db, None if attempt == 0 else rng.uniform(0.1, duration * 1.2))
        outcomes.append(code)
        served = _serving(git_repo, db)
        assert served in (OLD, NEW), f"kill {attempt}: {served} files (old {OLD}, new {NEW})"
        assert file_count(db) == served
        debris = {p.name for p in db.parent.iterdir()} - ALLOWED
        assert not {name for name in debris if not TEMPORARY.fullmatch(name)}, debris
        status = cli_json("code", "status", str(git_repo), cwd=git_repo)
        assert status["totals"]["files"] == served
    assert outcomes[0] == -signal.SIGKILL, "the first rebuild finished before it could be killed"
    cli_json("code", "index", "--full", str(git_repo), cwd=git_repo)
    assert _serving(git_repo, db) == NEW
    assert {p.name for p in db.parent.iterdir()} <= ALLOWED  # a killed writer's temporary is gone
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        con.close()


def _writer_holds_the_lock(conninfo: str) -> bool:
    """Whether an index run holds the store's per-repository write lock (its transaction is open)."""
    import psycopg

    from maguyva.store.postgres.store import _WRITE_LOCK

    with psycopg.connect(conninfo, autocommit=True) as conn:
        return (
            conn.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted "
                "AND objsubid = 2 AND classid::bigint = %s",
                (_WRITE_LOCK,),
            ).fetchone()[0]
            > 0
        )


@pytest.mark.postgres
def test_a_killed_full_rebuild_of_a_postgres_store_leaves_the_previous_rows(git_repo, postgres_url):
    write_corpus(git_repo, OLD)
    commit_all(git_repo)
    store = f"{postgres_url}?workspace=killed&repo=corpus"
    cli_json("code", "index", str(git_repo), "--store", store, cwd=git_repo)
    write_corpus(git_repo, NEW)
    rng = random.Random(11)
    for _ in range(2):
        run = subprocess.Popen(
            [sys.executable, "-m", "orkestra", "code", "index", "--full", str(git_repo), "--store", store],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        while run.poll() is None and not _writer_holds_the_lock(postgres_url):  # the rebuild is writing
            time.sleep(0.01)
        time.sleep(rng.uniform(0, 0.5))
        run.send_signal(signal.SIGKILL)
        run.wait()
        assert run.returncode == -signal.SIGKILL, "the rebuild finished before it could be killed"
        status = cli_json("code", "status", str(git_repo), "--store", store, cwd=git_repo)
        assert status["totals"]["files"] == OLD, status["totals"]
        api = Maguyva.open(git_repo, store)
        try:
            assert api.find_symbol("f0")["count"] > 0
        finally:
            api.close()


def test_a_killed_first_run_leaves_no_index_rather_than_an_empty_one(git_repo):
    write_corpus(git_repo, OLD)
    commit_all(git_repo)
    db = git_repo / ".git" / "maguyva" / "index.db"
    run = subprocess.Popen(
        [sys.executable, "-m", "orkestra", "code", "index", str(git_repo)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    while run.poll() is None and not db.exists():
        time.sleep(0.005)
    time.sleep(0.2)
    run.send_signal(signal.SIGKILL)
    run.wait()
    status = cli("code", "status", str(git_repo), cwd=git_repo)
    if run.returncode == -signal.SIGKILL:  # killed before the index committed: none; after (while the
        # ranker's index was being built beside it): the whole index
        assert (status.returncode == 1 and "no index" in status.stderr) or (
            status.returncode == 0 and json.loads(status.stdout)["totals"]["files"] == OLD
        ), (status.returncode, status.stderr)
    cli_json("code", "index", str(git_repo), cwd=git_repo)
    assert _serving(git_repo, db) == OLD
