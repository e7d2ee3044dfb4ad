"""The inspection commands stay light: no jinja2, rich, git, tree_sitter or mcp import on their paths."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from cli_workspace import make_workspace

HEAVY = ("jinja2", "rich", "git", "tree_sitter", "tree_sitter_language_pack", "mcp", "numpy", "networkx")

RUNNER = """
import json, sys
from orkestra.cli import build_app
argv = sys.argv[2:]
try:
    build_app(argv)(args=argv, prog_name="orkestra")
except SystemExit as exc:
    code = exc.code
heavy = sorted(m for m in json.loads(sys.argv[1]) if m in sys.modules)
sys.stderr.write(json.dumps({"code": code, "heavy": heavy}) + "\\n")
"""


def run_in_process(*argv: str) -> dict:
    result = subprocess.run([sys.executable, "-c", RUNNER, json.dumps(HEAVY), *argv], capture_output=True,
                            text=True, check=True)
    return json.loads(result.stderr.strip().splitlines()[-1])


@pytest.mark.parametrize("command", [("system", "status"), ("agents", "list"), ("search", "database")])
def test_inspection_commands_import_no_heavy_module_cold_or_cached(tmp_path, command):
    root = make_workspace(tmp_path / "ws")
    cold = run_in_process(*command, "--root", str(root))  # loads the workspace and writes the cache
    warm = run_in_process(*command, "--root", str(root))  # answers from the cache
    assert cold == warm == {"code": 0, "heavy": []}
