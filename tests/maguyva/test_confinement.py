"""Indexing never leaves the repository and never writes into the working tree."""

from __future__ import annotations

import os

from conftest import git
from index_helpers import commit_all, write_tree

from maguyva.index.pipeline import index_repository
from maguyva.store import open_store


def _tree(root):
    return sorted(
        str(p.relative_to(root)) for p in root.rglob("*") if ".git" not in p.relative_to(root).parts
    )


def test_symlinks_leading_outside_the_repository_are_not_followed(git_repo, tmp_path):
    outside = write_tree(
        tmp_path / "outside",
        {"secret.py": "def leaked_secret():\n    pass\n", "pkg/mod.py": "def leaked_module():\n    pass\n"},
    )
    write_tree(git_repo, {"app/main.py": "def main():\n    pass\n"})
    os.symlink(outside / "secret.py", git_repo / "app" / "secret.py")
    os.symlink(outside / "pkg", git_repo / "linked_pkg")
    os.symlink(git_repo / "app" / "main.py", git_repo / "alias.py")  # inside: allowed
    summary = index_repository(git_repo)
    store = open_store(summary.store)
    try:
        assert sorted(store.known_paths()) == ["alias.py", "app/main.py"]
        assert store.find_symbols("leaked_secret") == []
        assert store.find_symbols("leaked_module") == []
        assert store.search_literal("leaked") == []
    finally:
        store.close()


def test_the_working_tree_is_unchanged_after_indexing(git_repo):
    write_tree(
        git_repo, {"app/main.py": "def main():\n    pass\n", "README.md": "# App\n", ".gitignore": "*.tmp\n"}
    )
    commit_all(git_repo)
    write_tree(git_repo, {"app/draft.py": "x = 1\n", "scratch.tmp": "t\n"})
    status_before, tree_before = git(git_repo, "status", "--porcelain", "--ignored"), _tree(git_repo)
    index_repository(git_repo)
    index_repository(git_repo, full=True)
    assert git(git_repo, "status", "--porcelain", "--ignored") == status_before
    assert _tree(git_repo) == tree_before
