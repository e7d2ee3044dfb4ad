"""`mine validate` finds every injected ledger fault, and concurrent writers never lose a line."""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys

from conftest import git
from mine_repo import commit, fast_import, mining

from orkestra.mining.classify import classify_commit
from orkestra.mining.index import load_index, sync_index
from orkestra.mining.ledger import ledger_files
from orkestra.mining.validate import validate_ledgers


def _clean_repo(root):
    shas = [commit(root, f"feat: change {n}", {f"f{n}": f"{n}\n"}, day=n + 1) for n in range(3)]
    records = root / "ai_assets/reference/decisions/records"
    records.mkdir(parents=True)
    (root / "ai_assets/reference/decisions/registry.yaml").write_text("domains:\n  pipeline: {code: PL}\n")
    sync_index(mining(root))
    classify_commit(mining(root), shas[0], changelog="added")
    classify_commit(mining(root), shas[1], decision="DEC-PL-001")
    classify_commit(mining(root), shas[2], skip=True, reason="internal")
    return shas


def test_clean_ledgers_validate_ok(git_repo):
    _clean_repo(git_repo)
    assert validate_ledgers(mining(git_repo)) == {"ok": True, "lines": 5, "diagnostics": []}


def test_each_injected_fault_is_reported_at_its_line(git_repo):
    shas = _clean_repo(git_repo)
    processed, _ = ledger_files(mining(git_repo))
    faults = [
        {"sha": "XYZ123", "domain": "changelog", "action": "skip", "reason": "bad sha"},
        {"sha": "0" * 40, "domain": "changelog", "action": "skip", "reason": "unknown sha"},
        {"sha": shas[0], "domain": "decisions", "action": "extract", "decision_id": "DEC-PL-999"},
        {"sha": shas[0], "domain": "changelog", "action": "release", "category": "fixed"},
        {
            "sha": shas[1],
            "domain": "decisions",
            "action": "extract",
            "decision_id": "DEC-pl-1",
            "correction": True,
        },
    ]
    with processed.open("a") as handle:
        handle.write("".join(json.dumps(f) + "\n" for f in faults) + '{"sha": "' + shas[0][:20])
    diagnostics = validate_ledgers(mining(git_repo))["diagnostics"]
    rel = "ai_assets/reference/changelog/commits_processed.jsonl"
    assert [(d.path, d.line, d.field, d.code) for d in diagnostics] == [
        (rel, 5, "sha", "schema"),  # XYZ123: not even an abbreviated sha
        (rel, 6, "sha", "unknown-sha"),
        (rel, 7, "decision_id", "unknown-decision"),
        (rel, 8, "sha", "duplicate"),
        (rel, 9, "decision_id", "bad-decision-id"),
        (rel, 10, "", "json"),
    ]
    assert str(diagnostics[3]).startswith(f"{rel}:8:1: sha: duplicate entry for {shas[0][:12]} in changelog")


def test_abbreviated_sha_in_a_ledger_is_a_bad_sha(git_repo):
    shas = _clean_repo(git_repo)
    _, notes = ledger_files(mining(git_repo))
    with notes.open("a") as handle:
        handle.write(
            json.dumps(
                {
                    "sha": shas[1][:10],
                    "date": "2026-01-02",
                    "category": "fixed",
                    "summary": "s",
                    "packages": ["."],
                }
            )
            + "\n"
        )
    diagnostics = validate_ledgers(mining(git_repo), quick=True)["diagnostics"]
    assert [(d.line, d.code) for d in diagnostics] == [(2, "bad-sha")]


def test_quick_validation_skips_the_history_check(git_repo):
    _clean_repo(git_repo)
    processed, _ = ledger_files(mining(git_repo))
    with processed.open("a") as handle:
        handle.write(
            json.dumps({"sha": "1" * 40, "domain": "changelog", "action": "skip", "reason": "r"}) + "\n"
        )
    assert validate_ledgers(mining(git_repo), quick=True)["ok"] is True
    assert validate_ledgers(mining(git_repo), quick=False)["ok"] is False


def _classify_many(root, shas):
    paths = mining(root)
    for sha in shas:
        classify_commit(paths, sha, changelog="added")


def test_eight_processes_times_five_hundred_classifications_give_exactly_4000_lines(git_repo):
    fast_import(git_repo, 4000)
    sync_index(mining(git_repo))
    shas = list(load_index(mining(git_repo)))
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_classify_many, args=(git_repo, shas[n::8])) for n in range(8)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert [w.exitcode for w in workers] == [0] * 8
    processed, notes = ledger_files(mining(git_repo))
    for path in (processed, notes):
        lines = path.read_text().splitlines()
        assert len(lines) == 4000
        assert sorted(json.loads(line)["sha"] for line in lines) == sorted(shas)
    assert validate_ledgers(mining(git_repo)) == {"ok": True, "lines": 8000, "diagnostics": []}


def test_four_concurrent_cli_writers_lose_no_line(git_repo):
    fast_import(git_repo, 40)
    sync_index(mining(git_repo))
    shas = list(load_index(mining(git_repo)))
    script = (
        "import subprocess, sys\nfor sha in sys.argv[1:]:\n"
        "    subprocess.run([sys.executable, '-m', 'orkestra', 'mine', 'classify', sha, '--skip', '--reason',"
        " 'bulk'], check=True, capture_output=True)\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", script, *shas[n::4]], cwd=git_repo) for n in range(4)]
    assert [p.wait() for p in procs] == [0] * 4
    processed, _ = ledger_files(mining(git_repo))
    lines = [json.loads(line) for line in processed.read_text().splitlines()]
    assert len(lines) == 80
    assert {(r["sha"], r["domain"]) for r in lines} == {
        (s, d) for s in shas for d in ("changelog", "decisions")
    }
    assert validate_ledgers(mining(git_repo))["ok"] is True
    assert git(git_repo, "status", "--porcelain").splitlines() == ["?? .gitattributes", "?? ai_assets/"]
