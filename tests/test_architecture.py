"""Maguyva stands alone: nothing under maguyva/ imports orkestra (orkestra may import maguyva)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest
from conftest import REPO

MAGUYVA = REPO / "maguyva"


def orkestra_imports(path, root=REPO) -> list[str]:
    """``file:line`` of every import of orkestra in one module (top level, in functions, TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
            names = [str(node.args[0].value)]
        found += [f"{path.relative_to(root)}:{node.lineno}" for name in names
                  if name == "orkestra" or name.startswith("orkestra.")]
    return found


def test_no_module_under_maguyva_imports_orkestra():
    modules = sorted(MAGUYVA.rglob("*.py"))
    assert len(modules) > 50  # the scan really walked the package
    offenders = [where for path in modules for where in orkestra_imports(path)]
    assert offenders == []


def test_the_scan_catches_every_import_form(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("import orkestra\nfrom orkestra.errors import X\ndef f():\n    import orkestra.cli as c\n"
                      "importlib.import_module('orkestra.memory')\nfrom maguyva import y\nimport orkestral\n")
    assert orkestra_imports(sample, tmp_path) == ["sample.py:1", "sample.py:2", "sample.py:4", "sample.py:5"]


RUNNER = """
import json, sys
import maguyva.api, maguyva.cli.app, maguyva.server.app, maguyva.server.team, maguyva.server.tools
import maguyva.status, maguyva.config, maguyva.workspace, maguyva.embed.repository, maguyva.export
from maguyva.cli.app import app
from typer.testing import CliRunner
result = CliRunner().invoke(app, ["--help"])
print(json.dumps({"help": result.exit_code, "orkestra": sorted(m for m in sys.modules if m.split(".")[0] == "orkestra")}))
"""


def test_importing_maguyva_api_cli_and_server_loads_no_orkestra_module():
    pytest.importorskip("mcp")
    done = subprocess.run([sys.executable, "-c", RUNNER], capture_output=True, text=True, cwd=REPO, check=True)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {"help": 0, "orkestra": []}
