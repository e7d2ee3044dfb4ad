"""Finding a repository's root and index: one git process for the default store, the same answer as
asking git the two questions one by one (``repository_root`` then ``store_path``)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import git

from maguyva.errors import NotARepositoryError
from maguyva.store.location import ENV_VAR, locating, repository_root, store_path
from maguyva.store.postgres.location import PostgresLocation
from maguyva.store.postgres.scheme import is_postgres_url


def two_calls(path: Path) -> tuple[Path, Path]:
    root = repository_root(path)
    return root, store_path(root)


def test_a_subdirectory_finds_the_top_level_and_the_git_dir_index(git_repo):
    sub = git_repo / "src" / "pkg"
    sub.mkdir(parents=True)
    assert (
        locating(sub)()
        == two_calls(sub)
        == (git_repo.resolve(), git_repo.resolve() / ".git" / "maguyva" / "index.db")
    )


def test_started_inside_the_git_dir_means_its_work_tree(git_repo):
    assert locating(git_repo / ".git" / "refs")() == (
        git_repo.resolve(),
        git_repo.resolve() / ".git/maguyva/index.db",
    )


def test_a_linked_worktree_keeps_its_index_in_its_own_git_dir(git_repo, tmp_path):
    (git_repo / "a.txt").write_text("a\n")
    git(git_repo, "add", ".")
    git(git_repo, "commit", "-qm", "chore: a")
    linked = tmp_path / "linked"
    git(git_repo, "worktree", "add", "-q", str(linked))
    root, location = locating(linked)()
    assert (root, location) == two_calls(linked)
    assert root == linked.resolve()
    assert location == git_repo.resolve() / ".git" / "worktrees" / "linked" / "maguyva" / "index.db"


def test_outside_a_repository_the_error_names_the_way_out(tmp_path, monkeypatch):
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))
    plain = tmp_path / "plain"
    plain.mkdir()
    with pytest.raises(NotARepositoryError, match="--store PATH"):
        locating(plain)()


def test_a_store_named_in_orkestra_yaml_is_relative_to_the_top_level(git_repo):
    (git_repo / "orkestra.yaml").write_text("maguyva:\n  store: .maguyva/index.db\n")
    sub = git_repo / "docs"
    sub.mkdir()
    assert (
        locating(sub)()
        == two_calls(sub)
        == (git_repo.resolve(), git_repo.resolve() / ".maguyva" / "index.db")
    )


def test_an_explicit_store_or_the_variable_asks_git_nothing(git_repo, tmp_path, monkeypatch):
    def no_git(*args, **kwargs):
        raise AssertionError(f"git was started: {args}")

    monkeypatch.setattr(subprocess, "Popen", no_git)
    assert locating(git_repo, str(tmp_path / "x.db"))() == (git_repo.resolve(), (tmp_path / "x.db").resolve())
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "y.db"))
    assert locating(git_repo)() == (git_repo.resolve(), (tmp_path / "y.db").resolve())
    url = "postgresql://u@db/idx?workspace=acme&repo=api"
    assert locating(git_repo, url)()[1] == PostgresLocation.parse(url)


def test_only_a_postgres_url_or_location_names_a_postgres_store():
    assert is_postgres_url("postgresql://u@h/db")
    assert is_postgres_url("postgres://h/db")
    assert is_postgres_url(PostgresLocation.parse("postgresql://u:secret@h/db?workspace=w&repo=r"))
    assert not is_postgres_url(Path("postgresql://h/db"))  # a path is a path, whatever its text
    assert not is_postgres_url("/tmp/index.db")
    assert not is_postgres_url(None)
