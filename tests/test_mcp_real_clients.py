"""Real MCP clients, scripted: the MCP Inspector CLI and Claude Code talk to our stdio server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from maguyva_project import index_project, make_project
from npm_tools import CLAUDE_CODE, INSPECTOR, npm_bin

pytestmark = pytest.mark.external


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("clients")
    root = make_project(base / "repo")
    store = base / "index.db"
    index_project(root, store)
    return root, store


def server_command(root: Path, store: Path) -> list[str]:
    return [sys.executable, "-m", "orkestra", "code", "serve", "--repo", str(root), "--store", str(store)]


def tool(package: str, executable: str) -> Path:
    binary, reason = npm_bin(package, executable)
    if binary is None:
        print(f"skipping: {reason}")
        pytest.skip(reason)
    return binary


def test_inspector_cli_lists_eleven_tools_and_calls_one(project):
    inspector = tool(INSPECTOR, "mcp-inspector")
    root, store = project
    listed = subprocess.run(
        [str(inspector), "--cli", *server_command(root, store), "--method", "tools/list"],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert listed.returncode == 0, listed.stderr[-800:]
    assert len(json.loads(listed.stdout)["tools"]) == 11
    called = subprocess.run(
        [
            str(inspector),
            "--cli",
            *server_command(root, store),
            "--method",
            "tools/call",
            "--tool-name",
            "find_symbol",
            "--tool-arg",
            "symbol_name=apply_discount",
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert called.returncode == 0, called.stderr[-800:]
    payload = json.loads(called.stdout)
    assert "shop/pricing.py:8" in json.dumps(payload)


def test_claude_code_shows_the_server_connected(project, tmp_path):
    claude = tool(CLAUDE_CODE, "claude")
    root, store = project
    env = {**os.environ, "HOME": str(tmp_path / "home")}
    (tmp_path / "home").mkdir()
    added = subprocess.run(
        [str(claude), "mcp", "add", "--scope", "local", "maguyva", "--", *server_command(root, store)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert added.returncode == 0, added.stderr[-800:]
    listed = subprocess.run(
        [str(claude), "mcp", "list"], cwd=root, env=env, capture_output=True, text=True, timeout=180
    )
    line = next((row for row in listed.stdout.splitlines() if row.startswith("maguyva:")), "")
    assert "Connected" in line, listed.stdout[-800:] + listed.stderr[-800:]


# --- the orkestra server (registries and why) ---------------------------------------------


@pytest.fixture(scope="module")
def memory_workspace(tmp_path_factory) -> Path:
    from conftest import git
    from memory_repo import make_memory_repo

    root = tmp_path_factory.mktemp("orkestra-clients") / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    make_memory_repo(root)
    return root


def orkestra_command(root: Path) -> list[str]:
    return [sys.executable, "-m", "orkestra", "serve", "--root", str(root)]


def test_inspector_cli_lists_the_six_orkestra_tools_and_calls_why(memory_workspace):
    inspector = tool(INSPECTOR, "mcp-inspector")
    root = memory_workspace
    listed = subprocess.run(
        [str(inspector), "--cli", *orkestra_command(root), "--method", "tools/list"],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert listed.returncode == 0, listed.stderr[-800:]
    assert {t["name"] for t in json.loads(listed.stdout)["tools"]} == {
        "search_registry",
        "get_decision",
        "get_truth",
        "why",
        "list_agents_skills",
        "propose_decision",
    }
    called = subprocess.run(
        [
            str(inspector),
            "--cli",
            *orkestra_command(root),
            "--method",
            "tools/call",
            "--tool-name",
            "why",
            "--tool-arg",
            "target=src/shop/pricing.py",
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert called.returncode == 0, called.stderr[-800:]
    payload = json.dumps(json.loads(called.stdout))
    assert "DEC-PR-001" in payload and "GT-SHOP-001" in payload


def test_claude_code_shows_the_orkestra_server_connected(memory_workspace, tmp_path):
    claude = tool(CLAUDE_CODE, "claude")
    root = memory_workspace
    env = {**os.environ, "HOME": str(tmp_path / "home")}
    (tmp_path / "home").mkdir()
    added = subprocess.run(
        [str(claude), "mcp", "add", "--scope", "local", "orkestra", "--", *orkestra_command(root)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert added.returncode == 0, added.stderr[-800:]
    listed = subprocess.run(
        [str(claude), "mcp", "list"], cwd=root, env=env, capture_output=True, text=True, timeout=180
    )
    line = next((row for row in listed.stdout.splitlines() if row.startswith("orkestra:")), "")
    assert "Connected" in line, listed.stdout[-800:] + listed.stderr[-800:]
