"""Issue 14 item 12: indexing (or refreshing) from a subdirectory updates the repository's index, never re-roots it."""

from __future__ import annotations

from pathlib import Path

import pytest
from maguyva_hostile import cli, cli_json, commit_all, write_corpus

from maguyva.api import Maguyva
from maguyva.errors import MaguyvaError


@pytest.fixture
def repo(git_repo: Path) -> Path:
    write_corpus(git_repo, 12, functions=2)
    (git_repo / "src" / "flask").mkdir(parents=True)
    (git_repo / "src" / "flask" / "app.py").write_text("def create_app():\n    return 1\n")
    (git_repo / "README.md").write_text("# demo\n")
    commit_all(git_repo)
    return git_repo


def test_cli_index_and_status_from_a_subdirectory_use_the_top_level(repo):
    first = cli_json("code", "index", cwd=repo)
    sub = repo / "src" / "flask"
    again = cli_json("code", "index", cwd=sub)
    assert (again["root"], again["files"], again["deleted"]) == (first["root"], first["files"], 0)
    named = cli_json("code", "index", "src/flask", cwd=repo)
    assert (named["root"], named["files"], named["deleted"]) == (first["root"], first["files"], 0)
    status = cli_json("code", "status", cwd=sub)
    assert status["root"] == first["root"]
    assert status["totals"]["files"] == first["files"]
    assert status["stale"] is False
    full = cli_json("code", "index", "--full", cwd=sub / "..")
    assert (full["root"], full["files"]) == (first["root"], first["files"])


def test_refresh_index_from_a_server_started_in_a_subdirectory(repo):
    first = cli_json("code", "index", cwd=repo)
    api = Maguyva.open(repo / "src" / "flask")
    try:
        summary = api.refresh_index()
        assert (summary["root"], summary["files"], summary["deleted"]) == (first["root"], first["files"], 0)
        assert api.get_file("README.md")["path"] == "README.md"  # paths stay relative to the top level
        assert api.find_symbol("create_app")["symbols"][0]["path"] == "src/flask/app.py"
    finally:
        api.close()


def test_an_explicit_store_keeps_the_root_it_was_built_from(repo, tmp_path):
    store = tmp_path / "shared.db"
    first = cli_json("code", "index", str(repo), "--store", str(store), cwd=repo)
    again = cli_json("code", "index", ".", "--store", str(store), cwd=repo / "src" / "flask")
    assert (again["root"], again["files"], again["deleted"]) == (first["root"], first["files"], 0)
    elsewhere = tmp_path / "other"
    elsewhere.mkdir()
    (elsewhere / "x.py").write_text("X = 1\n")
    refused = cli("code", "index", str(elsewhere), "--store", str(store), cwd=tmp_path)
    assert refused.returncode != 0
    assert str(repo) in refused.stderr
    assert "--full" in refused.stderr
    with pytest.raises(MaguyvaError):
        from maguyva.index.pipeline import index_repository

        index_repository(elsewhere, store)


def test_a_run_from_inside_the_git_dir_indexes_the_work_tree_never_the_git_dir(repo):
    first = cli_json("code", "index", cwd=repo)
    git_dir = repo / ".git"
    for where in (git_dir, git_dir / "refs"):
        again = cli_json("code", "index", cwd=where)
        assert (again["root"], again["files"], again["deleted"]) == (first["root"], first["files"], 0)
    named = cli_json("code", "index", ".git", cwd=repo)
    assert (named["root"], named["files"]) == (first["root"], first["files"])
