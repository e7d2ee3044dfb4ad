"""`mine sync` on real temp repositories: signals, merges, monorepo packages, incremental, rewrites."""

from __future__ import annotations

from conftest import git
from mine_repo import commit, fast_import, mining

from orkestra.mining.index import load_index, sync_index
from orkestra.mining.ledger import ensure_gitattributes

CONFIG = """project: demo
mining:
  domains:
    pipeline: {paths: ["packages/canonical/pipelines/**"], scopes: [pipeline]}
    search: {scopes: [search]}
"""


def _monorepo(repo):
    commit(repo, "chore: workspace config", {"orkestra.yaml": CONFIG, "README.md": "demo\n"}, day=1)
    commit(
        repo,
        "feat(canonical): add DuckDB runtime for pipeline stages\n\nEstablishes DuckDB.\n\nRefs: #12",
        {
            "packages/canonical/pyproject.toml": "[project]\nname='canonical'\n",
            "packages/canonical/pipelines/stages/duckdb_runtime.py": "x = 1\ny = 2\n",
        },
        day=2,
    )
    commit(
        repo,
        "fix(search)!: rank exact matches first\n\nBREAKING CHANGE: scores are now 0..1",
        {"apps/web/package.json": "{}\n", "apps/web/rank.js": "a\n"},
        day=3,
    )
    commit(repo, "Update docs", {"docs/x.md": "x\n"}, day=4)


def test_sync_extracts_type_scope_breaking_files_domains_and_packages(git_repo):
    _monorepo(git_repo)
    result = sync_index(mining(git_repo))
    commits = list(load_index(mining(git_repo)).values())
    assert (result.mode, result.new_commits, result.total_commits) == ("full", 4, 4)
    assert [c["subject"] for c in commits] == [
        "chore: workspace config",
        "feat(canonical): add DuckDB runtime for pipeline stages",
        "fix(search)!: rank exact matches first",
        "Update docs",
    ]
    feat, fix, plain = commits[1]["signals"], commits[2]["signals"], commits[3]["signals"]
    assert (feat["commit_type"], feat["scope"], feat["breaking"], feat["is_releasable_type"]) == (
        "feat",
        "canonical",
        False,
        True,
    )
    assert feat["domains_affected"] == ["pipeline"]
    assert feat["packages"] == ["packages/canonical"]
    assert commits[1]["files_changed"] == [
        "packages/canonical/pipelines/stages/duckdb_runtime.py",
        "packages/canonical/pyproject.toml",
    ]
    assert commits[1]["body"] == "Establishes DuckDB."
    assert commits[1]["footers"] == [["Refs", "#12"]]
    assert (fix["breaking"], fix["domains_affected"], fix["packages"]) == (True, ["search"], ["apps/web"])
    assert commits[2]["breaking_description"] == "scores are now 0..1"
    assert (plain["commit_type"], plain["is_releasable_type"], plain["packages"]) == (None, False, ["."])
    assert commits[0]["stats"] is None


def test_stats_count_insertions_and_deletions(git_repo):
    commit(git_repo, "feat: one", {"a.txt": "1\n2\n3\n"}, day=1)
    commit(git_repo, "fix: two", {"a.txt": "1\n3\n4\n5\n"}, day=2)
    sync_index(mining(git_repo), stats=True)
    stats = [c["stats"] for c in load_index(mining(git_repo)).values()]
    assert stats == [
        {"files": 1, "insertions": 3, "deletions": 0},
        {"files": 1, "insertions": 2, "deletions": 1},
    ]


def test_merge_commits_are_flagged_and_list_the_files_they_bring_in(git_repo):
    commit(git_repo, "feat: base", {"a": "a\n"}, day=1)
    git(git_repo, "checkout", "-q", "-b", "topic")
    commit(git_repo, "feat(topic): work", {"t": "t\n"}, day=2)
    git(git_repo, "checkout", "-q", "main")
    commit(git_repo, "fix: main work", {"m": "m\n"}, day=3)
    git(
        git_repo,
        "merge",
        "-q",
        "--no-ff",
        "topic",
        "-m",
        "Merge branch 'topic'",
        env={
            "GIT_AUTHOR_DATE": "2026-01-04T00:00:00+00:00",
            "GIT_COMMITTER_DATE": "2026-01-04T00:00:00+00:00",
        },
    )
    sync_index(mining(git_repo))
    by_subject = {c["subject"]: c for c in load_index(mining(git_repo)).values()}
    merge = by_subject["Merge branch 'topic'"]
    assert (len(merge["parents"]), merge["signals"]["is_merge"], merge["files_changed"]) == (2, True, ["t"])
    assert by_subject["feat(topic): work"]["signals"]["is_merge"] is False
    assert len(by_subject) == 4


def test_second_sync_reads_only_new_commits(git_repo):
    fast_import(git_repo, 30)
    paths = mining(git_repo)
    assert sync_index(paths).new_commits == 30
    again = sync_index(paths)
    assert (again.mode, again.new_commits) == ("up-to-date", 0)
    fast_import(git_repo, 5, start=30)
    later = sync_index(paths)
    assert (later.mode, later.new_commits, later.total_commits) == ("incremental", 5, 35)
    assert list(load_index(paths))[-1] == git(git_repo, "rev-parse", "HEAD").strip()
    assert len(load_index(paths)) == 35


def test_rewritten_history_triggers_a_full_resync(git_repo):
    commit(git_repo, "feat: one", {"a": "1\n"}, day=1)
    commit(git_repo, "feat: two", {"b": "2\n"}, day=2)
    paths = mining(git_repo)
    sync_index(paths)
    git(git_repo, "commit", "-q", "--amend", "-m", "feat: two, amended")
    result = sync_index(paths)
    assert result.mode == "full"
    assert "rewritten" in result.reason
    assert [c["subject"] for c in load_index(paths).values()] == ["feat: one", "feat: two, amended"]


def test_changed_domain_map_rebuilds_signals(git_repo):
    commit(git_repo, "feat(search): x", {"a": "1\n"}, day=1)
    paths = mining(git_repo)
    sync_index(paths)
    assert next(iter(load_index(paths).values()))["signals"]["domains_affected"] == []
    (git_repo / "orkestra.yaml").write_text("mining:\n  domains:\n    search: {scopes: [search]}\n")
    result = sync_index(mining(git_repo))
    assert result.mode == "full"
    assert next(iter(load_index(paths).values()))["signals"]["domains_affected"] == ["search"]


def test_index_is_git_ignored_and_ledgers_are_union_merged(git_repo):
    commit(git_repo, "feat: one", {"a": "1\n"}, day=1)
    result = sync_index(mining(git_repo))
    assert result.gitattributes_updated is True
    assert git(git_repo, "status", "--porcelain") == "?? .gitattributes\n"
    assert (git_repo / ".gitattributes").read_text() == (
        "ai_assets/reference/changelog/commits_processed.jsonl merge=union\n"
        "ai_assets/reference/changelog/release_notes.jsonl merge=union\n"
    )
    assert ensure_gitattributes(git_repo) is False
    assert sync_index(mining(git_repo)).gitattributes_updated is False


def test_ensure_gitattributes_keeps_existing_lines(tmp_path):
    (tmp_path / ".gitattributes").write_text("*.png binary")
    assert ensure_gitattributes(tmp_path) is True
    assert (tmp_path / ".gitattributes").read_text().splitlines() == [
        "*.png binary",
        "ai_assets/reference/changelog/commits_processed.jsonl merge=union",
        "ai_assets/reference/changelog/release_notes.jsonl merge=union",
    ]


def test_empty_repository_syncs_to_an_empty_index(git_repo):
    result = sync_index(mining(git_repo))
    assert (result.total_commits, result.head, load_index(mining(git_repo))) == (0, None, {})
