"""`orkestra init` in a cloned repository: its links never redirect a scaffold file or an ignore line.

Before, a dangling link at a scaffold path (`orkestra.yaml -> ~/elsewhere.yaml`) was "missing", so init
wrote through it and created the file outside; a linked folder (`registries -> ~/x`) took the scaffold
there; a linked `.gitignore` had `.orkestra/` appended to whatever it pointed at.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from clirun import run_cli
from outside_tree import outside_folder, untouched


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    return outside_folder(tmp_path)


def test_a_dangling_link_at_a_scaffold_path_is_kept_not_written_through(git_repo, outside):
    os.symlink(outside / "elsewhere.yaml", git_repo / "orkestra.yaml")
    result = run_cli("init", "--minimal", cwd=git_repo)
    assert result.returncode == 0, result.stderr
    assert (git_repo / "orkestra.yaml").is_symlink()
    assert (git_repo / "registries").is_dir()  # the rest of the scaffold is written
    untouched(outside)


def test_a_linked_folder_on_the_way_is_refused_before_anything_is_written(git_repo, outside):
    os.symlink(outside, git_repo / "registries")
    result = run_cli("init", "--minimal", cwd=git_repo)
    assert result.returncode == 1
    assert "registries" in result.stderr
    assert "symlink" in result.stderr
    assert not (git_repo / "orkestra.yaml").exists()
    untouched(outside)


def test_a_linked_gitignore_is_neither_read_nor_appended_to(git_repo, outside):
    os.symlink(outside / "keep.txt", git_repo / ".gitignore")
    result = run_cli("init", "--minimal", cwd=git_repo)
    assert result.returncode == 1
    assert ".gitignore" in result.stderr
    untouched(outside)


def test_decisions_new_never_writes_into_a_linked_records_folder(tmp_path, outside):
    """`decisions new` is init's sibling: a new record, in a folder a cloned repository may have linked."""
    import shutil

    from cli_workspace import make_workspace

    root = make_workspace(tmp_path / "ws")
    records = next(root.rglob("DEC-SR-001*.yaml")).parent
    shutil.rmtree(records)
    os.symlink(outside, records)
    result = run_cli("decisions", "new", "--domain", "SR", cwd=root)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "symlink" in result.stderr, result.stdout + result.stderr
    untouched(outside)
