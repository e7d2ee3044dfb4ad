"""The real clients accept what sync renders: `claude plugin validate` and `agentskills validate`.

Runs on a sync of the rich fixture and of this repository's own workspace (skipped while
its `registries/agents` is empty). Claude Code is installed once with npm (`tests/npm_tools.py`);
the tests skip, saying why, only when npm is missing or the install fails.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO
from npm_tools import CLAUDE_CODE, npm_bin

from orkestra.render.sync import sync

pytestmark = pytest.mark.external

AGENTSKILLS = Path(sys.executable).parent / "agentskills"


@pytest.fixture(scope="session")
def claude() -> Path:
    binary, reason = npm_bin(CLAUDE_CODE, "claude")
    if binary is None:
        print(f"skipping: {reason}")
        pytest.skip(reason)
    return binary


@pytest.fixture(scope="module", params=["rich", "dogfood"])
def synced(request, tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp(request.param) / "ws"
    if request.param == "rich":
        shutil.copytree(REPO / "tests/fixtures/workspaces/rich", root)
    else:
        if not any((REPO / "registries/agents").glob("*.yaml")):
            pytest.skip("the repository's registries/agents is still empty")
        root.mkdir()
        for name in ("orkestra.yaml", "registries", "ai_assets", "templates", ".claude"):
            source = REPO / name
            if source.is_dir():
                shutil.copytree(source, root / name)
            elif source.is_file():
                shutil.copy2(source, root / name)
    sync(root, force=True)
    return root


def rendered_names(root: Path) -> dict[str, list[str]]:
    claude_dir = root / ".claude"
    return {
        "agents": sorted(p.stem for p in (claude_dir / "agents").glob("*.md")),
        "skills": sorted(p.parent.name for p in (claude_dir / "skills").glob("*/SKILL.md")),
        "commands": sorted(p.stem for p in (claude_dir / "commands").glob("*.md")),
    }


def test_claude_plugin_validate_reports_no_errors(claude, synced):
    result = subprocess.run(
        [str(claude), "plugin", "validate", "--json", str(synced / ".claude")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert json.loads(result.stdout)["success"] is True


def test_claude_loads_every_rendered_agent_skill_and_command(claude, synced, tmp_path):
    """Packaged as a plugin, the rendered tree provides exactly the names sync wrote."""
    plugin = tmp_path / "plugin"
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin/plugin.json").write_text(
        json.dumps({"name": "check", "version": "0.0.0", "description": "rendered by orkestra sync"})
    )
    for kind in ("agents", "skills", "commands"):
        if (synced / ".claude" / kind).is_dir():
            shutil.copytree(synced / ".claude" / kind, plugin / kind)
    result = subprocess.run(
        [str(claude), "plugin", "validate", "--json", str(plugin)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["manifest"]["errors"] == []
    provided = {
        kind: sorted(name.removeprefix("check:") for name in report["provides"][kind])
        for kind in ("agents", "skills", "commands")
    }
    assert provided == rendered_names(synced)


def test_every_rendered_skill_passes_agentskills_validate(synced):
    failures = []
    for skill in sorted((synced / ".claude/skills").glob("*/SKILL.md")):
        result = subprocess.run(
            [str(AGENTSKILLS), "validate", str(skill.parent)], capture_output=True, text=True
        )
        if result.returncode != 0:
            failures.append(f"{skill.parent.name}: {result.stdout}{result.stderr}")
    assert rendered_names(synced)["skills"]
    assert failures == []
