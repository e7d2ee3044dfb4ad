"""Rendering: frontmatter Claude Code and the Agent Skills spec accept, deterministic bytes."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
import yaml
from conftest import REPO

from orkestra.errors import OrkestraError
from orkestra.render.outputs import render_outputs
from orkestra.render.sync import sync
from orkestra.workspace import Workspace

RICH = REPO / "tests/fixtures/workspaces/rich"
SPEC_KEYS = {"name", "description", "license", "compatibility", "metadata", "allowed-tools"}


@pytest.fixture(scope="module")
def synced(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("render") / "ws"
    shutil.copytree(RICH, root)
    sync(root)
    return root


def front(path: Path) -> tuple[dict, str]:
    _, head, body = path.read_text().split("---\n", 2)
    return yaml.safe_load(head), body


def test_agent_frontmatter_has_tools_as_a_comma_string(synced):
    data, body = front(synced / ".claude/agents/architecture-advisor.md")
    assert data == {
        "name": "architecture-advisor",
        "description": "Strategic decision-making and architectural guidance: boundaries, data flow, "
        "trade-offs.",
        "tools": "Read, Grep, Glob, mcp__maguyva__intelligent_search, mcp__maguyva__find_symbol",
        "model": "opus",
        "color": "blue",
    }
    assert "## Values (always apply" in body
    assert "### maguyva" in body


def test_specialist_without_tools_is_denied_delegation(synced):
    data, body = front(synced / ".claude/agents/bio-analyst.md")
    assert data["disallowedTools"] == "Agent, Task"
    assert "tools" not in data
    assert "do not delegate" in body


def test_orchestrator_lists_essential_cli_commands_and_specialists(synced):
    _, body = front(synced / ".claude/agents/orchestrator.md")
    assert '- `orkestra registry decisions search "X"`: Find architectural decisions' in body
    assert "- `security-guardian`: Reviews changes" in body


def test_skills_render_flat_with_only_spec_keys_and_string_metadata(synced):
    skills = sorted(p.parent.name for p in (synced / ".claude/skills").glob("*/SKILL.md"))
    assert skills == [
        "acme-deploy-preview",
        "evidence-based-completion",
        "genome-alignment",
        "maguyva-quickstart",
        "schema-migration-workflow",
        "secrets-audit-checklist",
        "test-first-discipline",
    ]
    for name in skills:
        data, _ = front(synced / ".claude/skills" / name / "SKILL.md")
        assert set(data) <= SPEC_KEYS
        assert data["name"] == name
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in data["metadata"].items())
    data, _ = front(synced / ".claude/skills/schema-migration-workflow/SKILL.md")
    assert data["metadata"]["tier"] == "K2"
    assert data["metadata"]["scope"] == "database"
    assert data["allowed-tools"] == "Read Grep Bash"


def test_deprecated_skill_is_not_rendered(synced):
    assert not (synced / ".claude/skills/retired-review").exists()


def test_skill_assets_are_copied_with_their_executable_bit(synced):
    script = synced / ".claude/skills/schema-migration-workflow/scripts/plan.sh"
    source = synced / "registries/skills/domains/schema-migration-workflow/scripts/plan.sh"
    assert script.read_bytes() == source.read_bytes()
    assert os.access(script, os.X_OK)
    assert (synced / ".claude/skills/schema-migration-workflow/references/checklist.md").is_file()


def test_ground_truths_render_per_package_grouped_by_status_then_group(synced):
    text = (synced / "GROUND_TRUTHS.md").read_text()
    order = [
        text.index(s)
        for s in (
            "## Current (2)",
            "### Product Principles",
            "GT-RICH-001",
            "### Architecture & Boundaries",
            "GT-RICH-002",
            "## Tentative (1)",
            "GT-RICH-003",
            "## Deprecated (1)",
            "Superseded by GT-RICH-002",
        )
    ]
    assert order == sorted(order)
    assert "GT-SRCH-001" in (synced / "packages/search/GROUND_TRUTHS.md").read_text()


def test_decisions_digest_lists_active_decisions_by_domain(synced):
    text = (synced / "ai_assets/reference/DECISIONS.md").read_text()
    assert text.index("## pipeline (PL)") < text.index("### DEC-PL-001") < text.index("## search (SR)")
    assert "DEC-SR-000" not in text
    _, body = front(synced / ".claude/agents/architecture-advisor.md")
    assert "`ai_assets/reference/DECISIONS.md`: architectural decisions for pipeline" in body


def test_mcp_json_points_at_the_bundled_server(synced):
    from orkestra.launcher import PROJECT_LAUNCHER

    launched = ["-c", PROJECT_LAUNCHER, "orkestra", "${CLAUDE_PROJECT_DIR:-.}"]  # no activated venv needed
    assert json.loads((synced / ".mcp.json").read_text()) == {
        "mcpServers": {"maguyva": {"type": "stdio", "command": "sh", "args": [*launched, "code", "serve"]}}
    }


def test_workspace_template_overrides_the_packaged_one(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(RICH, root)
    (root / "templates").mkdir()
    (root / "templates/command.md.j2").write_text(
        "---\n{{ frontmatter | frontmatter }}---\nCUSTOM {{ name }}\n"
    )
    outputs = {o.path: o.content for o in render_outputs(Workspace.load(root))}
    assert outputs[".claude/commands/registry-health.md"].endswith(b"---\nCUSTOM registry-health\n")


def test_undefined_template_variable_is_an_error_not_empty_text(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(RICH, root)
    (root / "templates").mkdir()
    (root / "templates/command.md.j2").write_text("{{ no_such_variable }}\n")
    with pytest.raises(OrkestraError, match="no_such_variable"):
        render_outputs(Workspace.load(root))
