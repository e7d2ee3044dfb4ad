"""Every client's MCP configuration from the one server list (``targets.claude.mcp_servers``, the
``.mcp.json`` form): Cursor's ``.cursor/mcp.json``, VS Code's ``.vscode/mcp.json`` and Codex's
``.codex/config.toml``, with Claude Code's variables rewritten into each client's syntax."""

from __future__ import annotations

import re

import tomli_w

from orkestra.render.targets.claude import mcp_servers
from orkestra.workspace.load import Workspace

CLAUDE_PROJECT_VARS = ("${CLAUDE_PROJECT_DIR:-.}", "${CLAUDE_PROJECT_DIR}")
_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}")


def servers(ws: Workspace) -> dict[str, dict]:
    """The one MCP server list every target's configuration is built from (Claude Code form)."""
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
