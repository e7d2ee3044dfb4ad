"""Classifying commits into the ledgers: single, batch (all or nothing), corrections, decision records."""

from __future__ import annotations

import json

import pytest
import yaml
from mine_repo import commit, mining

from orkestra.errors import UsageError, WorkspaceError
from orkestra.mining.classify import classify_commit, commit_classifications
from orkestra.mining.index import sync_index
from orkestra.mining.ledger import ledger_files
from orkestra.mining.status import mining_status

REGISTRY = "domains:\n  pipeline: {code: PL, description: Pipelines}\n  search: {code: SR}\n"
RECORD = """id: DEC-PL-001
title: Adopt DuckDB   # keep this comment
domain: pipeline
status: active
created: '2026-01-02'
summary: |
  Canonical runtime.
source_commits:
- {sha: %s, message: 'feat: old', date: '2026-01-01', role: primary}
files:
- old.py
related: [DEC-SR-001]
"""


@pytest.fixture
def repo(git_repo):
    shas = [
        commit(git_repo, "feat(pipeline): add runtime", {"p/run.py": "1\n"}, day=1),
        commit(git_repo, "fix: crash on empty input", {"p/in.py": "1\n"}, day=2),
        commit(git_repo, "chore: bump deps", {"pyproject.toml": "[project]\n"}, day=3),
    ]
    decisions = git_repo / "ai_assets/reference/decisions"
    (decisions / "records").mkdir(parents=True)
    (decisions / "registry.yaml").write_text(REGISTRY)
    sync_index(mining(git_repo))
    return git_repo, shas


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_classify_release_writes_both_ledgers(repo):
    root, shas = repo
    outcome = classify_commit(mining(root), shas[0][:8], changelog="added", summary="Add the runtime")
    processed, notes = ledger_files(mining(root))
    assert outcome.to_dict() == {
        "recorded": 1,
        "released": 1,
        "extracted": 0,
        "skipped": 0,
        "decision_records": [],
    }
    assert _lines(processed) == [
        {"sha": shas[0], "domain": "changelog", "action": "release", "category": "added"}
    ]
    assert _lines(notes) == [
        {
            "sha": shas[0],
            "date": "2026-01-01",
            "category": "added",
            "summary": "Add the runtime",
            "scope": "pipeline",
            "breaking": False,
            "packages": ["."],
            "type": "feat",
        }
    ]


def test_skip_marks_both_ledgers_unless_one_is_named(repo):
    root, shas = repo
    classify_commit(mining(root), shas[2], skip=True, reason="Chore: dependency update")
    classify_commit(mining(root), shas[1], skip=True, reason="not a decision", only="decisions")
    processed, _ = ledger_files(mining(root))
    assert [(r["sha"], r["domain"], r["action"]) for r in _lines(processed)] == [
        (shas[2], "changelog", "skip"),
        (shas[2], "decisions", "skip"),
        (shas[1], "decisions", "skip"),
    ]


def test_classify_needs_exactly_one_choice(repo):
    root, shas = repo
    with pytest.raises(UsageError):
        classify_commit(mining(root), shas[0], changelog="added", skip=True, reason="x")


def test_repeated_classification_is_refused_and_correction_is_last_wins(repo):
    root, shas = repo
    paths = mining(root)
    classify_commit(paths, shas[1], changelog="fixed")
    with pytest.raises(WorkspaceError, match="already classified for changelog"):
        classify_commit(paths, shas[1], changelog="changed")
    classify_commit(paths, shas[1], skip=True, reason="internal only", only="changelog", correct=True)
    status = mining_status(paths)
    assert (
        status["changelog"]["processed"],
        status["changelog"]["released"],
        status["changelog"]["skipped"],
    ) == (1, 0, 1)


def test_unknown_sha_and_bad_decision_are_reported_with_their_line(repo, tmp_path):
    root, shas = repo
    batch = tmp_path / "batch.jsonl"
    batch.write_text(
        json.dumps({"sha": shas[0], "domain": "changelog", "action": "release", "category": "added"})
        + "\n"
        + json.dumps({"sha": "abcdef1234567", "domain": "changelog", "action": "skip", "reason": "x"})
        + "\n"
        + json.dumps(
            {"sha": shas[1], "domain": "decisions", "action": "extract", "decision_id": "DEC-ZZ-001"}
        )
        + "\n"
    )
    with pytest.raises(WorkspaceError) as caught:
        commit_classifications(mining(root), batch)
    assert [(d.line, d.field, d.code) for d in caught.value.diagnostics] == [
        (2, "sha", "unknown-sha"),
        (3, "decision_id", "unknown-decision"),
    ]
    assert not ledger_files(mining(root))[0].exists()


def test_batch_with_a_bad_line_writes_nothing(repo, tmp_path):
    root, shas = repo
    batch = tmp_path / "batch.jsonl"
    batch.write_text(
        json.dumps({"sha": shas[0], "domain": "changelog", "action": "release", "category": "added"})
        + '\n{"sha": "'
        + shas[1]
        + '", "domain": "changelog", "action": "release"}\n'
        + "{truncated\n"
    )
    with pytest.raises(WorkspaceError) as caught:
        commit_classifications(mining(root), batch)
    assert [(d.path, d.line, d.code) for d in caught.value.diagnostics] == [
        (str(batch), 2, "schema"),
        (str(batch), 3, "json"),
    ]
    assert not ledger_files(mining(root))[0].exists()


def test_batch_records_both_domains_in_one_pass(repo, tmp_path):
    root, shas = repo
    batch = tmp_path / "batch.jsonl"
    batch.write_text(
        "\n".join(
            json.dumps(x)
            for x in [
                {
                    "sha": shas[0],
                    "domain": "changelog",
                    "action": "release",
                    "category": "added",
                    "summary": "Runtime",
                },
                {"sha": shas[0], "domain": "decisions", "action": "extract", "decision_id": "DEC-PL-002"},
                {
                    "sha": shas[2],
                    "domain": "changelog",
                    "action": "skip",
                    "reason": "Chore: dependency update",
                },
            ]
        )
        + "\n"
    )
    outcome = commit_classifications(mining(root), batch)
    assert (outcome.recorded, outcome.released, outcome.extracted, outcome.skipped) == (3, 1, 1, 1)
    record = yaml.safe_load((root / "ai_assets/reference/decisions/records/DEC-PL-002.yaml").read_text())
    assert record == {
        "id": "DEC-PL-002",
        "title": "add runtime",
        "domain": "pipeline",
        "status": "proposed",
        "created": "2026-01-01",
        "summary": "",
        "context": "",
        "source_commits": [
            {
                "sha": shas[0],
                "message": "feat(pipeline): add runtime",
                "date": "2026-01-01",
                "role": "primary",
            }
        ],
        "files": ["p/run.py"],
    }


def test_duplicate_inside_one_batch_is_refused(repo, tmp_path):
    root, shas = repo
    line = json.dumps({"sha": shas[0], "domain": "changelog", "action": "skip", "reason": "x"})
    batch = tmp_path / "batch.jsonl"
    batch.write_text(line + "\n" + line + "\n")
    with pytest.raises(WorkspaceError, match="already classified"):
        commit_classifications(mining(root), batch)


def test_decision_update_changes_only_source_commits_and_files(repo):
    root, shas = repo
    path = root / "ai_assets/reference/decisions/records/DEC-PL-001.yaml"
    path.write_text(RECORD % ("f" * 40))
    classify_commit(mining(root), shas[1], decision="DEC-PL-001", role="supporting")
    text = path.read_text()
    assert text == (
        "id: DEC-PL-001\ntitle: Adopt DuckDB   # keep this comment\ndomain: pipeline\nstatus: active\n"
        "created: '2026-01-02'\nsummary: |\n  Canonical runtime.\n"
        "source_commits:\n"
        f"- sha: {'f' * 40}\n  message: 'feat: old'\n  date: '2026-01-01'\n  role: primary\n"
        f"- sha: {shas[1]}\n  message: 'fix: crash on empty input'\n  date: '2026-01-02'\n  role: supporting\n"
        "files:\n- old.py\n- p/in.py\nrelated: [DEC-SR-001]\n"
    )


def test_batch_diagnostics_name_the_file_line_even_after_blank_lines(repo, tmp_path):
    root, _shas = repo
    batch = tmp_path / "batch.jsonl"
    batch.write_text(
        "\n\n" + json.dumps({"sha": "1234567", "domain": "changelog", "action": "skip", "reason": "x"}) + "\n"
    )
    with pytest.raises(WorkspaceError) as caught:
        commit_classifications(mining(root), batch)
    assert [str(d) for d in caught.value.diagnostics] == [
        f"{batch}:3:1: sha: unknown commit '1234567' (not in the index; run `orkestra mine sync`)"
    ]


def test_a_decision_lists_the_commits_own_files_not_generated_outputs_or_records(repo):
    root, _shas = repo
    manifest = {"generator": "orkestra sync", "version": 1, "inputs_sha256": "", "merged": {}}
    manifest["files"] = {".claude/agents/reviewer.md": "0" * 64, "CHANGELOG.md": "0" * 64}
    sha = commit(
        root,
        "feat(pipeline): stream the runtime",
        {
            "p/engine.py": "def run():\n    return 1\n",
            ".claude/agents/reviewer.md": "rendered\n",
            "CHANGELOG.md": "# Changelog\n",
            ".claude/.orkestra-manifest.json": json.dumps(manifest),
            "ai_assets/reference/decisions/records/DEC-PL-007.yaml": "id: DEC-PL-007\n",
        },
        day=4,
    )
    sync_index(mining(root))
    classify_commit(mining(root), sha, decision="DEC-PL-008", role="primary")
    record = yaml.safe_load((root / "ai_assets/reference/decisions/records/DEC-PL-008.yaml").read_text())
    assert record["files"] == ["p/engine.py"]
