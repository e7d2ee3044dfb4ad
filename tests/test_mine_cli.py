"""The `orkestra mine` and `registry changelog` commands, run in-process."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from clirun import run_cli
from mine_repo import commit

COMMANDS = [
    ("mine", "sync"),
    ("mine", "status"),
    ("mine", "candidates"),
    ("mine", "classify"),
    ("mine", "commit"),
    ("mine", "auto"),
    ("mine", "validate"),
    ("registry", "changelog", "render"),
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_has_help_with_an_example(command, tmp_path):
    result = run_cli(*command, "--help", cwd=tmp_path)
    assert result.returncode == 0
    assert "Example:" in result.stdout


@pytest.fixture
def repo(git_repo):
    shas = [
        commit(git_repo, "feat(api): add endpoint", {"api.py": "1\n"}, day=1),
        commit(git_repo, "chore: tidy", {"x.txt": "1\n"}, day=2),
        commit(
            git_repo,
            "feat(infra)!: move CI to new runners",
            {".github/workflows/ci.yml": "on: push\n"},
            day=3,
        ),
    ]
    return git_repo, shas


def test_sync_candidates_classify_status_validate_end_to_end(repo):
    root, shas = repo
    synced = json.loads(run_cli("mine", "sync", "--stats", cwd=root).stdout)
    assert (synced["mode"], synced["new_commits"], synced["stats"]) == ("full", 3, True)
    found = json.loads(run_cli("mine", "candidates", "--limit", "2", "--full", cwd=root).stdout)
    assert found["pending"] == 3
    assert [c["sha"] for c in found["candidates"]] == [shas[2], shas[0]]  # breaking + CI first
    assert found["candidates"][0]["stats"] == {"files": 1, "insertions": 1, "deletions": 0}
    assert run_cli("mine", "classify", shas[0][:7], "--changelog", "added", cwd=root).returncode == 0
    assert run_cli("mine", "classify", shas[1], "--skip", "--reason", "tidy", cwd=root).returncode == 0
    status = json.loads(run_cli("mine", "status", cwd=root).stdout)
    assert status["changelog"] == {
        "coverage": 66.7,
        "processed": 2,
        "released": 1,
        "skipped": 1,
        "released_pct": 33.3,
        "skipped_pct": 33.3,
    }
    assert status["decisions"]["processed"] == 1
    text = run_cli("mine", "status", "--format", "table", cwd=root).stdout
    assert "Changelog\n---------\n  Coverage:     66.7%\n    Processed:       2  (of 3)\n" in text
    assert run_cli("mine", "validate", cwd=root).returncode == 0


def test_suggest_then_commit_records_the_reviewed_file(repo, tmp_path):
    root, shas = repo
    run_cli("mine", "sync", cwd=root)
    suggested = run_cli("mine", "candidates", "--suggest", cwd=root).stdout
    lines = [json.loads(line) for line in suggested.splitlines()]
    assert {(x["sha"], x["domain"], x["action"]) for x in lines} == {
        (shas[2], "changelog", "release"),
        (shas[0], "changelog", "release"),
        (shas[1], "changelog", "skip"),
        (shas[0], "decisions", "skip"),
        (shas[1], "decisions", "skip"),
    }
    review = tmp_path / "review.jsonl"
    review.write_text(suggested)
    result = run_cli("mine", "commit", "--input", str(review), cwd=root)
    assert json.loads(result.stdout) == {
        "recorded": 5,
        "released": 2,
        "extracted": 0,
        "skipped": 3,
        "decision_records": [],
    }
    assert json.loads(run_cli("mine", "candidates", cwd=root).stdout)["pending"] == 1


def test_problems_exit_1_and_usage_errors_exit_2(repo, tmp_path):
    root, shas = repo
    run_cli("mine", "sync", cwd=root)
    unknown = run_cli("mine", "classify", "deadbeef", "--changelog", "added", cwd=root)
    assert unknown.returncode == 1
    assert "unknown commit 'deadbeef'" in unknown.stderr
    both = run_cli("mine", "classify", shas[0], "--changelog", "added", "--skip", "--reason", "x", cwd=root)
    assert both.returncode == 2
    assert "exactly one of" in both.stderr
    assert run_cli("registry", "changelog", "render", cwd=root).returncode == 2
    ledger = root / "ai_assets/reference/changelog/commits_processed.jsonl"
    ledger.parent.mkdir(parents=True)
    ledger.write_text('{"sha": "12')
    broken = run_cli("mine", "validate", "--quick", cwd=root)
    assert broken.returncode == 1
    assert broken.stderr == (
        "ai_assets/reference/changelog/commits_processed.jsonl:1:1: corrupt or truncated JSON line\n"
    )


def test_render_writes_changelog_and_check_passes_after(repo):
    root, shas = repo
    run_cli("mine", "sync", cwd=root)
    run_cli("mine", "classify", shas[2], "--changelog", "changed", cwd=root)
    assert run_cli("registry", "changelog", "render", "--all", "--check", cwd=root).returncode == 1
    assert run_cli("registry", "changelog", "render", "--all", cwd=root).returncode == 0
    assert (
        f"- Changed: **infra:** move CI to new runners ({shas[2][:7]})" in (root / "CHANGELOG.md").read_text()
    )
    assert run_cli("registry", "changelog", "render", "--all", "--check", cwd=root).returncode == 0


def test_status_and_quick_validate_do_not_import_gitpython(repo):
    root, _ = repo
    run_cli("mine", "sync", cwd=root)
    probe = (
        "import sys\nfrom orkestra.cli import build_app\n"
        "for argv in (['mine', 'status'], ['mine', 'validate', '--quick']):\n"
        "    try:\n        build_app(argv)(argv, prog_name='orkestra')\n    except SystemExit:\n        pass\n"
        "sys.stderr.write(repr(sorted(m for m in ('git', 'jinja2', 'rich') if m in sys.modules)))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, text=True)
    assert result.stderr.splitlines()[-1] == "[]"


def test_status_before_any_sync_says_to_sync_first(repo):
    root, _ = repo
    result = run_cli("mine", "status", cwd=root)
    assert result.returncode == 1
    assert "run `orkestra mine sync` first" in result.stderr
