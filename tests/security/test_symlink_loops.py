"""A cloned repository holding a loop of symlinks, and path arguments no file system can hold.

``a -> b``, ``b -> a`` is two lines of ``git`` to commit, and it used to stop ``maguyva index``
(and ``orkestra code index``) with a ``RuntimeError: Symlink loop`` traceback: the scanner
resolved every link to check where it leads. ``code file`` and ``why`` died the same way on such
a path, and ``why`` also on a NUL character or a name too long for the file system (both reach
it from the orkestra MCP server's ``why`` tool). Now the index skips the loop and says why, and
the others answer with a one-line error.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from clirun import run_cli
from conftest import git

from maguyva.index.scan import scan_repository
from orkestra.errors import OrkestraError
from orkestra.why.answer import why


@pytest.fixture
def looped(git_repo: Path) -> Path:
    (git_repo / "app.py").write_text("def plan_route(x):\n    return x\n")
    os.symlink("loop_b", git_repo / "loop_a")
    os.symlink("loop_a", git_repo / "loop_b")
    os.symlink("itself", git_repo / "itself")
    (git_repo / "pkg").mkdir()
    os.symlink("../pkg", git_repo / "pkg" / "up")
    os.symlink("self", git_repo / "pkg" / "self")  # a link to a folder above: a cycle for a walk that follows
    (git_repo / "pkg" / "mod.py").write_text("from app import plan_route\n")
    assert run_cli("init", cwd=git_repo).returncode == 0  # a workspace, for why
    git(git_repo, "add", "-A")
    git(git_repo, "commit", "-qm", "feat: a tree with loops")
    return git_repo


def test_the_index_skips_a_loop_of_links_and_says_why(looped: Path):
    done = run_cli("index", "--format", "json", cwd=looped, program="maguyva")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    assert (
        report["languages"]["python"]["files"] == 2
    )  # app.py and pkg/mod.py, once each (pkg/up/… never walked)
    status = run_cli("code", "status", "--format", "json", cwd=looped)
    assert status.returncode == 0, status.stderr
    found = run_cli("code", "symbol", "plan_route", "--format", "json", cwd=looped)
    assert found.returncode == 0
    assert "app.py:1" in found.stdout
    assert report["skipped"] == 5
    reasons = {s.path: s.reason for s in scan_repository(looped).skipped}
    loops = dict.fromkeys(("loop_a", "loop_b", "itself", "pkg/self"), "symlink loop")
    assert reasons == {**loops, "pkg/up": "symlink to a non-file"}  # git lists the folder link; never walked


@pytest.mark.parametrize("target", ["loop_a", "itself", "pkg/../loop_b"])
def test_get_file_on_a_loop_is_an_error(looped: Path, target: str):
    run_cli("index", cwd=looped, program="maguyva")
    done = run_cli("code", "file", target, cwd=looped)
    assert done.returncode == 1
    assert "a loop of symlinks" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("pkg/self", "loop of symlinks"),
        ("loop_a", "not a path in this repository"),  # no slash: asked as a symbol once no path is there
        (str(Path("/") / "x" / "loop_a"), "outside the repository"),
        ("pkg/\0mod.py", "NUL character"),
        ("src/" + "x" * 300 + ".py", "no such path"),
        ("y" * 300, "not a path in this repository|no symbol"),
    ],
)
def test_why_answers_an_error_for_paths_no_file_can_have(looped: Path, target: str, message: str):
    with pytest.raises(OrkestraError, match=message):
        why(looped, target)


def test_why_on_a_loop_through_the_cli(looped: Path):
    run_cli("index", cwd=looped, program="maguyva")
    for target in ("pkg/self", "pkg/up/self"):
        done = run_cli("why", target, cwd=looped)
        assert done.returncode == 1
        assert "Traceback" not in done.stderr
        assert done.stderr.startswith("error: "), done.stderr
        assert "loop of symlinks" in done.stderr, done.stderr


def test_propose_decision_answers_an_error_for_a_name_too_long(looped: Path):
    """The orkestra MCP server's propose_decision takes any strings as ``files``."""
    from orkestra.why.propose import propose_decision
    from orkestra.workspace import Workspace

    domain = next(iter(Workspace.load(looped).decision_registry.domains))
    with pytest.raises(OrkestraError, match="does not exist in the repository"):
        propose_decision(looped, domain, "A title", "A summary", files=["z" * 300 + ".py"])
    with pytest.raises(OrkestraError, match="loop of symlinks"):
        propose_decision(looped, domain, "A title", "A summary", files=["pkg/self"])
