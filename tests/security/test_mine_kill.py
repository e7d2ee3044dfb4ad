"""kill -9 of `mine sync` at any moment leaves the old commit index or the new one, never a mix.

First the states a kill can leave, made by hand at each moment that matters (an append cut short, a
full sync's renames half done, a temporary file left behind, a damaged state); then real syncs killed
at random moments, incremental and full, two lanes included.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clirun import run_cli
from conftest import git
from mine_repo import commit, fast_import, mining

from orkestra.errors import OrkestraError
from orkestra.mining.index import GRAPH_FILE, INDEX_FILE, STATE_FILE, load_graph, load_index, sync_index
from orkestra.mining.status import mining_status

FILES = (INDEX_FILE, GRAPH_FILE, STATE_FILE)


def _files(index_dir: Path) -> dict[str, bytes]:
    return {name: (index_dir / name).read_bytes() for name in FILES}


def _restore(index_dir: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        (index_dir / name).write_bytes(data)


def _old_and_new(repo: Path, old: int, new: int) -> tuple[dict, dict]:
    """The index files after syncing ``old`` commits and after ``new`` more; the index is left old."""
    fast_import(repo, old)
    paths = mining(repo)
    sync_index(paths)
    before = _files(paths.index_dir)
    fast_import(repo, new, start=old)
    sync_index(paths)
    after = _files(paths.index_dir)
    _restore(paths.index_dir, before)
    return before, after


def test_an_append_cut_short_is_not_read_and_the_next_sync_drops_it(git_repo):
    before, after = _old_and_new(git_repo, 40, 10)
    paths = mining(git_repo)
    old_shas = list(load_index(paths))
    # killed mid-append: part of the new lines in both files, the state still the old one
    for name in (INDEX_FILE, GRAPH_FILE):
        grown = after[name][len(before[name]) :]
        with (paths.index_dir / name).open("ab") as handle:
            handle.write(grown[: len(grown) // 2 + 7])
    assert list(load_index(paths)) == old_shas
    assert len(load_graph(paths)) == 40
    result = sync_index(paths)
    assert (result.mode, result.new_commits, result.total_commits) == ("incremental", 10, 50)
    assert _files(paths.index_dir) == after


def test_a_full_sync_killed_between_its_renames_leaves_the_old_index(git_repo):
    """The new commits.jsonl is in place, graph.txt and state.json are the old ones."""
    _, after = _old_and_new(git_repo, 40, 10)
    paths = mining(git_repo)
    (paths.index_dir / INDEX_FILE).write_bytes(after[INDEX_FILE])
    assert len(load_index(paths)) == 40  # the old index: its bytes are the new file's first ones
    assert sync_index(paths).mode == "incremental"
    assert _files(paths.index_dir) == after


def test_an_index_that_matches_no_state_is_refused_then_rebuilt(git_repo):
    """History rewritten and synced in full, killed after the index's rename: the new file does not
    start with the old one, so nothing can be read from it until a sync rebuilds it."""
    _old_and_new(git_repo, 40, 10)
    paths = mining(git_repo)
    stale = _files(paths.index_dir)
    git(git_repo, "reset", "-q", "--hard", "HEAD~20")
    git(git_repo, "commit", "-q", "--allow-empty", "-m", "feat: another line of history")
    sync_index(paths, full=True)
    rewritten = _files(paths.index_dir)
    _restore(paths.index_dir, {GRAPH_FILE: stale[GRAPH_FILE], STATE_FILE: stale[STATE_FILE]})
    for read in (load_index, load_graph, mining_status):
        with pytest.raises(OrkestraError, match=r"does not match .*run `orkestra mine sync`"):
            read(paths)
    cli = run_cli("mine", "status", cwd=git_repo)
    assert cli.returncode == 1
    assert "does not match" in cli.stderr
    result = sync_index(paths)
    assert result.mode == "full"
    assert "do not match state.json" in result.reason
    assert _files(paths.index_dir) == rewritten


def test_temporary_files_of_killed_syncs_are_removed_by_the_next(git_repo):
    fast_import(git_repo, 5)
    paths = mining(git_repo)
    sync_index(paths)
    debris = [paths.index_dir / f".{name}.k1ll3d" for name in FILES]
    for path in debris:
        path.write_bytes(b"half")
    sync_index(paths)
    assert not any(path.exists() for path in debris)


def test_a_damaged_state_is_named_then_rebuilt(git_repo):
    fast_import(git_repo, 5)
    paths = mining(git_repo)
    sync_index(paths)
    good = _files(paths.index_dir)
    (paths.index_dir / STATE_FILE).write_text('{"head": ')
    with pytest.raises(OrkestraError, match=r"state\.json: unreadable"):
        load_index(paths)
    assert sync_index(paths).mode == "full"
    assert _files(paths.index_dir) == good


def _children(pid: int) -> set[int]:
    try:
        return {int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}
    except OSError:
        return set()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _killed_sync(repo: Path, full: bool, after: float) -> tuple[int | None, set[int]]:
    """Start `orkestra mine sync`, SIGKILL it ``after`` seconds in: (its exit code, its children then)."""
    args = [sys.executable, "-m", "orkestra", "mine", "sync", *(["--full"] if full else [])]
    run = subprocess.Popen(args, cwd=repo, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started, seen = time.monotonic(), set()
    while run.poll() is None and time.monotonic() - started < after:
        seen |= _children(run.pid)
        time.sleep(0.002)
    run.send_signal(signal.SIGKILL)
    run.wait()
    return run.returncode, seen


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to find the sync's children")
def test_syncs_killed_at_random_moments_leave_the_old_index_or_the_new_one(git_repo):
    """Two lanes (a forked child) from 4,096 commits on: the history is big enough for them, and for
    kills to land while records are written, appended and renamed."""
    old_count, new_count = 4_600, 400
    before, after = _old_and_new(git_repo, old_count, new_count)
    paths = mining(git_repo)
    started = time.monotonic()
    assert run_cli("mine", "sync", "--full", cwd=git_repo).returncode == 0
    span = time.monotonic() - started  # an uninterrupted full sync, start-up included
    rng = random.Random(17)
    outcomes = []
    for trial in range(8):
        _restore(paths.index_dir, before)
        full = trial % 2 == 0  # a full sync of the new history, or an incremental one onto the old index
        code, children = _killed_sync(git_repo, full, rng.uniform(0.1, 1.0) * span)
        deadline = time.monotonic() + 5
        while any(_alive(child) for child in children) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not any(_alive(child) for child in children), "a lane outlived its killed sync"
        shas = list(load_index(paths))  # what a reader sees right after the kill: old or new, whole
        assert len(shas) in (old_count, old_count + new_count)
        assert len(load_graph(paths)) == len(shas)
        outcomes.append((full, code, len(shas)))
        assert sync_index(paths).mode in ("incremental", "up-to-date")
        assert _files(paths.index_dir) == after, outcomes
        leftovers = [p.name for p in paths.index_dir.iterdir() if p.name.startswith(".")]
        assert leftovers == [".gitignore"], leftovers
    assert any(code == -signal.SIGKILL for _, code, _ in outcomes), outcomes  # some kills landed mid-run


def test_the_state_counts_the_bytes_it_vouches_for(git_repo):
    fast_import(git_repo, 7)
    paths = mining(git_repo)
    sync_index(paths)
    state = json.loads((paths.index_dir / STATE_FILE).read_text())
    assert state["bytes"] == {
        name: os.path.getsize(paths.index_dir / name) for name in (INDEX_FILE, GRAPH_FILE)
    }


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc to see whether the lane lives")
def test_a_lane_dies_with_its_killed_sync():
    """A forked lane still at work when its sync is killed stops too: it would hold the sync's lock (its
    file descriptor is inherited) and run its gits for nothing."""
    script = (
        "import sys, time\n"
        "from orkestra.mining import lanes\n"
        "child = lanes.start_lane(lambda: time.sleep(60) or 0)\n"
        "print(child.pid, flush=True)\n"
        "time.sleep(60)\n"
    )
    run = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    child = int(run.stdout.readline())
    assert _alive(child)
    run.send_signal(signal.SIGKILL)
    run.wait()
    deadline = time.monotonic() + 10
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not _alive(child)


@pytest.mark.parametrize("summary", [None, "Another summary on the second try"])
def test_a_classification_killed_between_its_two_ledgers_is_settled_by_the_next(
    git_repo, monkeypatch, summary
):
    """The release note was appended and fdatasync'd, the process died before the classification: the
    next classification of that commit neither repeats the note (a `mine validate` error) nor loses it."""
    from orkestra.mining import classify, ledger
    from orkestra.mining.classify import classify_commit
    from orkestra.mining.ledger import ledger_files, read_records
    from orkestra.mining.validate import validate_ledgers

    sha = [commit(git_repo, f"fix: change {day}", {f"f{day}.py": "x\n"}, day=day) for day in (1, 2)][-1]
    paths = mining(git_repo)
    sync_index(paths)
    real = ledger.append_lines
    calls = []

    def killed(root, path, records):
        calls.append(path.name)
        if len(calls) == 2:
            raise SystemExit(137)  # the process dies here: the notes are written, the classification is not
        real(root, path, records)

    monkeypatch.setattr(classify, "append_lines", killed)
    with pytest.raises(SystemExit):
        classify_commit(paths, sha, changelog="fixed")
    monkeypatch.setattr(classify, "append_lines", real)
    processed, notes = ledger_files(paths)
    assert calls == [notes.name, processed.name]
    assert not processed.exists()
    classify_commit(paths, sha, changelog="fixed", summary=summary)
    lines = read_records(notes)
    assert [line["sha"] for line in lines] == [sha] * (1 if summary is None else 2)
    assert lines[-1]["summary"] == (summary or "change 2")
    assert validate_ledgers(paths)["ok"], validate_ledgers(paths)
