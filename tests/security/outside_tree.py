"""A folder beside the repository that a hostile link or setting points at, and the check that it is
as it was (the symlink tests of mining and init share it)."""

from __future__ import annotations

from pathlib import Path


def outside_folder(tmp_path: Path) -> Path:
    """``tmp_path/outside`` holding one file, ``keep.txt``, that must stay as it is."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "keep.txt").write_text("keep me\n")
    return folder


def untouched(outside: Path) -> None:
    assert sorted(p.name for p in outside.iterdir()) == ["keep.txt"]
    assert (outside / "keep.txt").read_text() == "keep me\n"
