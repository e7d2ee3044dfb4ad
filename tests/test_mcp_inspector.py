"""The official MCP Inspector CLI lists our stdio server's tools: each has an outputSchema.

Uses the Inspector pinned in tests/js/package.json (``.ci/run`` installs it); without that
install it runs the same pinned version through ``npx``. Skips, saying why, only when npx is
missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from maguyva_project import index_project, make_project
from test_mcp_server import TOOLS

JS = Path(__file__).parent / "js"
INSPECTOR = "@modelcontextprotocol/inspector"


def inspector_command() -> list[str]:
    if shutil.which("npx") is None:
        pytest.skip("npx is not installed (install Node.js; .ci/run installs tests/js with npm)")
    installed = JS / "node_modules" / ".bin" / "mcp-inspector"
    if installed.exists():
        return [str(installed)]
    pinned = json.loads((JS / "package.json").read_text())["dependencies"][INSPECTOR]
    return ["npx", "--yes", f"{INSPECTOR}@{pinned}"]


def test_inspector_cli_lists_every_tool_with_an_output_schema(tmp_path):
    command = inspector_command()
    root = make_project(tmp_path / "repo")
    store = tmp_path / "index.db"
    index_project(root, store)
    code = os.pathsep.join(p for p in (str(Path(__file__).parent.parent), os.environ.get("PYTHONPATH")) if p)
    server = [sys.executable, "-m", "orkestra", "code", "serve", "--repo", str(root), "--store", str(store)]
    # the Inspector starts the server with a minimal environment: hand it the code under test
    listed = subprocess.run(
        [*command, "--cli", "-e", f"PYTHONPATH={code}", *server, "--method", "tools/list"],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=tmp_path,
        check=False,
    )
    assert listed.returncode == 0, listed.stderr
    tools = json.loads(listed.stdout)["tools"]
    assert {t["name"] for t in tools} == TOOLS
    for tool in tools:
        assert tool["outputSchema"]["type"] == "object", tool["name"]
        assert tool["outputSchema"]["properties"], tool["name"]
    assert "portability: 0 errors, 0 warnings" in listed.stderr or "warning" not in listed.stderr.lower(), (
        listed.stderr
    )
