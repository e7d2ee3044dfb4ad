"""The ``agent-skills`` target: the open agent-skills tree ``.agents/skills/<name>/``."""

from __future__ import annotations

from orkestra.render.targets.claude import skill_files
from orkestra.render.targets.common import Rendered
from orkestra.workspace.load import Workspace


def agent_skills_files(ws: Workspace, render) -> list[Rendered]:
    """The open agent-skills tree ``.agents/skills/<name>/`` (SKILL.md and its assets)."""
    return [(rel, content, sources) for rel, content, sources, _ in skill_files(ws, render, ".agents/skills")]
