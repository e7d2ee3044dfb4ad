"""The in-process CLI runner (tests/clirun.py) answers what the console script answers as a process, and
leaves the test process as it found it."""

from __future__ import annotations

import os
import sys

import conftest
import pytest
from clirun import run_cli


@pytest.mark.parametrize(
    ("program", "args"),
    [
        ("orkestra", ("--version",)),
        ("orkestra", ("zzzzqq",)),  # a usage error: exit 2, a suggestion on stderr
        ("orkestra", ("agents", "list", "--help")),
        ("orkestra", ("code", "grep", "--bogus")),  # the direct Maguyva path of orkestra.entry
        ("orkestra", ("agents", "list")),  # no workspace: exit 1, what to run
        ("maguyva", ("status", "--help")),
    ],
)
def test_in_process_answers_exactly_what_the_process_answers(tmp_path, monkeypatch, program, args):
    monkeypatch.delenv("ORKESTRA_TEST_SUBPROCESS", raising=False)
    inside = run_cli(*args, cwd=tmp_path, program=program)
    process = conftest.run_cli(*args, cwd=tmp_path, program=program)
    assert (inside.returncode, inside.stdout, inside.stderr) == (
        process.returncode,
        process.stdout,
        process.stderr,
    )


def test_a_run_leaves_cwd_environment_argv_and_streams_as_they_were(tmp_path, monkeypatch):
    monkeypatch.delenv("ORKESTRA_TEST_SUBPROCESS", raising=False)
    before = (
        os.getcwd(),
        dict(os.environ),
        list(sys.argv),
        sys.stdout,
        sys.stderr,
        sys.stdin,
        sys.excepthook,
    )
    done = run_cli("agents", "list", cwd=tmp_path, env={"ORKESTRA_PROBE": "1", "HOME": str(tmp_path)})
    assert done.returncode == 1  # no workspace here
    after = (os.getcwd(), dict(os.environ), list(sys.argv), sys.stdout, sys.stderr, sys.stdin, sys.excepthook)
    assert after == before
