"""Agent composition: identity × mindset × style + values + skills + tool guides; pure.

Nothing here reads files or renders text: ``compose_agent`` gathers everything the agent
template needs from an already loaded (and validated) workspace. Unknown references are
skipped here; ``validate`` is what reports them.
"""

from __future__ import annotations

from dataclasses import dataclass

from orkestra.workspace import models as m
from orkestra.workspace.load import Workspace

# Tools that spawn subagents. Flat orchestration: only the orchestrator may hold them.
DELEGATION_TOOLS = ("Agent", "Task")

# The orchestrator's base instructions list these (command, what it answers).
ESSENTIAL_COMMANDS: tuple[tuple[str, str], ...] = (
    ("orkestra system status", "Is everything healthy? Counts of agents, skills and commands"),
    ("orkestra agents list", "Which specialists exist"),
    ("orkestra agents info NAME", "What a specialist does: domains, skills, tools"),
    ('orkestra skills search "X"', "Find a skill before writing a procedure from scratch"),
    ('orkestra registry decisions search "X"', "Find architectural decisions"),
    ('orkestra registry truths search "X"', "Find ground truths (verified facts)"),
    ('orkestra search "X" --summary', "Search every registry at once"),
    ("orkestra validate", "Check the registries after editing them"),
)


@dataclass(frozen=True, slots=True)
class ResolvedSkill:
    """A skill an agent gets, and why: reason ∈ universal | scope | dormant-scope | explicit."""

    skill: m.Skill
    reason: str
    via: str  # the scope name, or ""


@dataclass(frozen=True, slots=True)
class Persona:
    """One identity, mindset or style primitive as the agent uses it."""

    name: str
    primitive: m.Primitive


@dataclass(frozen=True, slots=True)
class ToolGuide:
    server: str
    text: str


@dataclass(frozen=True, slots=True)
class ComposedAgent:
    """Everything the agent template needs, in render order."""

    agent: m.Agent
    identities: tuple[Persona, ...]
    mindset: Persona | None
    style: Persona | None
    values: tuple[m.Value, ...]
    skills: tuple[ResolvedSkill, ...]
    tools: tuple[str, ...]
    tool_guides: tuple[ToolGuide, ...]
    knowledge: tuple[str, ...]  # repo-relative files the agent loads before exploring code
    decision_domains: tuple[str, ...]  # domains of active decisions relevant to the agent
    specialists: tuple[m.Agent, ...]  # orchestrator only: who it delegates to
    commands: tuple[tuple[str, str], ...]  # orchestrator only: essential CLI commands

    @property
    def is_orchestrator(self) -> bool:
        return self.agent.orchestrator


@dataclass(frozen=True, slots=True)
class SkillIndex:
    """Active skills indexed once per workspace (memoised), so resolving for many agents stays linear."""

    by_ref: dict[str, m.Skill]
    universal: tuple[m.Skill, ...]  # K0, by name
    by_scope: dict[str, tuple[m.Skill, ...]]  # registered scope -> skills, by name

    @classmethod
    def of(cls, ws: Workspace) -> SkillIndex:
        active = sorted(
            (s for s in ws.skills.values() if s.metadata.status != "deprecated"), key=lambda s: s.name
        )
        by_scope: dict[str, list[m.Skill]] = {}
        for skill in active:
            if skill.metadata.scope:
                by_scope.setdefault(skill.metadata.scope, []).append(skill)
        by_ref = {
            ref: skill for ref, skill in ws.skill_by_ref().items() if skill.metadata.status != "deprecated"
        }
        return cls(
            by_ref,
            tuple(s for s in active if s.metadata.layer == "K0"),
            {scope: tuple(skills) for scope, skills in by_scope.items()},
        )


def resolve_skills(ws: Workspace, agent: m.Agent) -> list[ResolvedSkill]:
    """An agent's skills: K0 universal, then scope primaries, dormant-scope skills, explicit ones.

    The first reason found wins for a skill reachable several ways; deprecated skills are
    never resolved.
    """
    index = ws.memo("skill_index", lambda: SkillIndex.of(ws))
    resolved: dict[str, ResolvedSkill] = {}

    def add(skill: m.Skill | None, reason: str, via: str = "") -> None:
        if skill is not None and skill.name not in resolved:
            resolved[skill.name] = ResolvedSkill(skill, reason, via)

    for skill in index.universal:
        add(skill, "universal")
    for scope_name in agent.scopes:
        scope = ws.scopes.get(scope_name)
        if scope is None:
            continue
        for ref in scope.primary_skills:
            add(index.by_ref.get(ref), "scope", scope_name)
        if scope.is_dormant:
            for skill in index.by_scope.get(scope_name, ()):
                add(skill, "dormant-scope", scope_name)
    for ref in agent.skills:
        add(index.by_ref.get(ref), "explicit")
    return list(resolved.values())


def agent_tools(agent: m.Agent) -> tuple[str, ...]:
    """Built-in then MCP tools, deduplicated, declaration order kept."""
    return tuple(dict.fromkeys([*agent.tools.builtin, *agent.tools.mcp_tools]))


def _tool_guides(ws: Workspace, agent: m.Agent) -> tuple[ToolGuide, ...]:
    """Guides of the servers the agent names in ``tool_guides`` and of servers whose tools it lists."""
    servers = list(agent.tool_guides)
    for tool in agent.tools.mcp_tools:
        parts = tool.split("__")
        if len(parts) >= 2 and parts[0] == "mcp":
            servers.append(parts[1])
    guides = []
    for server in dict.fromkeys(servers):
        entry = ws.tools.mcp_servers.get(server)
        if entry is not None and entry.guide.strip():
            guides.append(ToolGuide(server, entry.guide.strip()))
    return tuple(guides)


def decision_domains_for(ws: Workspace, agent: m.Agent) -> tuple[str, ...]:
    """Decision domains with active records that match one of the agent's domains (or its top level)."""
    wanted = {d for domain in agent.domains for d in (domain, domain.split("/")[0])}
    active = ws.memo(
        "active_decision_domains", lambda: {d.domain for d in ws.decisions.values() if d.status == "active"}
    )
    return tuple(sorted(wanted & active))


def _knowledge(ws: Workspace, agent: m.Agent) -> tuple[str, ...]:
    """Declared context files, then patterns/anti-patterns of the agent's domain folders."""
    files = list(agent.context_composition.domain_knowledge)
    by_name = {d.name: d for d in ws.domains}
    for domain in agent.domains:
        folder = by_name.get(domain)
        if folder is not None:
            files.extend(
                folder.files[name] for name in ("patterns.md", "anti-patterns.md") if name in folder.files
            )
    return tuple(dict.fromkeys(files))


def _persona(table: dict[str, m.Primitive], name: str) -> Persona | None:
    primitive = table.get(name)
    return Persona(name, primitive) if primitive is not None else None


def compose_agent(ws: Workspace, agent: m.Agent) -> ComposedAgent:
    """Compose one agent from the workspace's primitives, values, skills, tools and knowledge."""
    identities = tuple(p for p in (_persona(ws.identities, n) for n in agent.identity) if p is not None)
    orchestrator = agent.orchestrator
    specialists = ()
    if orchestrator:
        specialists = tuple(
            a for _, a in sorted(ws.agents.items()) if not a.orchestrator and a.status == "active"
        )
    return ComposedAgent(
        agent=agent,
        identities=identities,
        mindset=_persona(ws.mindsets, agent.mindset),
        style=_persona(ws.styles, agent.style),
        values=tuple(ws.values),
        skills=tuple(resolve_skills(ws, agent)),
        tools=agent_tools(agent),
        tool_guides=_tool_guides(ws, agent),
        knowledge=_knowledge(ws, agent),
        decision_domains=decision_domains_for(ws, agent),
        specialists=specialists,
        commands=ESSENTIAL_COMMANDS if orchestrator else (),
    )
