"""Files for every runtime in ``orkestra.yaml`` ``targets``, from the one loaded workspace; pure.

Each target gets its runtime's own layout and MCP configuration, and every MCP configuration
comes from the same server list (``context.mcp_config(ws.tools)``, the one ``.mcp.json`` is
rendered from), so a server added to the tools registry reaches every runtime. Formats and
their sources: docs/targets.md.
"""

from __future__ import annotations

import json
import re

import tomli_w

from orkestra.workspace.compose import ESSENTIAL_COMMANDS, agent_tools
from orkestra.workspace.load import Workspace

CLAUDE_PROJECT_VARS = ("${CLAUDE_PROJECT_DIR:-.}", "${CLAUDE_PROJECT_DIR}")
_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}")
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

Rendered = tuple[str, "str | bytes", tuple[str, ...]]


def servers(ws: Workspace) -> dict[str, dict]:
    """The one MCP server list every target's configuration is built from (Claude Code form)."""
    from orkestra.render.outputs import mcp_servers

    return mcp_servers(ws)


def _rewrite(value: str, project: str, env: str) -> str:
    """A Claude Code ``.mcp.json`` string in another client's variable syntax."""
    for var in CLAUDE_PROJECT_VARS:
        value = value.replace(var, project)
    return _ENV_REF.sub(lambda m: env.format(m.group(1)), value)


def cursor_mcp(entries: dict[str, dict]) -> dict:
    """``.cursor/mcp.json``: ``mcpServers``; transport inferred from ``command`` / ``url``."""
    out = {}
    for name, entry in entries.items():
        conv = {
            key: _deep(value, "${workspaceFolder}", "${{env:{}}}")
            for key, value in entry.items()
            if key != "type"
        }
        out[name] = conv
    return {"mcpServers": out}


def vscode_mcp(entries: dict[str, dict]) -> dict:
    """``.vscode/mcp.json`` (Copilot in VS Code): ``servers``, ``type`` required."""
    return {
        "servers": {
            name: _deep(entry, "${workspaceFolder}", "${{env:{}}}") for name, entry in entries.items()
        }
    }


def codex_toml(entries: dict[str, dict]) -> str:
    """``.codex/config.toml`` ``[mcp_servers.<name>]`` tables (no ``type``; unknown keys are errors)."""
    tables: dict[str, dict] = {}
    for name, entry in entries.items():
        if "url" in entry:
            table = {"url": _rewrite(entry["url"], ".", "${{{}}}")}
        else:
            table = {
                "command": entry["command"],
                "args": [_rewrite(a, ".", "${{{}}}") for a in entry.get("args", [])],
            }
        env = entry.get("env") or {}
        passed = [k for k, v in env.items() if v in (f"${{{k}}}", f"${{{k}:-}}")]
        fixed = {k: v for k, v in env.items() if k not in passed}
        if fixed:
            table["env"] = fixed
        if passed:
            table["env_vars"] = passed
        tables[name] = table
    return tomli_w.dumps({"mcp_servers": tables}) if tables else ""


def _deep(value, project: str, env: str):
    if isinstance(value, str):
        return _rewrite(value, project, env)
    if isinstance(value, list):
        return [_deep(v, project, env) for v in value]
    if isinstance(value, dict):
        return {k: _deep(v, project, env) for k, v in value.items()}
    return value


def _json(data: dict) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _instructions(ws: Workspace, target: str, project_wide: bool) -> list:
    return [
        i
        for _, i in sorted(ws.instructions.items())
        if i.renders_to(target) and i.project_wide == project_wide
    ]


def _roster(ws: Workspace) -> list[dict]:
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
    roster = _roster(ws)
    bodies = [i.body.strip() for i in _instructions(ws, target, True)]
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


def _instruction_sources(ws: Workspace, target: str) -> tuple[str, ...]:
    return tuple(i.source for i in _instructions(ws, target, True)) or ("orkestra.yaml",)


def claude_files(ws: Workspace, render) -> list[Rendered]:
    """CLAUDE.md (project-wide instructions) and ``.claude/rules/<name>.md`` (path-scoped ones)."""
    files: list[Rendered] = []
    bodies = _instructions(ws, "claude", True)
    if bodies:
        files.append(
            ("CLAUDE.md", "\n\n".join(i.body.strip() for i in bodies), tuple(i.source for i in bodies))
        )
    for rule in _instructions(ws, "claude", False):
        front = {"paths": rule.glob_list} if rule.glob_list else {}
        if rule.front.description:
            front = {"description": rule.front.description, **front}
        files.append(
            (
                f"{ws.config.paths.output}/rules/{rule.name}.md",
                _markdown(render, front, rule.body),
                (rule.source,),
            )
        )
    return files


def _markdown(render, front: dict, body: str) -> str:
    return render("verbatim.md.j2", {"frontmatter": front, "body": body.strip()}) if front else body.strip()


def agents_md_files(ws: Workspace, render) -> list[Rendered]:
    """AGENTS.md (Codex, Cursor, Copilot, Gemini CLI, …) and Codex's project ``.codex/config.toml``."""
    files: list[Rendered] = []
    text = project_markdown(ws, render, "agents-md")
    if text:
        files.append(("AGENTS.md", text, _instruction_sources(ws, "agents-md")))
    entries = servers(ws)
    if entries:
        files.append((".codex/config.toml", codex_toml(entries), ("registries/tools.yaml",)))
    return files


def agent_skills_files(ws: Workspace, render) -> list[Rendered]:
    """The open agent-skills tree ``.agents/skills/<name>/`` (SKILL.md and its assets)."""
    from orkestra.render.outputs import skill_files

    return [(rel, content, sources) for rel, content, sources, _ in skill_files(ws, render, ".agents/skills")]


def cursor_files(ws: Workspace, render) -> list[Rendered]:
    """``.cursor/rules/<name>.mdc`` per instruction and ``.cursor/mcp.json``."""
    files: list[Rendered] = []
    for _, rule in sorted(ws.instructions.items()):
        if not rule.renders_to("cursor"):
            continue
        front: dict = {}
        if rule.front.description:
            front["description"] = rule.front.description
        if rule.front.globs is not None:
            front["globs"] = rule.front.globs
        if rule.front.always_apply is not None:
            front["alwaysApply"] = rule.front.always_apply
        elif not rule.glob_list and not rule.front.description:
            front["alwaysApply"] = (
                True  # a project-wide rule Cursor would otherwise load only when @-mentioned
            )
        files.append((f".cursor/rules/{rule.name}.mdc", _markdown(render, front, rule.body), (rule.source,)))
    entries = servers(ws)
    if entries:
        files.append((".cursor/mcp.json", _json(cursor_mcp(entries)), ("registries/tools.yaml",)))
    return files


def copilot_files(ws: Workspace, render) -> list[Rendered]:
    """``.github/copilot-instructions.md``, ``.github/instructions/*.instructions.md``,
    ``.github/agents/<name>.agent.md`` and ``.vscode/mcp.json``."""
    from orkestra.render.outputs import agent_markdown
    from orkestra.workspace.source import split_frontmatter

    files: list[Rendered] = []
    text = project_markdown(ws, render, "copilot")
    if text:
        files.append((".github/copilot-instructions.md", text, _instruction_sources(ws, "copilot")))
    for rule in _instructions(ws, "copilot", False):
        front = {"applyTo": ",".join(rule.glob_list)} if rule.glob_list else {}
        if rule.front.description:
            front = {"description": rule.front.description, **front}
        files.append(
            (
                f".github/instructions/{rule.name}.instructions.md",
                _markdown(render, front, rule.body),
                (rule.source,),
            )
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
            (f".github/agents/{name}.agent.md", _markdown(render, front, body), _agent_source(ws, name))
        )
    entries = servers(ws)
    if entries:
        files.append((".vscode/mcp.json", _json(vscode_mcp(entries)), ("registries/tools.yaml",)))
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


def _agent_source(ws: Workspace, name: str) -> tuple[str, ...]:
    origin = ws.origins.get(("agent", name))
    return (origin.doc.path,) if origin else ()


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
        from orkestra.plugin import plugin_files

        files += plugin_files(ws, render, ws.config.paths.marketplace)
    return files
