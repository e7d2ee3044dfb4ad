"""Skill lifecycle checks: deprecation, replacements and ``requires`` dependencies.

Errors: ``replaced_by`` or ``requires`` naming no skill; ``requires`` cycles. Warnings: an
agent or scope that still lists a deprecated skill; a replacement or requirement that is
itself deprecated; a skill an agent loads whose requirement that agent does not load.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from orkestra.errors import did_you_mean

if TYPE_CHECKING:
    from orkestra.errors import Diagnostic
    from orkestra.workspace import Workspace
    from orkestra.workspace.models import Skill


def check_lifecycle(ws: Workspace) -> list[Diagnostic]:
    """Diagnostics for deprecated skills still listed by agents and unmet ``requires``."""
    return [*_skill_references(ws), *_cycles(ws), *_agents(ws), *_scopes(ws)]


def _hint(name: str, ws: Workspace) -> str:
    """Close matches among refs (when ``name`` looks like a ref) or rendered names."""
    candidates = [s.ref for s in ws.skills.values()] if "/" in name else list(ws.skills)
    close = did_you_mean(name, candidates)
    return f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""


def _replacement(skill: Skill) -> str:
    return f"; use {skill.metadata.replaced_by!r} instead" if skill.metadata.replaced_by else ""


def _skill_references(ws: Workspace) -> list[Diagnostic]:
    by_ref = ws.skill_by_ref()
    out = []
    for name, skill in sorted(ws.skills.items()):
        replaced_by = skill.metadata.replaced_by
        if replaced_by is not None:
            target = by_ref.get(replaced_by)
            loc = ("metadata", "replaced_by")
            if target is None:
                out.append(
                    ws.diagnostic(
                        "skill",
                        name,
                        loc,
                        f"unknown skill {replaced_by!r}{_hint(replaced_by, ws)}",
                        code="unknown-ref",
                    )
                )
            elif target.name == name:
                out.append(
                    ws.diagnostic("skill", name, loc, "a skill cannot replace itself", code="lifecycle")
                )
            elif target.metadata.status == "deprecated":
                out.append(
                    ws.diagnostic(
                        "skill",
                        name,
                        loc,
                        f"replacement {replaced_by!r} is deprecated too",
                        severity="warning",
                        code="lifecycle",
                    )
                )
        for index, required in enumerate(skill.metadata.requires):
            target = by_ref.get(required)
            loc = ("metadata", "requires", index)
            if target is None:
                out.append(
                    ws.diagnostic(
                        "skill",
                        name,
                        loc,
                        f"requires unknown skill {required!r}{_hint(required, ws)}",
                        code="unknown-ref",
                    )
                )
            elif target.metadata.status == "deprecated":
                out.append(
                    ws.diagnostic(
                        "skill",
                        name,
                        loc,
                        f"requires deprecated skill {required!r}{_replacement(target)}",
                        severity="warning",
                        code="lifecycle",
                    )
                )
    return out


def _cycles(ws: Workspace) -> list[Diagnostic]:
    """One error per ``requires`` cycle, reported on its alphabetically first skill."""
    by_ref = ws.skill_by_ref()
    graph = {
        name: [by_ref[r].name for r in skill.metadata.requires if r in by_ref]
        for name, skill in ws.skills.items()
    }
    seen_cycles: set[frozenset[str]] = set()
    out = []
    state: dict[str, int] = {}  # 1 on the stack, 2 done

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in graph.get(node, []):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt) :]
                key = frozenset(cycle)
                if key not in seen_cycles:
                    seen_cycles.add(key)
                    first = min(cycle)
                    start = cycle.index(first)
                    path = cycle[start:] + cycle[:start] + [first]
                    out.append(
                        ws.diagnostic(
                            "skill",
                            first,
                            ("metadata", "requires"),
                            f"requires cycle: {' -> '.join(path)}",
                            code="cycle",
                        )
                    )
            elif state.get(nxt) is None:
                visit(nxt, stack)
        stack.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [])
    return out


def _agents(ws: Workspace) -> list[Diagnostic]:
    from orkestra.workspace.compose import resolve_skills

    by_ref = ws.skill_by_ref()
    out = []
    for agent_name, agent in sorted(ws.agents.items()):
        if agent.status == "deprecated":
            continue
        out += _lists_deprecated(ws, by_ref, "agent", agent_name, "skills", agent.skills)
        loaded = {r.skill.name for r in resolve_skills(ws, agent)}
        for name in sorted(loaded):
            for required in ws.skills[name].metadata.requires:
                target = by_ref.get(required)
                if target is not None and target.name not in loaded:
                    out.append(
                        ws.diagnostic(
                            "agent",
                            agent_name,
                            ("skills",),
                            f"skill {name!r} requires {required!r}, which this agent does not load",
                            severity="warning",
                            code="requires",
                        )
                    )
    return out


def _scopes(ws: Workspace) -> list[Diagnostic]:
    by_ref = ws.skill_by_ref()
    out = []
    for scope_name, scope in sorted(ws.scopes.items()):
        out += _lists_deprecated(ws, by_ref, "scope", scope_name, "primary_skills", scope.primary_skills)
    return out


def _lists_deprecated(
    ws: Workspace, by_ref: dict[str, Skill], kind: str, owner: str, field: str, refs: list[str]
) -> list[Diagnostic]:
    """A warning for each deprecated skill that ``refs`` (the ``field`` of agent or scope ``owner``) lists."""
    out = []
    for index, ref in enumerate(refs):
        skill = by_ref.get(ref)
        if skill is not None and skill.metadata.status == "deprecated":
            out.append(
                ws.diagnostic(
                    kind,
                    owner,
                    (field, index),
                    f"lists deprecated skill {ref!r}{_replacement(skill)}",
                    severity="warning",
                    code="deprecated",
                )
            )
    return out
