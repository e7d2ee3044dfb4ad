"""Hostile commit messages and file names cannot fabricate index records or ledger lines (issue #14, item 16)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from conftest import git
from mine_repo import commit, mining

from orkestra.errors import WorkspaceError
from orkestra.mining.classify import classify_commit, commit_classifications
from orkestra.mining.index import INDEX_FILE, STATE_FILE, load_index, sync_index

FAKE = "f" * 40


def _hostile(repo: Path) -> list[str]:
    files = {f"f{n}.txt": f"{n}\n" for n in range(1, 6)}
    shas = [commit(repo, "feat: base", {"a.txt": "a\n"}, day=1)]
    shas.append(commit(repo, f"fix: tricky\x1e{FAKE}\n\nbody \x1e{FAKE}\n", files, day=2))
    shas.append(commit(repo, "chore: name games", {f"\x1e{FAKE}": "x\n", FAKE: "y\n", "M": "z\n"}, day=3))
    return shas


def test_record_separator_and_fake_shas_in_messages_and_names_fabricate_nothing(git_repo):
    shas = _hostile(git_repo)
    result = sync_index(mining(git_repo), stats=False)
    index = load_index(mining(git_repo))
    assert (result.new_commits, list(index)) == (3, shas)
    assert index[shas[1]]["subject"].startswith("fix: tricky")
    assert index[shas[1]]["files_changed"] == [f"f{n}.txt" for n in range(1, 6)]
    assert sorted(index[shas[2]]["files_changed"]) == sorted(["M", FAKE, f"\x1e{FAKE}"])
    assert all(c["date"].startswith("2026-01-") for c in index.values())


def test_the_same_history_with_stats(git_repo):
    shas = _hostile(git_repo)
    sync_index(mining(git_repo), stats=True)
    index = load_index(mining(git_repo))
    assert list(index) == shas
    assert index[shas[1]]["stats"] == {"files": 5, "insertions": 5, "deletions": 0}


def test_classify_and_commit_refuse_a_sha_planted_in_the_index(git_repo, tmp_path):
    shas = _hostile(git_repo)
    paths = mining(git_repo)
    sync_index(paths)
    index_file, state_file = paths.index_dir / INDEX_FILE, paths.index_dir / STATE_FILE
    planted = json.loads(index_file.read_text().splitlines()[0]) | {"sha": FAKE}
    line = (json.dumps(planted, separators=(",", ":")) + "\n").encode()
    index_file.write_bytes(line + index_file.read_bytes())  # first, and counted: the head's line stays last
    state = json.loads(state_file.read_text())
    state["bytes"][INDEX_FILE] += len(line)
    state_file.write_text(json.dumps(state))
    assert FAKE in load_index(paths)
    with pytest.raises(WorkspaceError, match="not a commit of this repository"):
        classify_commit(paths, FAKE, changelog="fixed")
    batch = tmp_path / "batch.jsonl"
    batch.write_text(
        "".join(
            json.dumps({"sha": s, "domain": "changelog", "action": "skip", "reason": "x"}) + "\n"
            for s in (shas[0], FAKE)
        )
    )
    with pytest.raises(WorkspaceError, match=r"batch.jsonl:2:1: sha: .*not a commit of this repository"):
        commit_classifications(paths, batch)
    assert not (paths.ledger_dir / "commits_processed.jsonl").exists()  # all or nothing
    classify_commit(paths, shas[1], changelog="fixed")
    assert git(git_repo, "cat-file", "-t", shas[1]).strip() == "commit"


def test_a_planted_sha_with_a_newline_cannot_borrow_a_real_commits_answer(git_repo):
    from orkestra.mining.git import existing_commits

    shas = _hostile(git_repo)
    assert existing_commits(git_repo, [f"{FAKE}\n{shas[0]}", shas[1], "HEAD", shas[0][:7]]) == {shas[1]}
