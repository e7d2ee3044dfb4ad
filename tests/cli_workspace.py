"""The inspection CLI's fixture workspace (tests/fixtures/cli_workspace), copied into a temp git repo."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from clirun import run_cli
from conftest import REPO, git

FIXTURE = REPO / "tests" / "fixtures" / "cli_workspace"


def make_workspace(target: Path) -> Path:
    """A fresh copy of the fixture at ``target``, committed once in a new git repository."""
    shutil.copytree(FIXTURE, target)
    git(target, "init", "-q", "-b", "main")
    git(target, "add", "-A")
    git(target, "commit", "-q", "-m", "chore: fixture workspace")
    return target


def cli_json(root: Path, *args: str) -> dict:
    """Run ``orkestra ARGS --root ROOT`` and parse its JSON; the command must succeed."""
    result = run_cli(*args, "--root", str(root), cwd=root)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)
