"""`orkestra plugin build --out DIR`: a mistyped output folder never deletes anything.

Before: the refusal looked at ``build/../src`` while ``build`` did not exist (so neither did the path),
then ``mkdir`` created ``build`` and the rename-then-delete removed ``src/`` whole."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from clirun import run_cli

from orkestra.errors import OrkestraError
from orkestra.outdir import MARKER
from orkestra.plugin import build_plugin


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink() and ".git/" not in p.relative_to(folder).as_posix() + "/"
    }


@pytest.fixture
def repo(git_repo: Path) -> Path:
    assert run_cli("init", "--minimal", cwd=git_repo).returncode == 0
    (git_repo / "src/app").mkdir(parents=True)
    (git_repo / "src/app/__init__.py").write_text("VALUE = 1\n")
    (git_repo / "src/app/main.py").write_text("print('hello')\n")
    (git_repo / "tools").mkdir()
    (git_repo / "tools/keep.sh").write_text("echo keep\n")
    return git_repo


def test_an_out_folder_climbing_into_the_sources_is_refused_and_nothing_is_deleted(repo: Path):
    """The reported case, through the real CLI: `build/../src` did not exist until mkdir made `build`."""
    before = snapshot(repo)
    result = run_cli("plugin", "build", "--out", "build/../src", cwd=repo)
    assert result.returncode == 1, result.stdout
    assert "src" in result.stderr
    assert "Traceback" not in result.stderr
    assert snapshot(repo) == before
    assert not (repo / "build").exists()  # nothing made to exist before the refusal


@pytest.mark.parametrize(
    "out",
    [
        "build/../src",
        "dist/../registries",
        "dist/x/../../registries",
        "registries",
        "registries/plugin",  # inside a source folder
        "src/app",  # a package source
        "new/../.git",
        ".git/plugin",
        ".",
        "..",  # holds the repository
        "tools",  # not a known source folder, but not empty and not ours
        "dist/../tools",
    ],
)
def test_every_spelling_of_a_source_folder_is_refused_untouched(repo: Path, out: str, monkeypatch):
    monkeypatch.chdir(repo)
    before = snapshot(repo)
    with pytest.raises(OrkestraError):
        build_plugin(repo, out)
    assert snapshot(repo) == before
    assert not (repo / "dist").exists()
    assert not (repo / "new").exists()
    assert not (repo / "build").exists()


def test_an_absolute_path_equal_to_the_repository_or_its_parent_is_refused(repo: Path, tmp_path: Path):
    before = snapshot(repo)
    for out in (str(repo), str(repo) + "/", str(repo / "src" / ".."), str(tmp_path)):
        with pytest.raises(OrkestraError, match="repository"):
            build_plugin(repo, out)
    assert snapshot(repo) == before


def test_a_symlinked_out_folder_or_a_link_on_the_way_is_resolved_first(repo: Path, monkeypatch):
    monkeypatch.chdir(repo)
    (repo / "linked").symlink_to("src", target_is_directory=True)
    (repo / "via").mkdir()
    (repo / "via/reg").symlink_to("../registries", target_is_directory=True)
    before = snapshot(repo)
    for out in ("linked", "via/reg/../../src", "via/reg/plugin", str(repo / "linked")):
        with pytest.raises(OrkestraError):
            build_plugin(repo, out)
    assert snapshot(repo) == before
    assert os.readlink(repo / "linked") == "src"


def test_a_folder_outside_that_is_not_ours_is_refused_untouched(repo: Path, tmp_path: Path):
    mine = tmp_path / "mine"
    (mine / "deep").mkdir(parents=True)
    (mine / "deep/notes.txt").write_text("mine\n")
    forged = tmp_path / "forged"  # an older-style listing saying "orkestra plugin build", no marker
    (forged / ".claude-plugin").mkdir(parents=True)
    (forged / ".claude-plugin/marketplace.json").write_text(
        json.dumps({"metadata": {"description": "Built by orkestra plugin build"}})
    )
    (forged / "precious.txt").write_text("keep\n")
    for folder in (mine, forged):
        before = snapshot(folder)
        with pytest.raises(OrkestraError, match=r"not empty|did not write"):
            build_plugin(repo, str(folder))
        assert snapshot(folder) == before


def test_a_build_of_ours_is_replaced_but_never_one_with_extra_or_changed_files(repo: Path, tmp_path: Path):
    out = tmp_path / "market"
    first = build_plugin(repo, str(out))
    assert Path(first.marketplace) == out
    assert (out / MARKER).is_file()
    listed = json.loads((out / MARKER).read_text())["files"]
    assert ".claude-plugin/marketplace.json" in listed
    (repo / "registries/commands.yaml").write_text(
        "commands:\n  ship:\n    description: Ship it.\n    body: Ship.\n"
    )
    build_plugin(repo, str(out))  # ours: replaced
    # no debris beside it
    assert (out / "plugins").is_dir()
    assert not list(tmp_path.glob(".market.*"))

    (out / "notes.md").write_text("my notes\n")  # a file we did not write
    with pytest.raises(OrkestraError, match=r"notes\.md"):
        build_plugin(repo, str(out))
    assert (out / "notes.md").read_text() == "my notes\n"
    (out / "notes.md").unlink()

    listing = out / ".claude-plugin/marketplace.json"
    listing.write_text(listing.read_text() + " ")  # edited since the build
    with pytest.raises(OrkestraError, match="changed"):
        build_plugin(repo, str(out))
    assert listing.read_text().endswith(" ")

    listing.write_text(listing.read_text()[:-1])
    (out / "plugins/link").symlink_to(repo / "src", target_is_directory=True)  # a link planted inside
    with pytest.raises(OrkestraError, match="symlink"):
        build_plugin(repo, str(out))
    assert (repo / "src/app/main.py").is_file()


def test_a_forged_marker_cannot_claim_a_folder_holding_other_files(repo: Path, tmp_path: Path):
    """The marker must list every file with its hash: a marker copied into someone's folder claims nothing."""
    out = tmp_path / "market"
    build_plugin(repo, str(out))
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "data.csv").write_text("1,2\n")
    (victim / MARKER).write_bytes((out / MARKER).read_bytes())
    with pytest.raises(OrkestraError, match=r"data\.csv"):
        build_plugin(repo, str(victim))
    assert (victim / "data.csv").read_text() == "1,2\n"


def test_an_empty_or_absent_folder_is_written(repo: Path, tmp_path: Path):
    (tmp_path / "empty").mkdir()
    for out in (tmp_path / "empty", tmp_path / "absent/deeper"):
        build_plugin(repo, str(out))
        assert (out / ".claude-plugin/marketplace.json").is_file()


# --- `code index --store PATH`: the other output a mistyped path could cost ---------------------------


def _index(root: Path, *args: str):
    return run_cli("code", "index", *args, cwd=root)


@pytest.mark.parametrize("kind", ["text", "sqlite", "folder"])
def test_a_store_path_naming_someone_elses_file_is_never_deleted_or_written(repo: Path, kind: str):
    """Before: `--store notes.txt --full` deleted notes.txt and put an index there; a SQLite database of
    another program got Maguyva's tables added to it; a folder ended in an IsADirectoryError traceback."""
    import sqlite3

    (repo / "app.py").write_text("def app():\n    return 1\n")
    target = repo / {"text": "notes.txt", "sqlite": "app.db", "folder": "data"}[kind]
    if kind == "text":
        target.write_text("precious notes\n")
    elif kind == "sqlite":
        db = sqlite3.connect(target)
        db.execute("CREATE TABLE users (name TEXT)")
        db.execute("INSERT INTO users VALUES ('ada')")
        db.commit()
        db.close()
    else:
        target.mkdir()
        (target / "keep.csv").write_text("1,2\n")
    before = snapshot(repo)
    for args in ((), ("--full",)):
        result = _index(repo, "--store", target.name, *args)
        assert result.returncode != 0, result.stderr
        assert "Traceback" not in result.stderr, result.stderr
        assert target.name in result.stderr
    assert snapshot(repo) == before


def test_a_store_of_ours_is_rebuilt_by_full(repo: Path):
    (repo / "app.py").write_text("def app():\n    return 1\n")
    assert _index(repo, "--store", "idx.db").returncode == 0
    assert _index(repo, "--store", "idx.db", "--full").returncode == 0
    assert (repo / "idx.db").read_bytes().startswith(b"SQLite format 3\0")
