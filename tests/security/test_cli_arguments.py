"""Hostile command-line and tool arguments: undecodable bytes, over-long names and filters.

Found by fuzzing every tool of ``maguyva.api`` with hostile strings on a real clone (pytest's).
Each case ended in a traceback before: a ``UnicodeEncodeError`` from a store query, an
``OSError`` (ENAMETOOLONG) from ``get_file``, an ``sqlite3.OperationalError`` ("LIKE or GLOB
pattern too complex") from ``search_structure``. Now each is a one-line error with a meaningful
exit code.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import git

from maguyva.api import Maguyva
from maguyva.cli.argv import undecodable
from maguyva.errors import MaguyvaError
from maguyva.index.pipeline import index_repository
from maguyva.tools.text import MAX_FILTER_CHARS


@pytest.fixture
def indexed(git_repo: Path) -> Path:
    (git_repo / "app.py").write_text(
        "def plan_route(x):\n    return x\n\n\ndef caller():\n    return plan_route(1)\n"
    )
    git(git_repo, "add", "-A")
    git(git_repo, "commit", "-qm", "feat: app")
    index_repository(git_repo)
    return git_repo


def run_bytes(module: str, *args: bytes, cwd: Path) -> subprocess.CompletedProcess:
    """The console script with raw bytes in its argv, as a shell passes ``$'fix\\xff'``."""
    return subprocess.run(
        [sys.executable.encode(), b"-m", module.encode(), *args],
        cwd=cwd,
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


@pytest.mark.parametrize(
    ("module", "args", "position"),
    [
        ("orkestra", (b"code", b"symbol", b"fix\xff"), 3),
        ("orkestra", (b"code", b"refs", b"fix\xff"), 3),
        ("orkestra", (b"code", b"deps", b"fix\xff"), 3),
        ("orkestra", (b"code", b"file", b"fix\xff.py"), 3),
        ("orkestra", (b"why", b"x\xff"), 2),
        ("maguyva", (b"symbol", b"fix\xff"), 2),
        ("maguyva", (b"search", b"caf\xe9 route"), 2),
    ],
)
def test_an_undecodable_argument_is_a_usage_error(indexed: Path, module: str, args: tuple, position: int):
    done = run_bytes(module, *args, cwd=indexed)
    stderr = done.stderr.decode()
    assert done.returncode == 2, stderr
    assert "Traceback" not in stderr
    assert "UnicodeEncodeError" not in stderr
    assert f"argument {position} (" in stderr
    assert "is not valid UTF-8 text" in stderr
    assert "\\x" in stderr  # the byte is shown as it was given


def test_valid_utf8_arguments_pass(indexed: Path):
    done = run_bytes("maguyva", b"symbol", b"plan_route", cwd=indexed)
    assert done.returncode == 0, done.stderr.decode()
    assert b"app.py:1" in done.stdout
    assert undecodable(["caf\u00e9", "\u65e5\u672c", "plain"]) is None
    assert undecodable(["ok", "fix\udcff"]) == (2, "fix\\xff")
    assert undecodable(["a\ud800"]) == (1, "a\\ud800")  # not from a byte: shown as the code point


def test_get_file_with_a_name_too_long_for_the_file_system(indexed: Path):
    api = Maguyva.open(indexed)
    try:
        with pytest.raises(MaguyvaError, match="no file"):
            api.get_file("a" * 300 + ".py")
        with pytest.raises(MaguyvaError, match="no file"):
            api.get_file("pkg/" + "b" * 5000)
        assert api.get_file("app.py").total_lines == 6  # a real file still reads
    finally:
        api.close()
    done = run_bytes("orkestra", b"code", b"file", b"c" * 300, cwd=indexed)
    assert done.returncode == 1
    assert b"no file" in done.stderr
    assert b"Traceback" not in done.stderr


def test_search_structure_refuses_over_long_filters(indexed: Path):
    api = Maguyva.open(indexed)
    try:
        for field in ("name", "signature_contains", "kind", "path_prefix"):
            arguments = {"name": "plan_*", field: "x" * 60_000}  # past SQLite's 50,000-byte LIKE/GLOB limit
            with pytest.raises(
                MaguyvaError, match=f"{field} is 60000 characters, the limit is {MAX_FILTER_CHARS}"
            ):
                api.search_structure(**arguments)
        assert api.search_structure(name="plan_*").count == 1  # at the limit or under, as before
        assert api.search_structure(name="*" * MAX_FILTER_CHARS).count == 2
    finally:
        api.close()
