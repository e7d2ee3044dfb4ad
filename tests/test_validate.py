"""`orkestra validate`: every rule, warnings apart from errors, exit codes 0/1/2."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import pytest
from clirun import run_cli
from conftest import REPO

from orkestra.validation import validate_workspace
from orkestra.workspace import Workspace

RICH = REPO / "tests/fixtures/workspaces/rich"
TODAY = dt.date(2026, 11, 30)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    target = tmp_path / "ws"
    shutil.copytree(RICH, target)
    return target


def edit(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def found(root: Path, severity: str) -> list[str]:
    return [str(d) for d in validate_workspace(Workspace.load(root), today=TODAY) if d.severity == severity]


def test_rich_fixture_is_clean():
    assert validate_workspace(Workspace.load(RICH), today=TODAY) == []


def test_all_errors_are_reported_in_one_run(root):
    edit(root, "registries/agents/bio-analyst.yaml", "mindset: analytical", "mindset: analitical")
    edit(root, "registries/agents/security-guardian.yaml", "style: technical", "style: verbose")
    edit(
        root,
        "ai_assets/reference/decisions/records/DEC-PL-001.yaml",
        "related: [DEC-SR-001]",
        "related: [DEC-X]",
    )
    errors = found(root, "error")
    assert len(errors) == 3
    assert errors[0].startswith("ai_assets/reference/decisions/records/DEC-PL-001.yaml:13:")


def test_description_and_trigger_warnings(root):
    edit(
        root,
        "registries/skills/foundations/test-first-discipline/SKILL.md",
        "Write the failing test before the code that makes it pass. Use when changing behaviour in any code path.",
        "Tests first.",
    )
    warnings = found(root, "warning")
    assert any("description is 12 characters; aim for 50-400" in w for w in warnings)
    assert any("no trigger phrase" in w for w in warnings)
    assert found(root, "error") == []


def test_stale_truth_missing_evidence_and_unused_dormant_scope_warn(root):
    edit(
        root,
        "ai_assets/reference/ground_truths.yaml",
        "evidence: [registries/skills]",
        "evidence: [gone/file.py]",
    )
    edit(
        root,
        "ai_assets/reference/ground_truths.yaml",
        "    last_verified: '2026-11-01'\n    tags: [architecture]",
        "    last_verified: '2025-01-01'\n    tags: [architecture]",
    )
    (root / "registries/agents/bio-analyst.yaml").unlink()
    warnings = found(root, "warning")
    assert any("evidence path 'gone/file.py' does not exist" in w for w in warnings)
    assert any("last verified 2025-01-01" in w for w in warnings)
    assert any("dormant scope 'bioinformatics' is not declared by any agent" in w for w in warnings)


def test_deprecated_mcp_tool_and_incomplete_domain_folder_warn(root):
    edit(
        root,
        "registries/agents/architecture-advisor.yaml",
        "mcp__maguyva__find_symbol]",
        "mcp__maguyva__find_symbol, mcp__maguyva__legacy_grep]",
    )
    (root / "ai_assets/domains/security/evolution.md").unlink()
    warnings = found(root, "warning")
    assert any(
        "'mcp__maguyva__legacy_grep' is deprecated; use 'mcp__maguyva__intelligent_search'" in w
        for w in warnings
    )
    assert (
        "ai_assets/domains/security:1:1: warning: domain folder lacks evolution.md (four-file pattern)"
        in warnings
    )


def test_more_agents_than_claude_code_loads_reliably_warns(root):
    template = (root / "registries/agents/bio-analyst.yaml").read_text()
    for index in range(37):
        (root / f"registries/agents/extra-{index:02d}.yaml").write_text(
            template.replace("name: bio-analyst", f"name: extra-{index:02d}")
        )
    assert any("41 agents: Claude Code loads about 37" in w for w in found(root, "warning"))


def test_cli_exit_codes_and_json_shape(root):
    clean = run_cli("validate", "--json", cwd=root)
    assert clean.returncode == 0
    assert json.loads(clean.stdout) == {"ok": True, "errors": 0, "warnings": 0, "diagnostics": []}
    edit(root, "registries/agents/bio-analyst.yaml", "mindset: analytical", "mindset: analitical")
    broken = run_cli("validate", cwd=root)
    assert broken.returncode == 1
    assert broken.stdout.splitlines()[0].startswith(
        "registries/agents/bio-analyst.yaml:5:1: mindset: unknown"
    )
    assert run_cli("validate", "--no-such-flag", cwd=root).returncode == 2
