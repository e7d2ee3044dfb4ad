"""A hostile-input sandbox for the Orkestra tests: the rich fixture workspace as a real git repo."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from clirun import run_cli
from conftest import REPO, git

RICH = REPO / "tests/fixtures/workspaces/rich"
SKILL = "registries/skills/domains/schema-migration-workflow"
RENDERED_SKILL = ".claude/skills/schema-migration-workflow"


def workspace(tmp_path: Path, name: str = "ws") -> Path:
    """A copy of the rich fixture, committed in a fresh git repository (so ``.git/hooks`` exists)."""
    root = tmp_path / name
    shutil.copytree(RICH, root)
    git(root, "init", "-q", "-b", "main")
    (root / ".git/hooks").mkdir(exist_ok=True)
    return root


def cli(root: Path, *args: str):
    return run_cli(*args, cwd=root)


def validate_json(root: Path) -> dict:
    result = cli(root, "validate", "--json")
    return json.loads(result.stdout)


def errors(root: Path) -> list[dict]:
    return [d for d in validate_json(root)["diagnostics"] if d["severity"] == "error"]


def files(folder: Path) -> dict[str, bytes]:
    """Every regular file below ``folder`` (symlinks not followed) → bytes."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }
