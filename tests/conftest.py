"""Shared fixtures: real temp git repositories, real workspaces, the CLI as a subprocess (clirun.py: in-process)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test Author",
    "GIT_AUTHOR_EMAIL": "author@example.com",
    "GIT_COMMITTER_NAME": "Test Committer",
    "GIT_COMMITTER_EMAIL": "committer@example.com",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00+00:00",
    "GIT_CONFIG_NOSYSTEM": "1",
    "HOME": str(Path(os.environ.get("HOME", "/tmp"))),
}


def git(cwd: Path, *args: str, env: dict | None = None) -> str:
    """Run git in ``cwd`` with a fixed identity; return stdout."""
    full_env = {**os.environ, **GIT_ENV, **(env or {})}
    out = subprocess.run(["git", *args], cwd=cwd, env=full_env, check=True, capture_output=True, text=True)
    return out.stdout


def run_cli(
    *args: str, cwd: Path, input: str | None = None, env: dict | None = None, program: str = "orkestra"
) -> subprocess.CompletedProcess:
    """Run the real console script as a subprocess (``python -m orkestra``): for tests whose point is the
    process (start-up, imports, signals, kills, time limits); ``clirun.run_cli`` runs a command in-process."""
    module = "orkestra" if program == "orkestra" else "maguyva"
    return subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=cwd,
        input=input,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )


@pytest.fixture
def git_repo(tmp_path: Path) -> Path:
    """An empty git repository with a fixed identity."""
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    return repo


@pytest.fixture
def dogfood(tmp_path: Path) -> Path:
    """A copy of this repository's own workspace (config, registries, templates, ai_assets, .claude)."""
    target = tmp_path / "dogfood"
    target.mkdir()
    for name in ("orkestra.yaml", ".mcp.json", "GROUND_TRUTHS.md"):
        if (REPO / name).exists():
            shutil.copy2(REPO / name, target / name)
    for name in (
        "registries",
        "templates",
        "ai_assets",
        ".claude",
        "orkestra",
        "maguyva",
        "docs",
        "tests/fixtures",
    ):
        if (REPO / name).exists():
            shutil.copytree(
                REPO / name, target / name, symlinks=True, ignore=shutil.ignore_patterns("__pycache__")
            )
    return target


@pytest.fixture(scope="session")
def postgres_url():
    """A throwaway PostgreSQL server for the session ($MAGUYVA_TEST_PG names an existing one instead).

    Skips, saying why, when PostgreSQL or psycopg is not installed.
    """
    if os.environ.get("MAGUYVA_TEST_PG"):
        yield os.environ["MAGUYVA_TEST_PG"]
        return
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install 'orkestra[postgres]')")
    from pg_server import TempPostgres, find_bindir

    if find_bindir() is None:
        pytest.skip("PostgreSQL binaries not found (apt-get install postgresql)")
    server = TempPostgres().start()
    yield server.url
    server.stop()
