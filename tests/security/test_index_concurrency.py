"""Issue 14 item 14: readers never fail with `database is locked` while `code index` writes."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest
from maguyva_hostile import cli_json, commit_all, write_corpus

from maguyva.api import Maguyva
from maguyva.server.app import Repository

FILES = 700


@pytest.mark.slow
def test_readers_keep_answering_while_full_and_incremental_runs_write(git_repo):
    write_corpus(git_repo, FILES)
    commit_all(git_repo)
    db = git_repo / ".git" / "maguyva" / "index.db"
    cli_json("code", "index", str(git_repo), cwd=git_repo)
    failures: list[str] = []
    answered = [0, 0]
    writing = threading.Event()
    done = threading.Event()

    def fresh_reader():  # a new connection per query: what each new server thread (or CLI call) does
        while not done.is_set():
            try:
                api = Maguyva.open(git_repo, str(db))
                try:
                    assert api.find_symbol("g7")["count"] > 0
                    assert api.get_file("pkg1/mod1.py", start_line=1, end_line=2)["total_lines"] > 2
                    api.search_text("return y * 7")
                    api.index_status()
                finally:
                    api.close()
                if writing.is_set():
                    answered[0] += 1
            except Exception as exc:  # noqa: BLE001 - every failure is what the test counts
                failures.append(f"{type(exc).__name__}: {exc}")

    def long_reader():  # one connection kept open, like a running server's worker thread
        repo = Repository(git_repo, str(db))
        try:
            while not done.is_set():
                try:
                    repo.api().find_symbol("f3")
                    repo.api().search_text("g5", regex=False)
                    if writing.is_set():
                        answered[1] += 1
                except Exception as exc:  # noqa: BLE001
                    failures.append(f"{type(exc).__name__}: {exc}")
        finally:
            repo.close()

    threads = [threading.Thread(target=fresh_reader), threading.Thread(target=long_reader)]
    for thread in threads:
        thread.start()
    try:
        writing.set()
        for args in (["--full"], [], ["--full"]):
            (git_repo / "pkg2" / "mod2.py").write_text(f"def changed_{time.time_ns()}():\n    return 1\n")
            run = subprocess.run(
                [sys.executable, "-m", "orkestra", "code", "index", *args, str(git_repo)],
                capture_output=True,
                text=True,
                timeout=600,
            )
            assert run.returncode == 0, run.stderr
    finally:
        done.set()
        for thread in threads:
            thread.join(timeout=120)
    locked = [f for f in failures if "locked" in f]
    assert not locked, f"{len(locked)} locked failures, first: {locked[0]}"
    assert not failures, failures[:3]
    assert answered[0] > 0, answered
    assert answered[1] > 0, answered
