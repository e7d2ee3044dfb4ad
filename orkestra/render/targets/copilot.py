"""The ``copilot`` target: ``.github/copilot-instructions.md``, path-scoped instructions, custom agents
(``.github/agents/``, tools as Copilot's aliases) and ``.vscode/mcp.json``."""

from __future__ import annotations

from orkestra.render.targets.claude import agent_markdown
from orkestra.render.targets.common import (
    Rendered,
    agent_source,
    instruction_sources,
    markdown,
    project_markdown,
    scoped_rule_files,
    to_json,
)
from orkestra.render.targets.mcp import servers, vscode_mcp
from orkestra.workspace.compose import agent_tools
from orkestra.workspace.load import Workspace

# Claude Code tool names -> GitHub Copilot custom-agent tool aliases
# (docs.github.com/copilot/reference/custom-agents-configuration, "Tool aliases").
COPILOT_TOOLS = {
    "Bash": "execute",
    "Read": "read",
    "NotebookRead": "read",
    "Edit": "edit",
    "MultiEdit": "edit",
    "Write": "edit",
    "NotebookEdit": "edit",
    "Grep": "search",
    "Glob": "search",
    "Agent": "agent",
    "Task": "agent",
    "WebFetch": "web",
    "WebSearch": "web",
    "TodoWrite": "todo",
}


def copilot_files(ws: Workspace, render) -> list[Rendered]:
    """``.github/copilot-instructions.md``, ``.github/instructions/*.instructions.md``,
    ``.github/agents/<name>.agent.md`` and ``.vscode/mcp.json``."""
    from orkestra.workspace.source import split_frontmatter

    files: list[Rendered] = []
    text = project_markdown(ws, render, "copilot")
    if text:
        files.append((".github/copilot-instructions.md", text, instruction_sources(ws, "copilot")))
    files += scoped_rule_files(
        ws,
        render,
        "copilot",
        ".github/instructions",
        ".instructions.md",
        lambda globs: {"applyTo": ",".join(globs)},
    )
    mcp_names = set(servers(ws))
    for name, agent in sorted(ws.agents.items()):
        if agent.status != "active":
            continue
        _, body = split_frontmatter(agent_markdown(ws, agent, render, ws.config.paths.decisions_digest), name)
        front: dict = {"name": name, "description": " ".join(agent.description.split())}
        tools = copilot_tools(agent_tools(agent), mcp_names)
        if tools:
            front["tools"] = tools
        files.append(
            (f".github/agents/{name}.agent.md", markdown(render, front, body), agent_source(ws, name))
        )
    entries = servers(ws)
    if entries:
        files.append((".vscode/mcp.json", to_json(vscode_mcp(entries)), ("registries/tools.yaml",)))
    return files


def copilot_tools(tools: tuple[str, ...], mcp_names: set[str]) -> list[str]:
    """Claude Code tool names as Copilot aliases; ``mcp__server__tool`` becomes ``server/tool``."""
    out: list[str] = []
    for tool in tools:
        base = tool.split("(", 1)[0].strip()
        parts = base.split("__")
        if parts[0] == "mcp" and len(parts) >= 2 and parts[1] in mcp_names:
            alias = f"{parts[1]}/{parts[2] if len(parts) > 2 else '*'}"
        else:
            alias = COPILOT_TOOLS.get(base)
        if alias and alias not in out:
            out.append(alias)
    return out
