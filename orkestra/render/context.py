"""Template contexts: composed registries → plain JSON-dumpable dicts; pure.

Frontmatter is built here as a dict and serialised by a real YAML dumper in the template
(``| frontmatter``), so nothing a registry author writes can break the YAML.
"""

from __future__ import annotations

from collections import defaultdict

from orkestra.workspace import models as m
from orkestra.workspace.compose import ComposedAgent
from orkestra.workspace.load import TruthsRegistry

TRUTH_STATUSES = ("current", "tentative", "deprecated")


def _tool_string(tools: list[str] | tuple[str, ...], sep: str) -> str:
    """Claude Code's tool-list string; comma form when a tool pattern itself holds a space."""
    return (", " if any(" " in tool for tool in tools) else sep).join(tools)


def agent_context(composed: ComposedAgent, digest_path: str) -> dict:
    agent = composed.agent
    front: dict = {"name": agent.name, "description": agent.description.strip()}
    if composed.tools:
        front["tools"] = ", ".join(composed.tools)
    elif not composed.is_orchestrator:
        front["disallowedTools"] = "Agent, Task"  # inheriting every tool must not include delegation
    front["model"] = agent.model
    if agent.color:
        front["color"] = agent.color
    if agent.permission_mode:
        front["permissionMode"] = agent.permission_mode
    if agent.max_turns:
        front["maxTurns"] = agent.max_turns
    return {
        "frontmatter": front,
        "name": agent.name,
        "description": agent.description.strip(),
        "orchestrator": composed.is_orchestrator,
        "identities": [{"name": p.name, "prompt": p.primitive.prompt.strip()} for p in composed.identities],
        "mindset": _persona(composed.mindset),
        "style": _persona(composed.style),
        "values": [{"title": v.title, "text": v.text.strip()} for v in composed.values],
        "instructions": agent.instructions.strip(),
        "skills": [
            {"name": r.skill.name, "description": " ".join(r.skill.metadata.description.split())}
            for r in composed.skills
        ],
        "tool_guides": [{"server": g.server, "text": g.text} for g in composed.tool_guides],
        "knowledge": list(composed.knowledge),
        "decision_domains": list(composed.decision_domains),
        "decisions_digest": digest_path if composed.decision_domains else "",
        "specialists": [
            {"name": a.name, "description": " ".join(a.description.split())} for a in composed.specialists
        ],
        "commands": [{"command": c, "purpose": p} for c, p in composed.commands],
    }


def verbatim_agent_context(agent: m.Agent, tools: tuple[str, ...]) -> dict:
    """An agent with its own ``prompt``: only the frontmatter keys it declares, the body as written."""
    front: dict = {"name": agent.name, "description": agent.description.strip()}
    if tools:
        front["tools"] = ", ".join(tools)
    if "model" in agent.model_fields_set:
        front["model"] = agent.model
    for key, attr in (("color", "color"), ("permissionMode", "permission_mode"), ("maxTurns", "max_turns")):
        if getattr(agent, attr) is not None:
            front[key] = getattr(agent, attr)
    front.update(agent.frontmatter)
    return {"frontmatter": front, "body": agent.prompt.strip()}


def _persona(persona) -> dict | None:
    return {"name": persona.name, "prompt": persona.primitive.prompt.strip()} if persona else None


def skill_context(skill: m.Skill) -> dict:
    meta = skill.metadata
    metadata = {
        "tier": meta.layer,
        "type": meta.type,
        "semantic_folder": meta.semantic_folder,
        "source": meta.source,
        "ref": skill.ref,
        "last_updated": meta.last_updated,
    }
    if meta.scope:
        metadata["scope"] = meta.scope
    if skill.provider:
        metadata["provider"] = skill.provider
    if skill.frontmatter.tags:
        metadata["tags"] = ", ".join(skill.frontmatter.tags)
    if meta.requires:
        metadata["requires"] = ", ".join(meta.requires)
    if meta.source == "imported":  # the team's own frontmatter, as written; tiers stay in the registry
        front = {"name": skill.name, "description": meta.description, **skill.frontmatter.extra}
        return {"frontmatter": front, "body": skill.body.strip()}
    front: dict = {"name": skill.name, "description": " ".join(meta.description.split())}
    if meta.license:
        front["license"] = meta.license
    if meta.compatibility:
        front["compatibility"] = meta.compatibility
    front["metadata"] = metadata
    if skill.frontmatter.allowed_tools:
        front["allowed-tools"] = _tool_string(skill.frontmatter.allowed_tools, " ")
    front.update(skill.frontmatter.extra)
    return {"frontmatter": front, "body": skill.body.strip()}


def command_context(name: str, command: m.Command) -> dict:
    front: dict = {"description": " ".join(command.description.split())} if command.description else {}
    if command.argument_hint:
        front["argument-hint"] = command.argument_hint
    if command.allowed_tools:
        front["allowed-tools"] = _tool_string(command.allowed_tools, ", ")
    if command.model:
        front["model"] = command.model
    front.update(command.extra)
    return {"frontmatter": front, "name": name, "body": command.body.strip()}


def truths_context(registry: TruthsRegistry) -> dict:
    """Statements grouped by status (render settings order), then by the first matching render group."""
    meta = registry.data.metadata
    statuses = [
        s
        for s in TRUTH_STATUSES
        if s in meta.render.include_statuses or (s == "deprecated" and meta.render.show_deprecated)
    ]
    sections = []
    for status in statuses:
        truths = [gt for gt in registry.data.statements if gt.status == status]
        if not truths:
            continue
        groups: dict[str, list] = {g.title: [] for g in meta.render.groups}
        other: list = []
        for gt in sorted(truths, key=lambda t: t.id):
            target = next((groups[g.title] for g in meta.render.groups if set(g.tags) & set(gt.tags)), other)
            target.append(_truth(gt))
        named = [{"title": title, "truths": items} for title, items in groups.items() if items]
        if other:
            named.append({"title": "Other" if named else "", "truths": other})
        sections.append({"status": status, "count": len(truths), "groups": named})
    return {
        "title": meta.title,
        "summary": meta.summary.strip(),
        "owner": meta.owner,
        "last_updated": meta.last_updated,
        "source": registry.path,
        "sections": sections,
    }


def _truth(gt: m.GroundTruth) -> dict:
    return {
        "id": gt.id,
        "statement": " ".join(gt.statement.split()),
        "rationale": " ".join(gt.rationale.split()),
        "evidence": list(gt.evidence),
        "tags": list(gt.tags),
        "last_verified": gt.last_verified or "",
        "do": list(gt.agent_guidance.do),
        "avoid": list(gt.agent_guidance.avoid),
        "superseded_by": gt.superseded_by or "",
    }


def decisions_context(decisions: list[m.Decision], registry: m.DecisionRegistry, source: str) -> dict:
    """Active decisions grouped by domain (sorted), each with what an agent needs to act on it."""
    by_domain: dict[str, list] = defaultdict(list)
    for decision in sorted(decisions, key=lambda d: d.id):
        if decision.status != "active":
            continue
        by_domain[decision.domain].append(
            {
                "id": decision.id,
                "title": decision.title.strip(),
                "summary": " ".join(decision.summary.split()),
                "do": list(decision.agent_guidance.do),
                "avoid": list(decision.agent_guidance.avoid),
                "files": list(decision.files),
                "related": list(decision.related),
            }
        )
    domains = []
    for name in sorted(by_domain):
        entry = registry.domains.get(name)
        domains.append(
            {
                "name": name,
                "code": entry.code if entry else "",
                "description": entry.description.strip() if entry else "",
                "decisions": by_domain[name],
            }
        )
    return {"source": source, "count": sum(len(d["decisions"]) for d in domains), "domains": domains}


def mcp_config(tools: m.ToolsFile) -> dict:
    """``.mcp.json``: every active MCP server with a transport, ``type`` always written."""
    servers = {}
    for name, server in sorted(tools.mcp_servers.items()):
        transport = server.transport
        if server.status != "active" or not (transport.command or transport.url):
            continue
        entry: dict = {"type": transport.type}
        if transport.type == "stdio":
            entry["command"] = transport.command
            entry["args"] = list(transport.args)
        else:
            entry["url"] = transport.url
        if transport.env:
            entry["env"] = dict(sorted(transport.env.items()))
        servers[name] = entry
    return {"mcpServers": servers}
