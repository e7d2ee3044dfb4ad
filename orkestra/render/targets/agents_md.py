"""The ``agents-md`` target: ``AGENTS.md`` (Codex, Cursor, Copilot, Gemini CLI, …) and Codex's project
``.codex/config.toml``."""

from __future__ import annotations

from orkestra.render.targets.common import Rendered, instruction_sources, project_markdown
from orkestra.render.targets.mcp import codex_toml, servers
from orkestra.workspace.load import Workspace


def agents_md_files(ws: Workspace, render) -> list[Rendered]:
    """AGENTS.md (Codex, Cursor, Copilot, Gemini CLI, …) and Codex's project ``.codex/config.toml``."""
    files: list[Rendered] = []
    text = project_markdown(ws, render, "agents-md")
    if text:
        files.append(("AGENTS.md", text, instruction_sources(ws, "agents-md")))
    entries = servers(ws)
    if entries:
        files.append((".codex/config.toml", codex_toml(entries), ("registries/tools.yaml",)))
    return files
