"""A planted ``state.json`` cannot smuggle options into the git commands `mine sync` runs (issue #17)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mine_repo import commit, mining

from orkestra.errors import OrkestraError
from orkestra.mining.index import GRAPH_FILE, INDEX_FILE, STATE_FILE, load_index, sync_index


@pytest.mark.parametrize("consistent", [False, True])
@pytest.mark.parametrize("planted", ["--output={out}", "-h", "HEAD~1", "HEAD\n--all"])
def test_a_planted_head_is_never_passed_to_git_and_forces_a_rebuild(git_repo, tmp_path, planted, consistent):
    """Planted in ``state.json`` alone, the head names no committed line and the index is rebuilt as one
    that matches no state; planted in the index files' last lines too, it gets as far as ``Git.is_ancestor``,
    which refuses it (a newline cannot be planted so: JSON escapes it)."""
    for day in (1, 2):
        commit(git_repo, f"feat: change {day}", {f"f{day}.py": "x\n"}, day=day)
    paths = mining(git_repo)
    sync_index(paths)
    state_path = paths.index_dir / STATE_FILE
    state = json.loads(state_path.read_text())
    out = tmp_path / "pwned"
    head = planted.format(out=out)
    state["head"] = head
    if consistent:
        lines = {INDEX_FILE: json.dumps({"sha": head}, separators=(",", ":")), GRAPH_FILE: head}
        for name, line in lines.items():
            with (paths.index_dir / name).open("a") as handle:
                handle.write(line + "\n")
            state["bytes"][name] = (paths.index_dir / name).stat().st_size
    state_path.write_text(json.dumps(state))
    commit(git_repo, "fix: three", {"f3.py": "x\n"}, day=3)
    result = sync_index(paths)
    assert (result.mode, result.total_commits) == ("full", 3)
    assert ("rewritten" if consistent and "\n" not in head else "do not match") in result.reason
    assert [c["subject"] for c in load_index(paths).values()] == [
        "feat: change 1",
        "feat: change 2",
        "fix: three",
    ]
    assert not out.exists()


@pytest.mark.parametrize(
    "planted", [{"head": 12}, {"head": ["HEAD"]}, {"bytes": "all"}, {"bytes": {"commits.jsonl": True}}]
)
def test_a_state_of_the_wrong_shape_vouches_for_nothing(git_repo, planted):
    commit(git_repo, "feat: one", {"f.py": "x\n"}, day=1)
    paths = mining(git_repo)
    sync_index(paths)
    state_path = paths.index_dir / STATE_FILE
    state_path.write_text(json.dumps(json.loads(state_path.read_text()) | planted))
    with pytest.raises(OrkestraError, match="does not match"):
        load_index(paths)
    assert sync_index(paths).mode == "full"
    assert len(load_index(paths)) == 1
