"""`mine auto`: one idempotent step from Conventional Commits to a changelog; people always win."""

from __future__ import annotations

import json

import pytest
from clirun import run_cli
from conftest import git
from mine_repo import commit, mining, tag

from orkestra.errors import WorkspaceError
from orkestra.mining.auto import run_auto
from orkestra.mining.candidates import find_candidates
from orkestra.mining.changelog_files import released_notes
from orkestra.mining.classify import classify_commit, commit_classifications
from orkestra.mining.index import sync_index
from orkestra.mining.ledger import ledger_files, read_records


@pytest.fixture
def repo(git_repo):
    shas = {
        "feat": commit(git_repo, "feat(api): add search", {"api.py": "1\n"}, day=1),
        "chore": commit(git_repo, "chore: tidy", {"x.txt": "1\n"}, day=2),
        "fix": commit(git_repo, "fix: replace deprecated utcfromtimestamp", {"t.py": "1\n"}, day=3),
    }
    tag(git_repo, "v1.0.0", day=3)
    shas["sec"] = commit(git_repo, "fix: bump deps for security alerts", {"package.json": "{}\n"}, day=4)
    return git_repo, shas


def test_auto_records_every_pending_commit_renders_and_is_idempotent(repo):
    root, s = repo
    first = run_auto(mining(root))
    assert (first["recorded"], first["released"], first["skipped"]) == (4, 3, 1)
    assert first["files"] == [{"package": ".", "path": "CHANGELOG.md", "entries": 3, "status": "created"}]
    text = (root / "CHANGELOG.md").read_text()
    assert f"## [1.0.0] - 2026-01-03\n\n### Added\n\n- **api:** add search ({s['feat'][:7]})\n" in text
    assert (
        f"### Fixed\n\n- bump deps for security alerts ({s['sec'][:7]})\n" in text
    )  # the type, not keywords
    assert "### Security" not in text
    assert "### Deprecated" not in text
    processed, _ = ledger_files(mining(root))
    assert {r["by"] for r in read_records(processed)} == {"auto"}
    again = run_auto(mining(root))
    assert (again["recorded"], again["files"][0]["status"]) == (0, "unchanged")
    assert len(read_records(processed)) == 4


def test_dry_run_shows_the_entries_and_writes_nothing(repo):
    root, s = repo
    result = run_auto(mining(root), dry_run=True)
    assert result["dry_run"] is True
    assert {
        "sha": s["chore"],
        "domain": "changelog",
        "action": "skip",
        "reason": "chore: not a releasable change",
    } in result["entries"]
    assert {
        "sha": s["feat"],
        "domain": "changelog",
        "action": "release",
        "category": "added",
        "summary": "add search",
    } in result["entries"]
    assert result["files"][0]["status"] == "missing"
    assert not (root / "CHANGELOG.md").exists()
    assert not (root / "ai_assets").exists()


def test_people_and_llms_win_over_auto_and_auto_never_overrides_them(repo, tmp_path):
    root, s = repo
    paths = mining(root)
    sync_index(paths)
    classify_commit(paths, s["fix"], changelog="security", summary="Hand-written")  # before auto
    run_auto(paths)
    assert released_notes(paths)[s["fix"]]["summary"] == "Hand-written"
    classify_commit(
        paths, s["chore"], changelog="changed", summary="Tidy for users"
    )  # after auto: no --correct
    batch = tmp_path / "llm.jsonl"
    batch.write_text(
        json.dumps({"sha": s["feat"], "domain": "changelog", "action": "skip", "reason": "internal"})
    )
    commit_classifications(paths, batch)
    notes = released_notes(paths)
    assert notes[s["chore"]]["summary"] == "Tidy for users"
    assert s["feat"] not in notes
    assert run_auto(paths)["recorded"] == 0
    with pytest.raises(
        WorkspaceError, match="already classified"
    ):  # a person's line is not replaced silently
        classify_commit(paths, s["chore"], changelog="fixed")
    text = (root / "CHANGELOG.md").read_text()
    assert "Tidy for users" in text
    assert "add search" not in text
    assert run_cli("mine", "validate", cwd=root).returncode == 0


def test_keyword_sections_are_opt_in(repo):
    root, s = repo
    (root / "orkestra.yaml").write_text("mining:\n  changelog:\n    keyword_sections: true\n")
    run_auto(mining(root))
    notes = released_notes(mining(root))
    assert (notes[s["fix"]]["category"], notes[s["sec"]]["category"]) == ("deprecated", "security")


def test_commit_reads_stdin_with_dash_and_dev_stdin(repo):
    root, s = repo
    run_cli("mine", "sync", cwd=root)
    line = json.dumps({"sha": s["feat"], "domain": "changelog", "action": "release", "category": "added"})
    result = run_cli("mine", "commit", "--input", "-", cwd=root, input=line + "\n")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["released"] == 1
    other = json.dumps({"sha": s["chore"], "domain": "changelog", "action": "skip", "reason": "tidy"})
    piped = run_cli("mine", "commit", "--input", "/dev/stdin", cwd=root, input=other + "\n")
    assert piped.returncode == 0, piped.stderr
    assert "Traceback" not in piped.stderr
    bad = run_cli("mine", "commit", "--input", "-", cwd=root, input="{not json\n")
    assert bad.returncode == 1
    assert bad.stderr.startswith("<stdin>:1:")
    missing = run_cli("mine", "commit", "--input", "nope.jsonl", cwd=root)
    assert missing.returncode == 2
    assert "nope.jsonl: cannot read input" in missing.stderr


def test_auto_cli_end_to_end(repo):
    root, _ = repo
    dry = run_cli("mine", "auto", "--dry-run", cwd=root)
    assert dry.returncode == 0
    assert len(json.loads(dry.stdout)["entries"]) == 4
    done = json.loads(run_cli("mine", "auto", cwd=root).stdout)
    assert done["released"] == 3
    assert done["files"][0]["status"] == "created"
    assert json.loads(run_cli("mine", "candidates", "--ledger", "changelog", cwd=root).stdout)["pending"] == 0


def test_merge_commits_rank_last_among_candidates(git_repo):
    commit(git_repo, "Initial import", {"a.txt": "a\n"}, day=1)
    git(git_repo, "checkout", "-q", "-b", "topic")
    topic = commit(git_repo, "Move CI", {".github/workflows/ci.yml": "on: push\n", "setup.py": "x\n"}, day=2)
    git(git_repo, "checkout", "-q", "main")
    git(git_repo, "merge", "-q", "--no-ff", "topic", "-m", "Merge branch 'topic'")
    later = commit(git_repo, "Update readme", {"README": "r\n"}, day=4)
    sync_index(mining(git_repo))
    found = find_candidates(mining(git_repo))["candidates"]
    merge = next(c for c in found if c["signals"]["is_merge"])
    assert merge["signals"]["decision_score"] > 0  # it outscores the plain commits, yet comes last
    assert [c["sha"] for c in found][:1] == [topic]
    assert found[-1] is merge
    assert later in [c["sha"] for c in found]


def test_a_conventional_merge_stands_for_the_commits_it_brings_in(git_repo):
    commit(git_repo, "feat: base", {"a.txt": "a\n"}, day=1)
    git(git_repo, "checkout", "-q", "-b", "topic")
    wip = commit(git_repo, "fix: blacken", {"b.txt": "b\n"}, day=2)
    git(git_repo, "checkout", "-q", "main")
    commit(git_repo, "docs: note", {"README": "r\n"}, day=3)
    git(
        git_repo,
        "merge",
        "-q",
        "--no-ff",
        "topic",
        "-m",
        "Merge pull request #7 from me/topic\n\nfix: handle b",
    )
    merge = git(git_repo, "rev-parse", "HEAD").strip()
    result = run_auto(mining(git_repo), dry_run=True)
    lines = {line["sha"]: line for line in result["entries"]}
    assert lines[merge] == {
        "sha": merge,
        "domain": "changelog",
        "action": "release",
        "category": "fixed",
        "summary": "handle b",
    }
    assert lines[wip]["action"] == "skip"
    assert lines[wip]["reason"].startswith(f"brought in by merge {merge[:12]}")


def test_a_plain_merge_leaves_the_commits_it_brings_in_as_entries(git_repo):
    commit(git_repo, "feat: base", {"a.txt": "a\n"}, day=1)
    git(git_repo, "checkout", "-q", "-b", "topic")
    side = commit(git_repo, "fix: handle b", {"b.txt": "b\n"}, day=2)
    git(git_repo, "checkout", "-q", "main")
    commit(git_repo, "docs: note", {"README": "r\n"}, day=3)
    git(git_repo, "merge", "-q", "--no-ff", "topic", "-m", "Merge branch 'topic'")
    lines = {line["sha"]: line for line in run_auto(mining(git_repo), dry_run=True)["entries"]}
    assert lines[side]["action"] == "release"
    assert [line["action"] for line in lines.values()].count("release") == 2


def test_suggest_on_a_history_without_conventional_commits_proposes_releases_by_verb(git_repo):
    fix = commit(git_repo, "Fix crash when the config is empty", {"a.txt": "a\n"}, day=1)
    add = commit(git_repo, "Add a --quiet flag", {"b.txt": "b\n"}, day=2)
    typo = commit(git_repo, "Fix typo in README", {"README": "r\n"}, day=3)
    other = commit(git_repo, "Tweak things", {"c.txt": "c\n"}, day=4)
    run_cli("mine", "sync", cwd=git_repo)
    lines = [
        json.loads(x)
        for x in run_cli(
            "mine", "candidates", "--suggest", "--ledger", "changelog", cwd=git_repo
        ).stdout.splitlines()
    ]
    got = {x["sha"]: (x["action"], x.get("category")) for x in lines}
    assert got == {
        fix: ("release", "fixed"),
        add: ("release", "added"),
        typo: ("skip", None),
        other: ("skip", None),
    }
    # a history without Conventional Commits is read as it is (issue 32): the two clear ones are
    # released, the README typo skipped, "Tweak things" left for review
    auto = run_auto(mining(git_repo), dry_run=True)
    assert (auto["history"], auto["released"], auto["for_review"]) == ("plain", 2, 1)


def test_redo_rederives_automatic_classifications_after_a_settings_change_and_only_those(repo):
    root, s = repo
    run_auto(mining(root))
    classify_commit(mining(root), s["fix"], changelog="fixed", summary="Kept by a person")
    (root / "orkestra.yaml").write_text("mining:\n  changelog:\n    keyword_sections: true\n")
    assert run_auto(mining(root))["recorded"] == 0  # without --redo nothing changes
    redone = run_auto(mining(root), redo=True)
    assert redone["recorded"] == 1  # the security wording; the person's line stays
    notes = released_notes(mining(root))
    assert notes[s["sec"]]["category"] == "security"
    assert (notes[s["fix"]]["category"], notes[s["fix"]]["summary"]) == ("fixed", "Kept by a person")
    assert run_auto(mining(root), redo=True)["recorded"] == 0
    assert run_cli("mine", "validate", cwd=root).returncode == 0
