"""`mine auto` on histories without Conventional Commits: PR merges, squashes, reverts, plain subjects (issue 32).

Every history here is a real git repository made in a temp dir; the expectations are the lines `mine auto`
records and the changelog it renders.
"""

from __future__ import annotations

import json

import pytest
from clirun import run_cli
from conftest import git
from mine_repo import at, commit, mining, tag

from orkestra.mining.auto import run_auto
from orkestra.mining.changelog_files import released_notes
from orkestra.mining.plain import brought_in, generations, read_commit, read_files, read_words


def merge(repo, branch: str, message: str, day: int, into: str = "main") -> str:
    git(repo, "checkout", "-q", into)
    git(repo, "merge", "-q", "--no-ff", branch, "-m", message, env=at(day, 13))
    return git(repo, "rev-parse", "HEAD").strip()


def lines_of(result: dict) -> dict[str, dict]:
    return {line["sha"]: line for line in result["entries"]}


@pytest.fixture
def pr_history(git_repo):
    """A pallets-style history: PR merges (title on the body's first line), a squash, plain commits."""
    repo = git_repo
    s = {"base": commit(repo, "Initial import", {"src/app.py": "x = 1\n"}, day=1)}
    git(repo, "checkout", "-q", "-b", "fix-crash")
    s["wip1"] = commit(repo, "wip", {"src/app.py": "x = 2\n"}, day=2)
    s["wip2"] = commit(
        repo, "address review", {"src/app.py": "x = 3\n", "CHANGES.rst": "fix\n"}, day=2, hour=14
    )
    s["pr"] = merge(
        repo, "fix-crash", "Merge pull request #12 from someone/fix-crash\n\nFix crash on empty config", 3
    )
    s["squash"] = commit(repo, "Add a --quiet option (#13)", {"src/cli.py": "q = 1\n"}, day=4)
    s["docs"] = commit(repo, "Explain the settings", {"docs/settings.rst": "doc\n"}, day=5)
    s["tests"] = commit(repo, "Cover the parser", {"tests/test_parser.py": "t\n"}, day=5, hour=13)
    s["ci"] = commit(repo, "Run on 3.14", {".github/workflows/ci.yml": "on: push\n"}, day=5, hour=14)
    s["deprecate"] = commit(repo, "Deprecate the old loader (#14)", {"src/loader.py": "old\n"}, day=6)
    s["remove"] = commit(repo, "Drop Python 3.8 (#15)", {"src/compat.py": "c\n"}, day=6, hour=13)
    s["bump"] = commit(repo, "Bump actions/checkout from 4 to 5 (#16)", {"src/v.py": "v\n"}, day=6, hour=14)
    s["unclear"] = commit(repo, "Tweak the loader", {"src/loader.py": "tweak\n"}, day=7)
    tag(repo, "1.0.0", day=7)
    return repo, s


def test_pr_merges_squashes_and_plain_subjects_are_classified_with_their_numbers(pr_history):
    repo, s = pr_history
    result = run_auto(mining(repo), dry_run=True)
    assert (result["history"], result["for_review"]) == ("plain", 2)  # "Initial import", "Tweak the loader"
    got = lines_of(result)
    assert got[s["pr"]] == {
        "sha": s["pr"],
        "domain": "changelog",
        "action": "release",
        "category": "fixed",
        "summary": "Fix crash on empty config (#12)",
    }
    for wip in ("wip1", "wip2"):  # the PR's own commits are its entry, not entries of their own
        assert got[s[wip]]["action"] == "skip"
        assert got[s[wip]]["reason"].startswith(f"brought in by pull request #12 (merge {s['pr'][:12]})")
    assert (got[s["squash"]]["category"], got[s["squash"]]["summary"]) == (
        "added",
        "Add a --quiet option (#13)",
    )
    assert (got[s["deprecate"]]["category"], got[s["remove"]]["category"]) == ("deprecated", "removed")
    for kind, why in (("docs", "only documentation"), ("tests", "only tests"), ("ci", "only CI")):
        assert got[s[kind]]["action"] == "skip"
        assert why in got[s[kind]]["reason"]
    assert got[s["bump"]]["action"] == "skip"
    assert "bump" in got[s["bump"]]["reason"]
    # below min_confidence: left for review
    assert s["unclear"] not in got
    assert s["base"] not in got


def test_the_rendered_changelog_keeps_pr_numbers_and_a_second_run_records_nothing(pr_history):
    repo, s = pr_history
    (repo / "orkestra.yaml").write_text(
        "mining:\n  changelog:\n    path: MINED.md\n"
    )  # CHANGES.rst is theirs
    first = run_auto(mining(repo))
    assert first["released"] == 4
    text = (repo / "MINED.md").read_text()
    assert f"- Fix crash on empty config (#12) ({s['pr'][:7]})" in text
    assert f"- Add a --quiet option (#13) ({s['squash'][:7]})" in text
    assert "### Deprecated" in text
    assert "### Removed" in text
    assert run_auto(mining(repo))["recorded"] == 0
    (repo / "orkestra.yaml").write_text(
        "mining:\n  changelog:\n    path: MINED.md\n    format: release-please\n"
        "    repository_url: https://github.com/o/r\n"
    )
    run_auto(mining(repo), redo=True)
    linked = (repo / "MINED.md").read_text()
    assert "Fix crash on empty config ([#12](https://github.com/o/r/issues/12))" in linked


def test_low_confidence_commits_go_to_candidates_with_their_reading(pr_history):
    repo, s = pr_history
    run_auto(mining(repo))
    found = json.loads(run_cli("mine", "candidates", "--ledger", "changelog", cwd=repo).stdout)
    assert found["history"] == "plain"
    assert found["pending"] == 2
    unclear = next(c for c in found["candidates"] if c["sha"] == s["unclear"])
    reading = unclear["reading"]
    assert (reading["kind"], reading["category"]) == ("plain", "changed")
    assert reading["confidence"] < 0.7
    assert reading["why"]
    suggested = run_cli("mine", "candidates", "--ledger", "changelog", "--suggest", cwd=repo).stdout
    assert {json.loads(x)["sha"] for x in suggested.splitlines()} == {s["unclear"], s["base"]}
    done = run_cli(
        "mine", "classify", s["unclear"], "--changelog", "changed", "--summary", "Loader is faster", cwd=repo
    )
    assert done.returncode == 0, done.stderr
    assert released_notes(mining(repo))[s["unclear"]]["summary"] == "Loader is faster"


def test_min_confidence_and_history_settings(pr_history):
    repo, _ = pr_history
    (repo / "orkestra.yaml").write_text("mining:\n  changelog:\n    min_confidence: 0.1\n")
    assert run_auto(mining(repo), dry_run=True)["for_review"] == 0
    (repo / "orkestra.yaml").write_text("mining:\n  changelog:\n    history: conventional\n")
    old = run_auto(mining(repo), dry_run=True)  # what mining did before: commit types only
    assert (old["history"], old["released"], old["for_review"]) == ("conventional", 0, 0)


def test_a_revert_of_a_plain_change_is_a_change_and_names_nothing_it_cannot(git_repo):
    repo = git_repo
    commit(repo, "Initial import", {"src/a.py": "a\n"}, day=1)
    fix = commit(repo, "Fix crash on exit", {"src/a.py": "b\n"}, day=2)
    git(repo, "revert", "--no-edit", fix, env=at(3))
    revert = git(repo, "rev-parse", "HEAD").strip()
    docs = commit(repo, "Document exits", {"docs/exit.md": "d\n"}, day=4)
    git(repo, "revert", "--no-edit", docs, env=at(5))
    docs_revert = git(repo, "rev-parse", "HEAD").strip()
    got = lines_of(run_auto(mining(repo), dry_run=True))
    assert got[revert]["action"] == "release"
    assert got[revert]["category"] == "changed"
    assert got[revert]["summary"] == 'Revert "Fix crash on exit"'
    assert got[docs_revert]["action"] == "skip"


def test_a_pr_merged_into_a_stable_branch_keeps_its_entry_through_the_branch_merge(git_repo):
    repo = git_repo
    commit(repo, "Initial import", {"src/a.py": "a\n"}, day=1)
    git(repo, "checkout", "-q", "-b", "stable")
    git(repo, "checkout", "-q", "-b", "fix-exit")
    inner = commit(repo, "handle exit", {"src/a.py": "b\n"}, day=2)
    pr = merge(
        repo, "fix-exit", "Merge pull request #7 from someone/fix-exit\n\nFix exit code", 3, into="stable"
    )
    git(repo, "checkout", "-q", "main")
    commit(repo, "Add plugins (#8)", {"src/p.py": "p\n"}, day=3, hour=15)
    branch = merge(repo, "stable", "Merge branch 'stable'", 4)
    got = lines_of(run_auto(mining(repo), dry_run=True))
    assert got[pr]["summary"] == "Fix exit code (#7)"
    assert got[inner]["reason"].startswith("brought in by pull request #7")
    assert got[branch]["action"] == "skip"
    assert got[branch]["reason"].startswith("merge:")


def test_a_conventional_history_is_read_exactly_as_before(git_repo):
    repo = git_repo
    feat = commit(repo, "feat: add search", {"a.py": "a\n"}, day=1)
    commit(repo, "fix: handle empty", {"a.py": "b\n"}, day=2)
    plain = commit(repo, "Fix crash on exit", {"a.py": "c\n"}, day=3)
    result = run_auto(mining(repo), dry_run=True)
    got = lines_of(result)
    assert result["history"] == "conventional"
    assert result["for_review"] == 0
    assert got[plain] == {
        "sha": plain,
        "domain": "changelog",
        "action": "skip",
        "reason": "non-conventional: not a releasable change",
    }
    assert got[feat]["summary"] == "add search"


def test_readings_of_words_and_files():
    assert read_words("Fix crash when the config is empty")[:3] == ("fix", "fixed", 0.85)
    assert read_words("fix typo in the tutorial")[1] is None
    assert read_words("release version 3.1.3")[1] is None
    assert read_words("fix mypy findings")[1] is None
    assert read_words("The loader raises a clear error")[1] == "fixed"
    assert read_words("Remove the old loader")[1] == "removed"
    assert read_words("asyncio: Don't wait for the stream to close")[1] == "fixed"  # an area, not a type
    assert read_words("[docs] Remove a debug log")[1] is None
    assert read_words("Bump up flow control defaults")[1] == "changed"  # not a dependency bump
    assert read_words("Bump actions/checkout from 4 to 5")[1] is None
    assert read_words("Release semaphore if the connection is dropped")[1] == "changed"  # not a release
    assert read_words("Rename PoolLimits to Limits")[2] < 0.7  # public API? left for review
    assert read_files(["changelog/1234.bugfix.rst", "src/x.py"])[:2] == ("fix", "fixed")
    assert read_files(["changelog/99.doc.rst", "docs/x.rst"])[1] is None
    assert read_files(["src/x.py", "tests/test_x.py"])[0] is None
    fragment = read_commit(
        {
            "sha": "a" * 40,
            "subject": "Merge pull request #5 from me/topic",
            "body": "Make the loader lazy",
            "parents": ["b" * 40, "c" * 40],
            "files_changed": ["changelog/1234.feature.rst", "src/loader.py"],
            "signals": {"is_merge": True},
        }
    )
    assert (fragment.kind, fragment.pr, fragment.category, fragment.refs) == ("pr-merge", 5, "added", (1234,))
    assert fragment.summary() == "Make the loader lazy (#5) (refs #1234)"


def test_brought_in_stops_at_the_branch_point():
    # main: a - b - c - M(b's side: x - y)   x branches from a
    graph = {"a": [], "b": ["a"], "x": ["a"], "y": ["x"], "c": ["b"], "m": ["c", "y"]}
    assert sorted(brought_in(graph, generations(graph), "m")) == ["x", "y"]
    # a branch that merged main into itself brings in only its own commits
    graph |= {"z": ["y", "b"], "n": ["c", "z"]}
    assert sorted(brought_in(graph, generations(graph), "n")) == ["x", "y", "z"]


def test_an_area_led_subject_is_read_by_its_words_not_as_an_unknown_commit_type(git_repo):
    repo = git_repo
    commit(repo, "Initial import", {"src/a.py": "a\n"}, day=1)
    area = commit(repo, "asyncio: Don't wait for the stream to close (#640)", {"src/a.py": "b\n"}, day=2)
    host = commit(repo, "Set Host header when redirecting (#321)", {"src/b.py": "b\n"}, day=3)
    got = lines_of(run_auto(mining(repo), dry_run=True))
    assert host not in got  # a PR changing code whose title says nothing: left for review, suggested
    run_auto(mining(repo))
    suggested = run_cli("mine", "candidates", "--ledger", "changelog", "--suggest", cwd=repo).stdout
    line = next(json.loads(x) for x in suggested.splitlines() if json.loads(x)["sha"] == host)
    assert (line["action"], line["category"], line["summary"]) == (
        "release",
        "changed",
        "Set Host header when redirecting (#321)",
    )
    assert got[area]["category"] == "fixed"
    assert got[area]["summary"] == "asyncio: Don't wait for the stream to close (#640)"
