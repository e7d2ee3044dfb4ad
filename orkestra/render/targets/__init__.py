"""Files for every runtime in ``orkestra.yaml`` ``targets``, from the one loaded workspace; pure.

Each target gets its runtime's own layout and MCP configuration, and every MCP configuration
comes from the same server list (``context.mcp_config(ws.tools)``, the one ``.mcp.json`` is
rendered from), so a server added to the tools registry reaches every runtime. Formats and
their sources: docs/targets.md. One module per target; ``common`` and ``mcp`` hold what they share.
"""

from __future__ import annotations

from orkestra.render.targets.agent_skills import agent_skills_files
from orkestra.render.targets.agents_md import agents_md_files
from orkestra.render.targets.claude import claude_files
from orkestra.render.targets.common import Rendered
from orkestra.render.targets.copilot import copilot_files
from orkestra.render.targets.cursor import cursor_files
from orkestra.render.targets.plugin import plugin_files
from orkestra.workspace.load import Workspace

# Where the targets write (besides the output folder): the only other places sync may prune a file.
TARGET_FILES_AT = (
    "CLAUDE.md",
    "AGENTS.md",
    ".codex/config.toml",
    ".cursor/mcp.json",
    ".vscode/mcp.json",
    ".github/copilot-instructions.md",
)
TARGET_FOLDERS = (".agents/skills/", ".cursor/rules/", ".github/instructions/", ".github/agents/")


def target_roots(ws: Workspace) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(single files, folder prefixes) that the output targets own, the plugin's marketplace included."""
    return TARGET_FILES_AT, (*TARGET_FOLDERS, ws.config.paths.marketplace.strip("/") + "/")


TARGET_FILES = {
    "agents-md": agents_md_files,
    "agent-skills": agent_skills_files,
    "cursor": cursor_files,
    "copilot": copilot_files,
}


def target_outputs(ws: Workspace, render) -> list[Rendered]:
    """Every file of every target in ``orkestra.yaml`` except the ``.claude/`` tree itself."""
    files: list[Rendered] = []
    targets = ws.config.targets
    if "claude" in targets:
        files += claude_files(ws, render)
    for target in targets:
        if target in TARGET_FILES:
            files += TARGET_FILES[target](ws, render)
    if "plugin" in targets:
        files += plugin_files(ws, render, ws.config.paths.marketplace)
    return files
