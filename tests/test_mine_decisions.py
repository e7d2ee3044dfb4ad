"""Decision ids and the record writer behind `mine classify --decision`."""

from __future__ import annotations

import pytest
from mine_repo import commit, mining

from orkestra.errors import NotFoundError
from orkestra.mining.classify import classify_commit
from orkestra.mining.decisions import next_decision_id
from orkestra.mining.index import sync_index
from orkestra.workspace.load import Workspace

RECORD = "id: {id}\ntitle: T\ndomain: pipeline\ncreated: '2026-01-01'\n"


def _workspace(root, ids):
    (root / "orkestra.yaml").write_text("project: demo\n")
    decisions = root / "ai_assets/reference/decisions"
    (decisions / "records").mkdir(parents=True)
    (decisions / "registry.yaml").write_text("domains:\n  pipeline: {code: PL}\n  search: {code: SR}\n")
    for decision_id in ids:
        (decisions / "records" / f"{decision_id}.yaml").write_text(RECORD.format(id=decision_id))
    return Workspace.load(root)


def test_next_id_follows_the_highest_number_of_the_domain(tmp_path):
    ws = _workspace(tmp_path, ["DEC-PL-001", "DEC-PL-142", "DEC-SR-049"])
    assert next_decision_id(ws, "pipeline") == "DEC-PL-143"
    assert next_decision_id(ws, "PL") == "DEC-PL-143"
    assert next_decision_id(ws, "search") == "DEC-SR-050"


def test_first_id_of_an_empty_domain_is_001(tmp_path):
    assert next_decision_id(_workspace(tmp_path, []), "search") == "DEC-SR-001"


def test_a_record_that_fails_to_load_still_reserves_its_id(tmp_path):
    ws = _workspace(tmp_path, ["DEC-PL-007"])
    (tmp_path / "ai_assets/reference/decisions/records/DEC-PL-008.yaml").write_text("id: [broken\n")
    assert next_decision_id(Workspace.load(tmp_path), "pipeline") == "DEC-PL-009"
    assert ws.decisions.keys() == {"DEC-PL-007"}


def test_unknown_domain_suggests_close_names(tmp_path):
    with pytest.raises(NotFoundError, match="did you mean 'pipeline'"):
        next_decision_id(_workspace(tmp_path, []), "pipelin")


def test_classify_fills_a_skeleton_record_and_it_still_loads(git_repo):
    _workspace(git_repo, [])
    skeleton = git_repo / "ai_assets/reference/decisions/records/DEC-PL-001.yaml"
    skeleton.write_text(
        "# skeleton\nid: DEC-PL-001\ntitle: 'TODO'\ndomain: pipeline\nstatus: proposed\n"
        "created: '2026-01-01'\nrationale: []\nsource_commits: []\nfiles: []\nrelated: []\n"
    )
    sha = commit(git_repo, "feat(pipeline): adopt DuckDB", {"p/duck.py": "1\n"}, day=3)
    sync_index(mining(git_repo))
    classify_commit(mining(git_repo), sha[:9], decision="DEC-PL-001")
    assert skeleton.read_text() == (
        "# skeleton\nid: DEC-PL-001\ntitle: 'TODO'\ndomain: pipeline\nstatus: proposed\ncreated: '2026-01-01'\n"
        f"rationale: []\nsource_commits:\n- sha: {sha}\n  message: 'feat(pipeline): adopt DuckDB'\n"
        "  date: '2026-01-03'\n  role: primary\nfiles:\n- p/duck.py\nrelated: []\n"
    )
    decision = Workspace.load(git_repo).decisions["DEC-PL-001"]
    assert [(c.sha, c.role) for c in decision.source_commits] == [(sha, "primary")]


def test_classify_creates_a_missing_record_that_loads(git_repo):
    _workspace(git_repo, [])
    sha = commit(git_repo, "feat(search): rank by recency", {"s.py": "1\n"}, day=4)
    sync_index(mining(git_repo))
    classify_commit(mining(git_repo), sha, decision="DEC-SR-001")
    ws = Workspace.load(git_repo)
    decision = ws.decisions["DEC-SR-001"]
    assert (decision.title, decision.domain, decision.status, decision.files) == (
        "rank by recency",
        "search",
        "proposed",
        ["s.py"],
    )
    assert not [d for d in ws.diagnostics if "decisions" in d.path]
