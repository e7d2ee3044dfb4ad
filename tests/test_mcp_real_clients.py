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
    assert "DEC-PR-001" in payload
    assert "GT-SHOP-001" in payload


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


def test_claude_code_connects_the_rendered_launcher_from_a_bare_path(tmp_path):
    """Issue 32: Claude Code started with PATH=/usr/bin:/bin (no venv on it) runs the `.mcp.json` entry
    `orkestra sync` rendered: 'Failed to connect' without an environment it can find, 'Connected' once
    the project has its own `.venv`. (Project servers wait for approval, so the entry is added at local
    scope, exactly as rendered.)"""
    from conftest import git, run_cli

    from orkestra.launcher import BARE_PATH

    claude = tool(CLAUDE_CODE, "claude")
    root, home = tmp_path / "repo", tmp_path / "home"
    root.mkdir()
    home.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "pyproject.toml").write_text('[project]\nname = "cc"\nversion = "1.0"\n')
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude")}
    assert run_cli("init", cwd=root, env=env).returncode == 0
    assert run_cli("sync", cwd=root, env=env).returncode == 0
    entry = json.loads((root / ".mcp.json").read_text())["mcpServers"]["orkestra"]
    bare = {"PATH": BARE_PATH, "HOME": str(home)}

    def status() -> str:
        listed = subprocess.run(
            [str(claude), "mcp", "list"], cwd=root, env=bare, capture_output=True, text=True, timeout=180
        )
        return next((row for row in listed.stdout.splitlines() if row.startswith("rendered:")), listed.stdout)

    added = subprocess.run(
        [str(claude), "mcp", "add-json", "--scope", "local", "rendered", json.dumps(entry)],
        cwd=root,
        env=bare,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert added.returncode == 0, added.stderr[-800:]
    assert "Failed to connect" in status()  # nothing a bare PATH reaches: what users met before
    program = root / ".venv" / "bin" / "orkestra"
    program.parent.mkdir(parents=True)
    installed = Path(sys.executable).parent / "orkestra"  # this environment's console script
    if installed.is_file():
        program.symlink_to(installed)
    else:
        program.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m orkestra "$@"\n')
        program.chmod(0o755)
    assert "Connected" in status()


def test_a_plugin_at_user_scope_connects_in_a_repository_without_orkestra(tmp_path):
    """Issue 32: `claude plugin install` (user scope) starts the plugin's two servers in every repository.
    In one without orkestra.yaml or an index, from a bare PATH, they fail to connect until orkestra is
    installed as a tool (~/.local/bin), then both connect; doctor reports the scope either way."""
    from conftest import git, run_cli

    from orkestra.launcher import BARE_PATH

    claude = tool(CLAUDE_CODE, "claude")
    source, other, home = tmp_path / "source", tmp_path / "other", tmp_path / "home"
    for folder in (source, other, home):
        folder.mkdir()
    for repo in (source, other):
        git(repo, "init", "-q", "-b", "main")
    (source / "pyproject.toml").write_text('[project]\nname = "cc"\nversion = "1.0"\n')
    env = {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude")}
    assert run_cli("init", cwd=source, env=env).returncode == 0
    built = run_cli("plugin", "build", "--out", str(tmp_path / "market"), cwd=source, env=env)
    assert built.returncode == 0, built.stderr
    bare = {"PATH": BARE_PATH, "HOME": str(home)}
    for args in (
        ["plugin", "marketplace", "add", str(tmp_path / "market")],
        ["plugin", "install", "cc@cc-marketplace"],
    ):
        done = subprocess.run(
            [str(claude), *args], cwd=other, env=bare, capture_output=True, text=True, timeout=180
        )
        assert done.returncode == 0, done.stdout[-800:] + done.stderr[-800:]

    def rows() -> list[str]:
        listed = subprocess.run(
            [str(claude), "mcp", "list"], cwd=other, env=bare, capture_output=True, text=True, timeout=180
        )
        return [row for row in listed.stdout.splitlines() if row.startswith("plugin:cc:")]

    before = rows()
    assert len(before) == 2, before
    assert all("Failed to connect" in row for row in before), before
    doctor = json.loads(run_cli("doctor", "--json", cwd=other, env=env).stdout)
    plugin = [f for f in doctor["findings"] if f["check"] == "plugin"]
    assert any(f["severity"] == "info" and "user scope" in f["message"] for f in plugin)
    assert any(f["severity"] == "error" and "uv tool install orkestra" in f["fix"] for f in plugin)
    tool_bin = home / ".local" / "bin"
    tool_bin.mkdir(parents=True)
    (tool_bin / "orkestra").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m orkestra "$@"\n')
    (tool_bin / "orkestra").chmod(0o755)
    after = rows()
    assert len(after) == 2, after
    assert all("Connected" in row for row in after), after
    doctor = json.loads(run_cli("doctor", "--json", cwd=other, env=env).stdout)
    assert doctor["ok"]
    assert not [f for f in doctor["findings"] if f["check"] == "server"]
