"""Helpers for Maguyva's hostile-input tests: a corpus, the CLI (in-process), a store's counts."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from clirun import Result, run_cli
from conftest import git


def write_corpus(root: Path, files: int, functions: int = 40, prefix: str = "mod") -> None:
    """``files`` Python modules in 30 packages, each defining ``2 * functions`` functions."""
    body = "".join(
        f"def f{i}(x):\n    return g{i}(x) + {i}\n\n\ndef g{i}(y):\n    return y * {i}\n\n\n"
        for i in range(functions)
    )
    for n in range(files):
        path = root / f"pkg{n % 30}" / f"{prefix}{n}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"from pkg0.{prefix}0 import f0\n\n\n{body}")


def commit_all(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "snapshot")


def cli(*args: str, cwd: Path, env: dict | None = None) -> Result:
    return run_cli(*args, cwd=cwd, env=env)


def cli_json(*args: str, cwd: Path, env: dict | None = None) -> dict:
    done = cli(*args, cwd=cwd, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def file_count(db: Path) -> int:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT count(*) FROM files").fetchone()[0]
    finally:
        con.close()
