"""This repository's own registries (registries/, ai_assets/) load, validate and say what they claim."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from collections import Counter

import pytest
from clirun import run_cli
from conftest import REPO
from test_mcp_server import TOOLS as MAGUYVA_TOOLS

from orkestra.validation import validate_workspace
from orkestra.workspace import Workspace
from orkestra.workspace.compose import DELEGATION_TOOLS, resolve_skills

# The day the ground truths were last verified; validation is pinned to it so the
# "stale last_verified" warning (180 days) cannot make this suite fail with the calendar.
VERIFIED_ON = dt.date(2026, 11, 30)
SKILL_SCRIPTS = REPO / "registries" / "skills" / "project"


@pytest.fixture(scope="module")
def ws() -> Workspace:
    return Workspace.load(REPO)


def test_dogfood_workspace_loads_without_diagnostics(ws):
    assert [str(d) for d in ws.diagnostics] == []


# Warnings that come from git history, not from the registries: every later commit touching an evidence
# file raises them until a person re-verifies the truth (that is their point), so they are checked below.
HISTORY_CODES = {"evidence-changed", "decision-rewritten"}


def test_dogfood_validates_without_errors_or_warnings(ws):
    assert [str(d) for d in validate_workspace(ws, today=VERIFIED_ON) if d.code not in HISTORY_CODES] == []


def test_dogfood_history_warnings_name_real_commits_and_how_to_reverify(ws):
    import re

    from orkestra.why.history import _git

    for d in validate_workspace(ws, today=VERIFIED_ON):
        if d.code in HISTORY_CODES:
            sha = re.search(r"\b[0-9a-f]{10}\b(?= \()", d.message).group()
            assert _git(REPO, "cat-file", "-t", sha).strip() == "commit", d.message
            assert "last_verified" in d.message or "supersede" in d.message


def test_validate_cli_exits_zero_on_this_repository():
    result = run_cli("validate", "--show-warnings", cwd=REPO)
    assert result.returncode == 0, result.stdout + result.stderr


def test_persona_registries_define_27_identities_11_mindsets_10_styles(ws):
    assert (len(ws.identities), len(ws.mindsets), len(ws.styles)) == (27, 11, 10)
    assert {"architect", "debugger", "guardian", "strategist", "knowledge-architect"} <= set(ws.identities)
    assert {"analytical", "skeptical", "exploratory"} <= set(ws.mindsets)
    assert {"technical", "concise", "diplomatic"} <= set(ws.styles)


def test_values_layer_holds_the_four_operating_values(ws):
    assert [v.id for v in ws.values] == [
        "simplicity-first",
        "fix-root-causes",
        "evidence-based",
        "context-economy",
    ]


def test_one_orchestrator_lists_the_essential_commands_and_specialists_cannot_delegate(ws):
    orchestrators = [a for a in ws.agents.values() if a.orchestrator]
    assert [a.name for a in orchestrators] == ["orchestrator"]
    for command in (
        "orkestra system status",
        "orkestra agents list",
        "orkestra agents info NAME",
        'orkestra registry decisions search "X"',
        'orkestra registry truths search "X"',
        'orkestra search "X" --summary',
    ):
        assert command in orchestrators[0].instructions
    delegating = {
        a.name
        for a in ws.agents.values()
        if not a.orchestrator and set(DELEGATION_TOOLS) & set(a.tools.builtin + a.tools.mcp_tools)
    }
    assert delegating == set()
    assert len(ws.agents) >= 12


def test_skills_cover_every_tier_and_every_type(ws):
    tiers = Counter(s.metadata.layer for s in ws.skills.values())
    types = Counter(s.metadata.type for s in ws.skills.values())
    assert set(tiers) == {"K0", "K1", "K2", "K3", "K4"}
    assert set(types) == {"workflow", "discipline", "checklist"}
    assert len(ws.skills) >= 30
    foundations = {s.name for s in ws.skills.values() if s.metadata.layer == "K0"}
    assert foundations == {
        "test-first-discipline",
        "evidence-based-completion",
        "systematic-debugging",
        "structured-planning",
        "context-budget-awareness",
    }


def test_dormant_scope_skills_load_only_for_agents_declaring_it(ws):
    dormant = [name for name, scope in ws.scopes.items() if scope.dormant]
    assert dormant == ["embeddings"]
    held = {s.name for s in ws.skills.values() if s.metadata.scope == "embeddings"}
    assert len(held) >= 3
    declaring = {a.name for a in ws.agents.values() if "embeddings" in a.scopes}
    assert declaring
    for agent in ws.agents.values():
        loaded = {r.skill.name for r in resolve_skills(ws, agent)}
        assert (held <= loaded) == (agent.name in declaring), agent.name


def test_every_skill_is_loaded_by_at_least_one_agent(ws):
    loaded = {r.skill.name for agent in ws.agents.values() for r in resolve_skills(ws, agent)}
    assert sorted(set(ws.skills) - loaded) == []


def test_tools_registry_declares_the_eleven_maguyva_tools_over_stdio(ws):
    server = ws.tools.mcp_servers["maguyva"]
    assert set(server.tools) == MAGUYVA_TOOLS  # the eleven tools test_mcp_server.py lists
    # the server is pinned to the project Claude Code opened, wherever it starts the process
    assert (server.transport.type, server.transport.command, server.transport.args) == (
        "stdio",
        "orkestra",
        ["code", "serve", "--repo", "${CLAUDE_PROJECT_DIR:-.}"],
    )
    assert "find_symbol" in server.guide
    assert "intelligent_search" in server.guide


def test_decision_records_cite_files_that_exist(ws):
    assert len(ws.decisions) >= 5
    missing = [(d.id, f) for d in ws.decisions.values() for f in d.files if not (REPO / f).exists()]
    assert missing == []


def test_deprecated_ground_truth_points_to_a_current_one(ws):
    truths = {gt.id: gt for _, gt in ws.all_truths()}
    deprecated = [gt for gt in truths.values() if gt.status == "deprecated"]
    assert deprecated
    assert all(truths[gt.superseded_by].status == "current" for gt in deprecated)
    assert sum(gt.status == "current" for gt in truths.values()) >= 10


def test_domain_folders_follow_the_four_file_pattern(ws):
    complete = [d.name for d in ws.domains if len(d.files) == 4]
    assert len(complete) >= 3
    assert len(complete) == len(ws.domains)


def test_skill_sections_helper_reports_every_registry_skill_complete():
    script = SKILL_SCRIPTS / "skill-authoring-workflow" / "scripts" / "check_sections.py"
    skills = sorted(str(p) for p in (REPO / "registries" / "skills").rglob("SKILL.md"))
    result = subprocess.run([sys.executable, str(script), *skills], capture_output=True, text=True)
    assert (result.returncode, result.stdout) == (0, "")


def test_tests_bundled_with_skill_scripts_pass():
    bundled = sorted(str(p) for p in (REPO / "registries" / "skills").rglob("scripts/test_*.py"))
    assert len(bundled) == 2
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *bundled],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout[-2000:]


def test_system_status_counts_match_the_registries(ws):
    result = run_cli("system", "status", cwd=REPO)
    status = json.loads(result.stdout)
    assert (status["agents"], status["skills_internal"], status["commands"]) == (
        len(ws.agents),
        len(ws.skills),
        len(ws.commands),
    )
