"""index_repository end to end: store location, summary, text files, centrality, dry run, plain dirs."""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import git
from index_helpers import commit_all, write_tree

from maguyva.errors import NotARepositoryError
from maguyva.index.pipeline import extract_tree, index_repository, index_status, plan_index
from maguyva.store import open_store

PROJECT = {
    "core/util.py": "def hub():\n    return 1\n\n\ndef leaf():\n    return hub()\n",
    "core/a.py": "from core.util import hub\n\n\ndef a():\n    return hub()\n",
    "core/b.py": "from core.util import hub\n\n\ndef b():\n    return hub() + hub()\n",
    "docs/adr/0001-use-sqlite.md": "# Use SQLite\n\n## Context\n\nWe need an embedded store.\n",
    "notes.txt": "remember: the store lives in the git dir\n",
    "vendor/lib.py": "def vendored():\n    pass\n",
}


def test_the_default_store_lives_in_the_git_dir_and_the_summary_counts_the_work(git_repo):
    write_tree(git_repo, PROJECT)
    commit_all(git_repo)
    summary = index_repository(git_repo)
    assert summary.store == str(git_repo / ".git" / "maguyva" / "index.db")
    assert (summary.mode, summary.files, summary.added, summary.skipped) == ("full", 6, 6, 0)
    assert summary.commit == git(git_repo, "rev-parse", "HEAD").strip()
    assert summary.languages == {
        "python": {"files": 4, "symbols": 5, "edges": 6},
        "markdown": {"files": 1, "symbols": 2, "edges": 0},
        "text": {"files": 1, "symbols": 0, "edges": 0},
    }


def test_markdown_and_plain_text_are_searchable_and_paths_keep_their_flags(git_repo):
    write_tree(git_repo, PROJECT)
    index_repository(git_repo)
    store = open_store(git_repo / ".git" / "maguyva" / "index.db")
    try:
        assert [s.qualified_name for s in store.find_symbols("Context")] == [
            "docs.adr.0001-use-sqlite.Use SQLite.Context"
        ]
        assert [(s.path, s.line) for s in store.search_literal("lives in the git dir")] == [("notes.txt", 1)]
        assert [h.path for h in store.search_bm25("embedded")] == ["docs/adr/0001-use-sqlite.md"]
        assert store.file_record("vendor/lib.py").flags == ("vendor",)
    finally:
        store.close()


def test_the_most_called_function_has_the_highest_centrality(git_repo):
    write_tree(git_repo, PROJECT)
    index_repository(git_repo)
    store = open_store(git_repo / ".git" / "maguyva" / "index.db")
    try:
        top = store.top_central(limit=1)[0]
        assert (top.path, top.symbol, top.in_degree) == ("core/util.py", "core.util.hub", 6)
        assert store.top_central(limit=1, files=True)[0].path == "core/util.py"
    finally:
        store.close()


def test_a_worktree_keeps_its_own_index_in_its_own_git_dir(git_repo, tmp_path):
    write_tree(git_repo, PROJECT)
    commit_all(git_repo)
    worktree = tmp_path / "wt"
    git(git_repo, "worktree", "add", "-q", str(worktree))
    summary = index_repository(worktree)
    assert summary.store == str(git_repo / ".git" / "worktrees" / "wt" / "maguyva" / "index.db")
    assert not (worktree / ".git").is_dir()  # .git stays a file; nothing written into the tree


def test_the_store_can_be_chosen_by_env_or_orkestra_yaml(git_repo, tmp_path, monkeypatch):
    write_tree(git_repo, {**PROJECT, "orkestra.yaml": "version: 1\nmaguyva:\n  store: .cache/idx.db\n"})
    assert index_repository(git_repo).store == str(git_repo.resolve() / ".cache" / "idx.db")
    monkeypatch.setenv("MAGUYVA_STORE", str(tmp_path / "env.db"))
    assert index_repository(git_repo).store == str(tmp_path / "env.db")


def test_a_plain_directory_needs_an_explicit_store(tmp_path, monkeypatch):
    write_tree(tmp_path / "plain", PROJECT)
    monkeypatch.delenv("MAGUYVA_STORE", raising=False)
    with pytest.raises(NotARepositoryError, match="not inside a git repository"):
        index_repository(tmp_path / "plain")
    assert index_repository(tmp_path / "plain", tmp_path / "x.db").commit is None


def test_extract_tree_works_on_a_plain_directory_without_a_store(tmp_path):
    write_tree(tmp_path, PROJECT)
    extractions, edges = extract_tree(tmp_path)
    assert sorted(e.path for e in extractions) == sorted(PROJECT)
    assert sum(e.resolution == "resolved" for e in edges) == 6
    assert list(tmp_path.rglob("*.db")) == []


def test_the_dry_run_previews_languages_flags_and_skips_and_writes_nothing(git_repo):
    write_tree(git_repo, {**PROJECT, "logo.png": b"\x89PNG\x00"})
    plan = plan_index(git_repo)
    assert (plan.languages, plan.flagged, plan.skipped, plan.added) == (
        {"markdown": 1, "python": 4, "text": 1},
        {"vendor": 1},
        [{"path": "logo.png", "reason": "binary"}],
        6,
    )
    assert not (git_repo / ".git" / "maguyva").exists()


def test_status_reports_the_snapshot_and_work_not_in_the_map(git_repo):
    write_tree(git_repo, PROJECT)
    commit_all(git_repo)
    write_tree(git_repo, {"core/new.py": "x = 1\n"})
    index_repository(git_repo)
    write_tree(git_repo, {"core/a.py": "def a():\n    return 2\n", "core/later.py": "y = 2\n"})
    (git_repo / "notes.txt").unlink()
    status = index_status(git_repo)
    assert status.uncommitted_at_index == ["core/new.py"]
    assert status.not_in_map == {
        "added": ["core/later.py"],
        "changed": ["core/a.py"],
        "deleted": ["notes.txt"],
    }
    assert (status.stale, status.totals["files"]) == (True, 7)


def test_pagerank_agrees_with_networkx():
    import networkx as nx

    from maguyva.index.graph import pagerank

    links = Counter({("a", "b"): 2, ("b", "c"): 1, ("c", "a"): 1, ("d", "c"): 3, ("a", "e"): 1})
    graph = nx.DiGraph()
    graph.add_weighted_edges_from((src, dst, weight) for (src, dst), weight in links.items())
    expected = nx.pagerank(graph, weight="weight")
    assert pagerank(links) == pytest.approx(expected, abs=1e-9)
