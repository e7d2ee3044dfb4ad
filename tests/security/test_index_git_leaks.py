"""Issue 14 item 7: `.git` content is never indexed nor served, at any depth, through any link."""

from __future__ import annotations

import os
from pathlib import Path

import anyio
import pytest
from conftest import git
from mcp import Client

from maguyva.api import Maguyva
from maguyva.errors import MaguyvaError
from maguyva.index.pipeline import index_repository
from maguyva.index.scan import scan_repository
from maguyva.server.app import Repository, build_server
from maguyva.workspace import hosted_path

SECRET = "ghp_SECRETTOKEN0123456789"


@pytest.fixture
def leaky(git_repo: Path, tmp_path: Path) -> Path:
    """A repository whose links and nested repositories all point at credentials."""
    (git_repo / "app.py").write_text("def main():\n    return 1\n")
    git(git_repo, "config", "remote.origin.url", f"https://user:{SECRET}@example.com/r.git")
    nested = git_repo / "vendor" / "lib"
    nested.mkdir(parents=True)
    git(nested, "init", "-q", "-b", "main")
    git(nested, "config", "remote.origin.url", f"https://user:{SECRET}@example.com/lib.git")
    (nested / "lib.py").write_text("def helper():\n    return 2\n")
    (git_repo / "sub").mkdir()
    (git_repo / "sub" / ".git").write_text(f"gitdir: ../.git/modules/{SECRET}\n")  # a submodule's git file
    outside = tmp_path / "outside.txt"
    outside.write_text(f"password = {SECRET}\n")
    links = {
        "config_link.txt": ".git/config",
        "nested_link.txt": "vendor/lib/.git/config",
        "deep/chain.txt": "../config_link.txt",
        "outside.txt": str(outside),
        "gitdir_link": ".git",
        "head_link.txt": "./sub/../.git/HEAD",
    }
    for name, target in links.items():
        (git_repo / name).parent.mkdir(parents=True, exist_ok=True)
        os.symlink(target, git_repo / name)
    return git_repo


def test_the_scanner_never_reads_git_content_through_links_or_nested_repositories(leaky):
    scanned = {f.record.path for f in scan_repository(leaky).files}
    assert scanned == {"app.py", "vendor/lib/lib.py"}


def test_no_search_finds_the_credentials_and_get_file_refuses_every_route(leaky, tmp_path):
    store = tmp_path / "index.db"
    index_repository(leaky, store, full=True, workers=1)
    api = Maguyva.open(leaky, str(store))
    try:
        assert api.search_text(SECRET)["count"] == 0
        assert api.search_text("ghp_[A-Z]+", regex=True)["count"] == 0
        assert api.search_text("remote")["count"] == 0
        assert all(SECRET not in str(r) for r in api.intelligent_search("origin url user")["results"])
        for path in (
            "vendor/lib/.git/config",
            "./vendor/lib/.git/config",
            "vendor/lib/../lib/.git/config",
            "vendor/lib/.git",
            "sub/.git",
            ".git/config",
            "config_link.txt",
            "nested_link.txt",
            "deep/chain.txt",
            "gitdir_link/config",
            "head_link.txt",
            "outside.txt",
            str(leaky / "vendor/lib/.git/config"),
            "vendor/lib/.GIT/config",
        ):
            with pytest.raises(MaguyvaError):
                api.get_file(path)
        assert api.get_file("vendor/lib/lib.py")["total_lines"] == 2
    finally:
        api.close()


def test_a_team_server_path_into_a_nested_git_dir_is_refused():
    for path in ("a/.git/config", "a/b/.git", ".git", "x/./.git/HEAD", "a\\.git\\config"):
        with pytest.raises(MaguyvaError):
            hosted_path(path)
    assert hosted_path("a/git/config") == "a/git/config"


def test_the_mcp_tool_answers_an_error_for_a_nested_git_config(leaky, tmp_path):
    store = tmp_path / "index.db"
    index_repository(leaky, store, full=True, workers=1)
    repo = Repository(leaky, str(store))
    server = build_server(repo)

    async def go():
        async with Client(server) as client:
            return await client.call_tool("get_file", {"path": "vendor/lib/.git/config"})

    try:
        result = anyio.run(go)
    finally:
        repo.close()
    assert result.is_error
    text = " ".join(getattr(c, "text", "") for c in result.content)
    assert ".git" in text
    assert SECRET not in text


def test_a_fifo_in_the_tree_is_skipped_not_read(git_repo, tmp_path):
    plain = tmp_path / "plain"  # outside git the walk finds it and says why it is skipped
    plain.mkdir()
    for tree in (git_repo, plain):  # in a work tree git never lists it
        (tree / "app.py").write_text("def main():\n    return 1\n")
        os.mkfifo(tree / "pipe.py")
        result = scan_repository(tree)  # reading the FIFO would block forever
        assert [f.record.path for f in result.files] == ["app.py"]
    assert ("pipe.py", "not a regular file") in {(s.path, s.reason) for s in result.skipped}


def test_a_tracked_directory_swapped_for_a_link_out_of_the_tree_is_not_followed(git_repo, tmp_path):
    """git's index still lists ``pkg/mod.py`` after ``pkg`` became a symlink: the git-listed scan
    checks every directory component, as the walk never enters a linked directory."""
    (git_repo / "pkg").mkdir()
    (git_repo / "pkg" / "mod.py").write_text("def mod():\n    return 1\n")
    (git_repo / "app.py").write_text("def main():\n    return 1\n")
    git(git_repo, "add", "-A")
    git(git_repo, "commit", "-qm", "tree")
    store = tmp_path / "index.db"
    index_repository(git_repo, store, full=True, workers=1)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "mod.py").write_text(f"password = '{SECRET}'\n")
    (git_repo / "pkg" / "mod.py").unlink()
    (git_repo / "pkg").rmdir()
    os.symlink(outside, git_repo / "pkg")
    assert {f.record.path for f in scan_repository(git_repo).files} == {"app.py"}
    index_repository(git_repo, store, workers=1)
    api = Maguyva.open(git_repo, str(store))
    try:
        assert api.search_text(SECRET)["count"] == 0
        assert api.search_text("def mod")["count"] == 0  # the file that left the tree left the index
    finally:
        api.close()
