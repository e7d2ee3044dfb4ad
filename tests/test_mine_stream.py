"""`mine sync` streams: the index bytes, a failure mid-stream, path signals once per path, safe plumbing."""

from __future__ import annotations

import itertools
import json

import pytest
from conftest import git
from mine_repo import commit, mining

from orkestra.errors import OrkestraError
from orkestra.mining import lanes
from orkestra.mining.git import Git
from orkestra.mining.index import INDEX_FILE, sync_index
from orkestra.mining.signals import SignalExtractor


@pytest.fixture
def alone(monkeypatch):
    """The sync sees no other thread: earlier tests of a full suite leave idle worker threads behind
    (anyio, asyncio executors), and mining never forks beside threads. Only ``orkestra.mining.index``
    is told so; the refusal itself is tested with a real thread below."""
    import types

    import orkestra.mining.index as mining_index

    monkeypatch.setattr(mining_index, "threading", types.SimpleNamespace(active_count=lambda: 1))


def test_index_lines_are_the_compact_json_of_each_record_oldest_first(git_repo):
    commit(
        git_repo, 'feat(ui): café \u2028 naïve\n\nTab\there \x01 and "quotes" \\ too', {"a.py": "1\n"}, day=1
    )
    commit(git_repo, "fix: second", {"b.py": "1\n"}, day=2)
    sync_index(mining(git_repo))
    raw = (mining(git_repo).index_dir / INDEX_FILE).read_bytes()
    lines = raw.decode("utf-8").split("\n")[:-1]  # not splitlines(): U+2028 stays inside a line
    records = [json.loads(line) for line in lines]
    assert [r["subject"] for r in records] == ["feat(ui): café \u2028 naïve", "fix: second"]
    assert lines == [json.dumps(r, ensure_ascii=False, separators=(",", ":")) for r in records]


def test_a_log_that_fails_mid_stream_leaves_the_old_index(git_repo, monkeypatch):
    import orkestra.mining.git as mining_git

    for day in range(1, 4):
        commit(git_repo, f"feat: change {day}", {f"f{day}.py": "x\n"}, day=day)
    paths = mining(git_repo)
    sync_index(paths)
    before = (paths.index_dir / INDEX_FILE).read_bytes()
    original = mining_git.LogPart.__iter__
    monkeypatch.setattr(mining_git.LogPart, "__iter__", lambda part: _dies_after_one(original(part)))
    monkeypatch.setattr(lanes, "log_newest", lambda *a: _dies_after_one(iter(())))  # the full sync's child
    for full in (True, False):
        commit(git_repo, "fix: one more", {"g.py": f"{full}\n"})
        with pytest.raises(OrkestraError, match="git log died"):
            sync_index(paths, full=full)
        assert (paths.index_dir / INDEX_FILE).read_bytes() == before
    assert not [
        p for p in paths.index_dir.iterdir() if p.name.startswith(f".{INDEX_FILE}.")
    ]  # no temporary left


def _dies_after_one(run):
    stream = iter(run)
    yield from itertools.islice(stream, 1)
    raise OrkestraError("git log died")


def _split_small(monkeypatch):
    """Make a nine-commit history take every path of a two-process sync: three parts, chunks of two."""
    import orkestra.mining.git as mining_git

    monkeypatch.setattr(mining_git, "SPLIT_MIN_COMMITS", 2)
    monkeypatch.setattr(mining_git, "CHUNK_COMMITS", 2)
    monkeypatch.setattr(lanes, "NEWEST_COMMITS", 3)  # the child streams at most 3 first, one at a time
    monkeypatch.setattr(lanes, "NEWEST_STEP", 1)
    monkeypatch.setattr(lanes, "LEAST_RUN", 1)  # then runs of one or two commits from each end


@pytest.mark.parametrize("failing", ["newest", "parts"])
def test_a_failure_in_either_process_of_a_forked_sync_leaves_the_old_index(
    git_repo, monkeypatch, alone, failing
):
    """The child streams the newest commits, then takes runs from the list: its failure reaches the parent."""
    import orkestra.mining.git as mining_git

    _branchy_history(git_repo)
    paths = mining(git_repo)
    sync_index(paths)
    before = (paths.index_dir / INDEX_FILE).read_bytes()
    _split_small(monkeypatch)
    if failing == "newest":
        original = lanes.log_newest
        monkeypatch.setattr(lanes, "log_newest", lambda *a: _dies_after_one(original(*a)))
    else:
        original = mining_git.LogPart.__iter__
        monkeypatch.setattr(mining_git.LogPart, "__iter__", lambda part: _dies_after_one(original(part)))
    with pytest.raises(OrkestraError, match="git log died"):
        sync_index(paths, full=True)
    assert (paths.index_dir / INDEX_FILE).read_bytes() == before


def _index_files(paths) -> dict[str, bytes]:
    return {name: (paths.index_dir / name).read_bytes() for name in (INDEX_FILE, "graph.txt", "state.json")}


def _one_process_index(git_repo, monkeypatch):
    """The branchy history synced in full by one process: (its mining paths, the files it wrote); two
    workers are allowed again afterwards."""
    import orkestra.mining.index as mining_index

    _branchy_history(git_repo)
    paths = mining(git_repo)
    monkeypatch.setattr(mining_index, "WORKERS", 1)
    sync_index(paths, full=True)
    one = _index_files(paths)
    monkeypatch.setattr(mining_index, "WORKERS", 2)
    return paths, one


@pytest.mark.parametrize("full", [True, False])
def test_a_forked_sync_writes_the_bytes_of_a_sync_in_one_process(git_repo, monkeypatch, alone, full):
    import orkestra.mining.index as mining_index

    _branchy_history(git_repo)
    paths = mining(git_repo)
    base = git(git_repo, "rev-list", "--max-parents=0", "HEAD").strip()
    monkeypatch.setattr(mining_index, "WORKERS", 1)
    sync_index(paths, full=True)
    one = _index_files(paths)
    if not full:  # an incremental sync from the first commit on: the listed range in two runs
        sync_index(paths, full=True)
        state = json.loads((paths.index_dir / "state.json").read_text())
        lines = (paths.index_dir / INDEX_FILE).read_bytes().splitlines(keepends=True)
        (paths.index_dir / INDEX_FILE).write_bytes(lines[0])
        graph = (paths.index_dir / "graph.txt").read_bytes().splitlines(keepends=True)
        (paths.index_dir / "graph.txt").write_bytes(graph[0])
        committed = {INDEX_FILE: len(lines[0]), "graph.txt": len(graph[0])}
        (paths.index_dir / "state.json").write_text(
            json.dumps(state | {"head": base, "count": 1, "bytes": committed})
        )
    monkeypatch.setattr(mining_index, "WORKERS", 2)
    _split_small(monkeypatch)
    forks = []
    original = mining_index.os.fork
    monkeypatch.setattr(mining_index.os, "fork", lambda: forks.append(1) or original())
    result = sync_index(paths, full=full)
    assert (forks, result.mode) == ([1], "full" if full else "incremental")
    assert _index_files(paths) == one


def test_a_walk_that_differs_from_the_list_is_read_again_not_trusted(git_repo, monkeypatch, alone):
    """If git's streamed walk ever disagreed with ``rev-list``, the parent reads those commits itself."""
    import orkestra.mining.index as mining_index

    paths, one = _one_process_index(git_repo, monkeypatch)
    _split_small(monkeypatch)
    original = lanes.log_newest
    monkeypatch.setattr(lanes, "log_newest", lambda *a: (c for c in sorted(original(*a))))  # by sha
    forks = []
    fork = mining_index.os.fork
    monkeypatch.setattr(mining_index.os, "fork", lambda: forks.append(1) or fork())
    sync_index(paths, full=True)
    assert forks == [1]
    assert _index_files(paths) == one


def test_path_signals_are_computed_once_per_distinct_path(git_repo, monkeypatch):
    (git_repo / "orkestra.yaml").write_text("mining:\n  domains:\n    web: {paths: ['apps/web/**']}\n")
    for day in range(1, 6):
        commit(
            git_repo, f"fix: tweak {day}", {"apps/web/rank.js": f"{day}\n", "Dockerfile": f"{day}\n"}, day=day
        )
    built = []
    original = SignalExtractor.build.__func__

    def spy(cls, config, packages):
        built.append(original(cls, config, packages))
        return built[-1]

    monkeypatch.setattr(SignalExtractor, "build", classmethod(spy))
    monkeypatch.setattr("orkestra.mining.index.WORKERS", 1)  # one process: its extractor sees every path
    sync_index(mining(git_repo))
    extractor = built[0]
    assert sorted(extractor._paths) == ["Dockerfile", "apps/web/rank.js"]  # 10 file changes, 2 paths
    assert extractor.path_signals("apps/web/rank.js") is extractor._paths["apps/web/rank.js"]
    web = extractor.path_signals("apps/web/rank.js")
    assert (sorted(web.domains), web.dependency) == ([0], False)


def test_is_ancestor_refuses_anything_but_a_full_sha(git_repo):
    commit(git_repo, "feat: one", {"a": "1\n"}, day=1)
    repo = Git(git_repo)
    head = git(git_repo, "rev-parse", "HEAD").strip()
    assert repo.is_ancestor(head, head) is True
    assert repo.is_ancestor("--help", head) is False
    assert repo.is_ancestor("HEAD", head) is False


def test_git_outside_a_repository_is_a_clear_error(tmp_path):
    with pytest.raises(OrkestraError, match="not inside a git repository"):
        Git(tmp_path / "missing")


def _branchy_history(repo):
    """Commits on two branches with interleaved dates, merged twice: a walk whose order is not a line."""
    commit(repo, "feat: base", {"a.py": "0\n"}, day=1)
    git(repo, "checkout", "-q", "-b", "topic")
    for day in (2, 4, 6):
        commit(repo, f"fix(topic): step {day}", {"topic/t.py": f"{day}\n", "a.py": f"t{day}\n"}, day=day)
    git(repo, "checkout", "-q", "main")
    for day in (3, 5):
        commit(repo, f"feat(main): step {day}", {"main/m.py": f"{day}\n"}, day=day)
    git(repo, "merge", "-q", "--no-ff", "-X", "ours", "topic", "-m", "Merge branch 'topic'")
    commit(repo, "docs: after the merge", {"README.md": "x\n", "gone.txt": "y\n"}, day=7)
    git(repo, "rm", "-q", "gone.txt")
    commit(repo, "chore: drop a file", day=8)


@pytest.mark.parametrize("stats", [False, True])
def test_the_log_parts_give_the_single_logs_records_in_the_same_order(git_repo, monkeypatch, stats):
    _branchy_history(git_repo)
    import orkestra.mining.git as mining_git

    single = list(mining_git.Git(git_repo).log("HEAD", stats, reverse=False))[::-1]
    monkeypatch.setattr(mining_git, "SPLIT_MIN_COMMITS", 2)  # split even this short history
    monkeypatch.setattr(mining_git, "CHUNK_COMMITS", 2)  # and each run in gits of two commits
    started = []
    original = mining_git.git.popen
    monkeypatch.setattr(mining_git.git, "popen", lambda *a, **k: started.append(a) or original(*a, **k))
    with mining_git.log_parts(git_repo, "HEAD", stats) as parts:
        runs = [list(part) for part in parts]
    assert [len(run) for run in runs] == [4, 5]
    assert [r for run in runs for r in run] == single
    assert len(single) == 9
    assert any(len(r.parents) == 2 for r in single)  # the merge, diffed against its first parent as before
    kinds = [
        "log" if "log" in a and "--stdin" in a else "rev-list" if "rev-list" in a else a for a in started
    ]
    assert kinds == ["rev-list"] + ["log"] * 5  # the list, then one git per chunk of at most two commits
    base = single[0].sha
    with mining_git.log_parts(git_repo, f"{base}..HEAD", stats) as parts:
        assert [r for part in parts for r in part] == single[1:]


def test_the_log_parts_of_an_empty_range_are_none_not_head(git_repo):
    from orkestra.mining.git import log_parts

    head = commit(git_repo, "feat: only", {"a.py": "1\n"})
    with log_parts(git_repo, f"{head}..{head}") as parts:
        assert parts == []


def test_the_log_parts_of_a_bad_revision_are_a_clear_error(git_repo):
    from orkestra.mining.git import log_parts

    commit(git_repo, "feat: only", {"a.py": "1\n"})
    with pytest.raises(OrkestraError, match="git rev-list nope failed"), log_parts(git_repo, "nope"):
        pass


def test_a_log_part_closed_early_stops_its_git(git_repo, monkeypatch):
    import orkestra.mining.git as mining_git

    _branchy_history(git_repo)
    monkeypatch.setattr(mining_git, "SPLIT_MIN_COMMITS", 2)
    started = []
    original = mining_git.git.popen
    monkeypatch.setattr(
        mining_git.git, "popen", lambda *a, **k: started.append(original(*a, **k)) or started[-1]
    )
    with mining_git.log_parts(git_repo, "HEAD") as parts:
        stream = iter(parts[0])
        assert next(stream).message.startswith("feat: base")
        stream.close()
    assert len(started) == 2
    assert all(proc.returncode is not None for proc in started)


def test_a_sync_in_a_process_that_runs_other_threads_does_not_fork(git_repo, monkeypatch):
    import threading

    import orkestra.mining.git as mining_git
    import orkestra.mining.index as mining_index

    _branchy_history(git_repo)
    monkeypatch.setattr(mining_git, "SPLIT_MIN_COMMITS", 2)
    monkeypatch.setattr(mining_index.os, "fork", lambda: pytest.fail("forked beside another thread"))
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        result = sync_index(mining(git_repo), full=True)
    finally:
        stop.set()
        other.join()
    assert result.new_commits == 9


@pytest.mark.parametrize("block", [1, 7, 10, 1 << 20])
def test_records_written_last_first_come_out_whole_whatever_the_block(tmp_path, block):
    """The child writes its newest-first records oldest first: one read per block of records, a record
    larger than the block read alone."""
    from orkestra.mining.lanes import write_reversed

    records = [b"a" * 3, b"bb\n", b"c" * 12, b"", b"d\n", b"e" * 9]
    with (tmp_path / "source").open("wb+") as source, (tmp_path / "target").open("wb+") as target:
        source.write(b"prefix" + b"".join(records))
        source.flush()
        write_reversed(source.fileno(), [len(r) for r in records], source.tell(), target, block=block)
        target.seek(0)
        assert target.read() == b"".join(reversed(records))


@pytest.mark.parametrize("block", [1, 41 * 2, 1 << 20])
def test_the_childs_lines_are_checked_against_the_list_in_blocks(tmp_path, block):
    from orkestra.mining.lanes import listed

    shas = [f"{n:040x}".encode() for n in range(7)]
    revs = tmp_path / "revs"
    revs.write_bytes(b"".join(s + b"\n" for s in shas))
    lines = tmp_path / "lines"
    with revs.open("rb") as listing, lines.open("wb+") as graph:
        graph.write(b"".join(s + b" parent\n" for s in shas[2:6]))
        assert listed(graph, listing, 41, 2, 6, block)
        assert not listed(graph, listing, 41, 2, 7, block)  # one line short
        assert not listed(graph, listing, 41, 1, 5, block)  # shifted by one
        graph.write(shas[6] + b"\n")
        assert not listed(graph, listing, 41, 2, 6, block)  # one line too many


def test_log_gits_write_fully_buffered_output(git_repo, monkeypatch):
    """``GIT_FLUSH=0``: git writes its log in blocks instead of flushing after every commit (same bytes)."""
    import orkestra.git as orkestra_git

    commit(git_repo, "feat: one", {"a.py": "1\n"}, day=1)
    envs = []
    popen = orkestra_git.popen
    monkeypatch.setattr(orkestra_git, "popen", lambda *a, **k: envs.append(k.get("env")) or popen(*a, **k))
    from orkestra.mining.git import log_newest

    assert [c.message for c in log_newest(git_repo, "HEAD", False, 5)] == ["feat: one\n"]
    assert envs
    assert all(env["GIT_FLUSH"] == "0" for env in envs)


def test_claims_give_every_listed_commit_to_one_lane_once():
    """Runs from both ends: half of what is left, at most ``most``, at least LEAST_RUN (unless less is left)."""
    claims = lanes.Claims()
    assert claims.newest(5) == 5  # before the list is made the child's first stream is not held back
    claims.listed(1000)
    runs, front = [], True
    while run := claims.take(front, most=300):
        runs.append(run)
        front = not front
    claims.give_back(0)
    assert sorted(p for a, b in runs for p in range(a, b)) == list(range(995))  # 995..999: the newest five
    sizes = [b - a for a, b in runs]
    assert sizes == [
        300,
        300,
        256,
        139,
    ]  # 995 left: 695, 395, then half of it but at least 256, then the rest
    assert claims.newest(10) == 0
    assert claims.front() == max(b for a, b in runs if a < 500)


def test_claims_exclude_each_other_across_a_fork(monkeypatch):
    """Two processes taking one commit at a time as fast as they can: every position once, none twice."""
    import multiprocessing

    monkeypatch.setattr(lanes, "LEAST_RUN", 1)
    total = 4000
    claims = lanes.Claims()
    claims.listed(total)

    context = multiprocessing.get_context("fork")
    parent_started, child_started = context.Event(), context.Event()

    def take_all(front: bool, started, other) -> list[int]:
        """Claims until none is left; after its first, a side waits for the other's first, so the two
        really race (a fork's start-up would otherwise let the parent take all 4,000 first)."""
        taken = []
        for run in iter(lambda: claims.take(front, most=1), None):
            taken.append(run[0])
            if len(taken) == 1:
                started.set()
                other.wait(30)
        return taken

    theirs, their_end = context.Pipe(duplex=False)
    child = context.Process(target=lambda: their_end.send(take_all(False, child_started, parent_started)))
    child.start()
    mine = take_all(True, parent_started, child_started)
    child_took = theirs.recv()
    child.join()
    assert sorted(mine + child_took) == list(range(total))
    # both took part
    assert mine
    assert child_took


@pytest.mark.parametrize("newest", [3, 100])  # the child's first stream: 3 commits, or the whole history
@pytest.mark.parametrize("slow", ["parent", "child"])
def test_the_lanes_meet_where_the_work_meets(git_repo, monkeypatch, alone, slow, newest):
    """The slower lane writes fewer commits, and the bytes stay those of one process (also when the
    child's first stream meets the parent and stops its git there)."""
    import os
    import time

    import orkestra.mining.index as mining_index

    paths, one = _one_process_index(git_repo, monkeypatch)
    _split_small(monkeypatch)
    monkeypatch.setattr(lanes, "NEWEST_COMMITS", newest)
    parent, written_here = os.getpid(), []
    original = mining_index._lines

    def lines(raw, extractor):
        here = os.getpid() == parent
        written_here.extend([raw.sha] if here else [])
        if here == (slow == "parent"):
            time.sleep(0.2)
        return original(raw, extractor)

    monkeypatch.setattr(mining_index, "_lines", lines)
    sync_index(paths, full=True)
    assert _index_files(paths) == one
    # of nine; a split fixed in advance gave this process 5 whichever lane was slow
    assert len(written_here) <= 4 if slow == "parent" else len(written_here) >= 6


def test_a_sync_pinned_to_one_cpu_does_not_fork(git_repo, monkeypatch, alone):
    """Two lanes on one usable CPU would only add the list's work: one process writes every record."""
    import orkestra.mining.index as mining_index

    paths, one = _one_process_index(git_repo, monkeypatch)
    monkeypatch.setattr(mining_index.os, "sched_getaffinity", lambda pid: {0}, raising=False)
    monkeypatch.setattr(mining_index.os, "fork", lambda: pytest.fail("forked on one usable CPU"))
    assert sync_index(paths, full=True).new_commits == 9
    assert _index_files(paths) == one
