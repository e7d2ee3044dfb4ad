"""The ``plugin`` target: a Claude Code plugin and a marketplace listing it, built from the registries
(docs/targets.md). Layout (FORMATS §7, CC docs ``plugins-reference`` and ``plugin-marketplaces``)::

    <base>/.claude-plugin/marketplace.json        lists the plugin
    <base>/plugins/<name>/.claude-plugin/plugin.json
    <base>/plugins/<name>/{agents,skills,commands}/, hooks/hooks.json, .mcp.json

``plugin_files`` is pure: sync renders it under ``paths.marketplace`` (manifest-owned), and
``orkestra plugin build`` (``orkestra.plugin``) writes the same files to a folder of its own.
"""

from __future__ import annotations

import re

from orkestra.render.targets.claude import agent_markdown, command_markdown, mcp_servers, skill_files
from orkestra.render.targets.common import join, to_json
from orkestra.workspace.load import Workspace

BUILT_BY = "orkestra plugin build"


def plugin_name(ws: Workspace) -> str:
    raw = ws.metadata.project or ws.config.project
    return re.sub(r"[^a-z0-9]+", "-", raw.lower()).strip("-") or "project"


def plugin_version(ws: Workspace) -> str:
    from orkestra.project_info import read_manifest

    return read_manifest(ws.root).version or "0.0.0"


def plugin_files(ws: Workspace, render, base: str) -> list[tuple[str, str | bytes, tuple[str, ...]]]:
    """Every file of the marketplace folder ``base`` (repo-relative, or "" for a folder of its own)."""
    from orkestra.project_info import PROJECT_FILES, read_manifest
    from orkestra.telemetry.settings import merge_settings

    name = plugin_name(ws)
    info = read_manifest(ws.root)
    version = info.version or "0.0.0"
    description = (
        ws.metadata.description or info.description or f"{name} agents, skills and commands"
    ).strip()
    root = join(base, "plugins", name)
    sources = tuple(f for f in (*PROJECT_FILES, "orkestra.yaml") if (ws.root / f).is_file())
    manifest = {"name": name, "version": version, "description": description}
    if info.authors:
        manifest["author"] = {"name": info.authors[0]}
    files: list[tuple[str, str | bytes, tuple[str, ...]]] = [
        (join(root, ".claude-plugin", "plugin.json"), to_json(manifest), sources),
        (
            join(base, ".claude-plugin", "marketplace.json"),
            to_json(
                {
                    "name": f"{name}-marketplace",
                    "owner": {"name": info.authors[0] if info.authors else name},
                    "metadata": {"description": f"Built by {BUILT_BY} from the {name} registries."},
                    "plugins": [
                        {
                            "name": name,
                            "source": f"./plugins/{name}",
                            "description": description,
                            "version": version,
                        }
                    ],
                }
            ),
            sources,
        ),
    ]
    digest = ws.config.paths.decisions_digest
    for agent_name, agent in sorted(ws.agents.items()):
        if agent.status == "active":
            files.append(
                (join(root, "agents", f"{agent_name}.md"), agent_markdown(ws, agent, render, digest), ())
            )
    for rel, content, src, _ in skill_files(ws, render, join(root, "skills")):
        files.append((rel, content, src))
    for command_name, command in sorted(ws.commands.items()):
        files.append(
            (
                join(root, "commands", f"{command_name}.md"),
                command_markdown(command_name, command, render),
                (),
            )
        )
    hooks = merge_settings(None, ws.config.telemetry).get("hooks")
    if hooks:
        files.append((join(root, "hooks", "hooks.json"), to_json({"hooks": hooks}), ("orkestra.yaml",)))
    servers = {"mcpServers": mcp_servers(ws, user=True)}  # at user scope: runs nothing from the repo
    if servers["mcpServers"]:
        files.append((join(root, ".mcp.json"), to_json(servers), ("registries/tools.yaml",)))
    return [
        (rel, content if isinstance(content, bytes) else content.rstrip("\n") + "\n", src)
        for rel, content, src in files
    ]
