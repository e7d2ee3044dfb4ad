"""Composition: which skills an agent gets and why; flat orchestration."""

from __future__ import annotations

from conftest import REPO

from orkestra.workspace import Workspace
from orkestra.workspace.compose import compose_agent, resolve_skills

RICH = REPO / "tests/fixtures/workspaces/rich"


def reasons(ws, agent: str) -> list[tuple[str, str, str]]:
    return [(r.skill.name, r.reason, r.via) for r in resolve_skills(ws, ws.agents[agent])]


def test_skills_are_universal_then_scope_then_explicit():
    ws = Workspace.load(RICH)
    assert reasons(ws, "architecture-advisor") == [
        ("evidence-based-completion", "universal", ""),
        ("test-first-discipline", "universal", ""),
        ("schema-migration-workflow", "scope", "database"),
        ("maguyva-quickstart", "explicit", ""),
    ]


def test_dormant_scope_loads_registered_skills_only_for_agents_declaring_it():
    ws = Workspace.load(RICH)
    assert ("genome-alignment", "dormant-scope", "bioinformatics") in reasons(ws, "bio-analyst")
    assert all(name != "genome-alignment" for name, _, _ in reasons(ws, "architecture-advisor"))


def test_vendor_skill_resolves_by_its_vendor_ref():
    ws = Workspace.load(RICH)
    assert ("acme-deploy-preview", "scope", "security") in reasons(ws, "security-guardian")


def test_deprecated_skill_is_never_resolved():
    ws = Workspace.load(RICH)
    assert all("retired-review" not in [n for n, _, _ in reasons(ws, agent)] for agent in ws.agents)


def test_only_the_orchestrator_gets_commands_and_the_specialist_list():
    ws = Workspace.load(RICH)
    orchestrator = compose_agent(ws, ws.agents["orchestrator"])
    specialist = compose_agent(ws, ws.agents["security-guardian"])
    assert [a.name for a in orchestrator.specialists] == [
        "architecture-advisor",
        "bio-analyst",
        "security-guardian",
    ]
    assert orchestrator.commands
    assert not specialist.commands
    assert not specialist.specialists
    assert "Agent" in orchestrator.tools
    assert "Agent" not in specialist.tools


def test_knowledge_includes_context_files_and_domain_patterns():
    ws = Workspace.load(RICH)
    composed = compose_agent(ws, ws.agents["architecture-advisor"])
    assert composed.knowledge == (
        "ai_assets/reference/ground_truths.yaml",
        "ai_assets/domains/development/architecture/patterns.md",
        "ai_assets/domains/development/architecture/anti-patterns.md",
    )
    assert composed.decision_domains == ("pipeline",)
    assert [g.server for g in composed.tool_guides] == ["maguyva"]
