"""What several render targets share: the rendered-file tuple, repo-relative joins, JSON and
Markdown-with-frontmatter text, the project-wide and path-scoped instructions, and the agent roster."""

from __future__ import annotations

import json
from collections.abc import Callable

from orkestra.workspace.compose import ESSENTIAL_COMMANDS
from orkestra.workspace.load import Workspace

Rendered = tuple[str, "str | bytes", tuple[str, ...]]


def join(*parts: str) -> str:
    """Repo-relative POSIX path of the non-empty ``parts``."""
    return "/".join(p.strip("/") for p in parts if p.strip("/"))


def to_json(data: dict) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def instructions(ws: Workspace, target: str, project_wide: bool) -> list:
    return [
        i
        for _, i in sorted(ws.instructions.items())
        if i.renders_to(target) and i.project_wide == project_wide
    ]


def roster_of(ws: Workspace) -> list[dict]:
    """The agent roster for AGENTS.md-style files; empty unless the workspace has an orchestrator."""
    active = [a for _, a in sorted(ws.agents.items()) if a.status == "active"]
    if not ws.config.agents_md_roster or not any(a.orchestrator for a in active):
        return []
    return [
        {"name": a.name, "description": " ".join(a.description.split()), "orchestrator": a.orchestrator}
        for a in active
    ]


def project_markdown(ws: Workspace, render, target: str) -> str:
    """Project-wide instructions (verbatim, by name), then the roster and registry commands."""
    roster = roster_of(ws)
    bodies = [i.body.strip() for i in instructions(ws, target, True)]
    if not bodies and not roster:
        return ""
    return render(
        "agents.md.j2",
        {
            "instructions": bodies,
            "roster": roster,
            "project": ws.metadata.project or ws.config.project,
            "commands": [{"command": c, "purpose": p} for c, p in ESSENTIAL_COMMANDS],
        },
    )


def instruction_sources(ws: Workspace, target: str) -> tuple[str, ...]:
    return tuple(i.source for i in instructions(ws, target, True)) or ("orkestra.yaml",)


def markdown(render, front: dict, body: str) -> str:
    return render("verbatim.md.j2", {"frontmatter": front, "body": body.strip()}) if front else body.strip()


def scoped_rule_files(
    ws: Workspace, render, target: str, folder: str, suffix: str, scope: Callable[[list[str]], dict]
) -> list[Rendered]:
    """``<folder>/<name><suffix>`` per path-scoped instruction of ``target``: its body under a frontmatter
    of its description, then ``scope(globs)`` (the target's own key for the paths it applies to)."""
    files: list[Rendered] = []
    for rule in instructions(ws, target, False):
        front = scope(rule.glob_list) if rule.glob_list else {}
        if rule.front.description:
            front = {"description": rule.front.description, **front}
        files.append((f"{folder}/{rule.name}{suffix}", markdown(render, front, rule.body), (rule.source,)))
    return files


def agent_source(ws: Workspace, name: str) -> tuple[str, ...]:
    origin = ws.origins.get(("agent", name))
    return (origin.doc.path,) if origin else ()
