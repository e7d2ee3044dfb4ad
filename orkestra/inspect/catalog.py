"""Workspace → catalog: the JSON-ready records every inspection command reads.

The catalog is a dict of sections (``status``, ``health``, ``agents``, ``agent_rows``,
``skills``, ``decisions``, ``truths``, ``packages``). It is built from a loaded Workspace once and
cached (orkestra.inspect.cache) so later commands answer without loading YAML or
importing pydantic; ``watch.catalog_watch`` lists every path the sections depend on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from orkestra.errors import OrkestraError
from orkestra.inspect.packages import find_packages
from orkestra.inspect.views import agent_row

if TYPE_CHECKING:
    from orkestra.workspace import Workspace


def build_catalog(ws: Workspace) -> dict[str, Any]:
    """Every section of the catalog for ``ws``."""
    from orkestra.workspace.compose import resolve_skills

    resolved = {name: resolve_skills(ws, agent) for name, agent in ws.agents.items()}
    agents = [_agent(ws, agent, resolved[name]) for name, agent in sorted(ws.agents.items())]
    primary_of: dict[str, set[str]] = {}  # skill ref or name -> scopes listing it as primary
    for scope_name, scope in ws.scopes.items():
        for ref in scope.primary_skills:
            primary_of.setdefault(ref, set()).add(scope_name)
    used_by: dict[str, list[str]] = {}
    for name in sorted(resolved):
        for item in resolved[name]:
            used_by.setdefault(item.skill.name, []).append(name)
    return {
        "status": status_counts(ws),
        "health": registry_health(ws),
        "agents": agents,
        "agent_rows": [agent_row(agent) for agent in agents],
        "skills": [
            _skill(skill, _scopes_of(ws, skill, primary_of), used_by.get(name, []))
            for name, skill in sorted(ws.skills.items())
        ],
        "decisions": [_decision(ws, d) for d in sorted(ws.decisions.values(), key=_decision_order)],
        "truths": [_truth(reg, gt) for reg, gt in sorted(ws.all_truths(), key=lambda rt: rt[1].id)],
        "packages": find_packages(ws.root, ws.config.exclude, ws.config.project),
        # registry files that failed to parse or match their schema: what every listing is missing
        "load_errors": [str(d) for d in ws.diagnostics if d.severity == "error"],
    }


def status_counts(ws: Workspace) -> dict[str, int]:
    """Level-1 counts (SPEC §5)."""
    vendor = sum(1 for s in ws.skills.values() if s.provider is not None)
    return {
        "agents": len(ws.agents),
        "skills_internal": len(ws.skills) - vendor,
        "skills_vendor": vendor,
        "skills_total": len(ws.skills),
        "commands": len(ws.commands),
        "truths": len(ws.all_truths()),
        "decisions": len(ws.decisions),
        "scopes": len(ws.scopes),
        "dormant_scopes": sum(1 for s in ws.scopes.values() if s.is_dormant),
    }


def registry_health(ws: Workspace) -> dict[str, Any]:
    """Validation counts and whether ``.claude/`` is in sync with the registries."""
    from orkestra.render.state import sync_status
    from orkestra.validation import validate_workspace

    diagnostics = set(ws.diagnostics) | set(validate_workspace(ws))
    errors = sorted(str(d) for d in diagnostics if d.severity == "error")
    try:
        sync = sync_status(ws).to_dict()
    except OrkestraError as exc:  # e.g. an unreadable manifest: reported, and listings still work
        sync = {
            "in_sync": False,
            "reason": str(exc),
            "changed_inputs": True,
            "edited_outputs": [],
            "missing_outputs": [],
        }
    from orkestra.why.stale import STALE_CODES

    stale = sorted(str(d) for d in diagnostics if d.code in STALE_CODES)
    return {
        "validation": {
            "errors": len(errors),
            "warnings": len(diagnostics) - len(errors),
            "first_errors": errors[:5],
        },
        "sync": sync,
        "stale_facts": {"count": len(stale), "first": stale[:5]},  # orkestra.why.stale: re-verify these
    }


# --- records --------------------------------------------------------------------------------


def _source(ws: Workspace, kind: str, key: str) -> str:
    """The file an entity was loaded from (no line: locating would re-parse the file)."""
    origin = ws.origins.get((kind, key))
    return origin.doc.path if origin else ""


def _agent(ws: Workspace, agent, resolved) -> dict[str, Any]:
    def primitive(table: dict, name: str) -> dict[str, str]:
        entry = table.get(name)
        return {"name": name, "description": entry.description if entry else ""}

    servers = ws.tools.mcp_servers
    return {
        "name": agent.name,
        "category": agent.category,
        "model": agent.model,
        "description": agent.description,
        "status": agent.status,
        "orchestrator": agent.orchestrator,
        "domains": list(agent.domains),
        "scopes": list(agent.scopes),
        "identity": [primitive(ws.identities, name) for name in agent.identity],
        "mindset": primitive(ws.mindsets, agent.mindset),
        "style": primitive(ws.styles, agent.style),
        "skills": [
            {
                "name": r.skill.name,
                "ref": r.skill.ref,
                "tier": r.skill.metadata.layer,
                "reason": r.reason,
                "via": r.via,
            }
            for r in resolved
        ],
        "tool_guides": [
            {"server": name, "guide": servers[name].guide if name in servers else ""}
            for name in agent.tool_guides
        ],
        "tools": {"builtin": list(agent.tools.builtin), "mcp_tools": list(agent.tools.mcp_tools)},
        "context_composition": agent.context_composition.model_dump(),
        "path": _source(ws, "agent", agent.name),
    }


def _scopes_of(ws: Workspace, skill, primary_of: dict[str, set[str]]) -> list[str]:
    """Scopes a skill belongs to: those listing it as primary, and the scope it registers under."""
    own = {skill.metadata.scope} if skill.metadata.scope in ws.scopes else set()
    return sorted(primary_of.get(skill.ref, set()) | primary_of.get(skill.name, set()) | own)


def _skill(skill, scopes: list[str], used_by: list[str]) -> dict[str, Any]:
    meta = skill.metadata
    return {
        "name": skill.name,
        "ref": skill.ref,
        "description": meta.description,
        "type": meta.type,
        "tier": meta.layer,
        "semantic_folder": meta.semantic_folder,
        "source": meta.source,
        "provider": skill.provider,
        "scope": meta.scope,
        "scopes": scopes,
        "status": meta.status,
        "tags": list(skill.frontmatter.tags),
        "allowed_tools": list(skill.frontmatter.allowed_tools),
        "last_updated": meta.last_updated,
        "requires": list(meta.requires),
        "replaced_by": meta.replaced_by,
        "used_by": used_by,
        "path": skill.source_dir,
    }


def _decision_order(decision) -> tuple:
    return (decision.created, decision.id)


def _decision(ws: Workspace, decision) -> dict[str, Any]:
    return {**decision.model_dump(mode="json"), "path": _source(ws, "decision", decision.id)}


def _truth(registry, truth) -> dict[str, Any]:
    package = registry.package_dir
    return {**truth.model_dump(mode="json"), "package": package or ".", "path": registry.path}
