"""A planted ``state.json`` cannot smuggle options into the git commands `mine sync` runs (issue #17)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from mine_repo import commit, mining

from orkestra.mining.index import STATE_FILE, load_index, sync_index


@pytest.mark.parametrize("planted", ["--output={out}", "-h", "HEAD~1", "HEAD\n--all"])
def test_a_planted_head_is_never_passed_to_git_and_forces_a_rebuild(git_repo, tmp_path, planted):
    for day in (1, 2):
        commit(git_repo, f"feat: change {day}", {f"f{day}.py": "x\n"}, day=day)
    paths = mining(git_repo)
    sync_index(paths)
    state_path = paths.index_dir / STATE_FILE
    state = json.loads(state_path.read_text())
    out = tmp_path / "pwned"
    state["head"] = planted.format(out=out)
    state_path.write_text(json.dumps(state))
    commit(git_repo, "fix: three", {"f3.py": "x\n"}, day=3)
    result = sync_index(paths)
    assert (result.mode, result.total_commits) == ("full", 3)
    assert "rewritten" in result.reason
    assert [c["subject"] for c in load_index(paths).values()] == [
        "feat: change 1",
        "feat: change 2",
        "fix: three",
    ]
    assert not out.exists()
