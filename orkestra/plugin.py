"""A Claude Code plugin and a marketplace listing it, built from the registries (docs/targets.md).

Layout (FORMATS §7, CC docs ``plugins-reference`` and ``plugin-marketplaces``)::

    <base>/.claude-plugin/marketplace.json        lists the plugin
    <base>/plugins/<name>/.claude-plugin/plugin.json
    <base>/plugins/<name>/{agents,skills,commands}/, hooks/hooks.json, .mcp.json

``plugin_files`` is pure (the ``plugin`` target renders it through sync, manifest-owned);
``build_plugin`` writes the same files to a folder of its own, replacing it in one rename.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass

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
    from orkestra.render.outputs import agent_markdown, command_markdown, mcp_servers, skill_files
    from orkestra.telemetry.settings import merge_settings

    name = plugin_name(ws)
    info = read_manifest(ws.root)
    version = info.version or "0.0.0"
    description = (
        ws.metadata.description or info.description or f"{name} agents, skills and commands"
    ).strip()
    root = _join(base, "plugins", name)
    sources = tuple(f for f in (*PROJECT_FILES, "orkestra.yaml") if (ws.root / f).is_file())
    manifest = {"name": name, "version": version, "description": description}
    if info.authors:
        manifest["author"] = {"name": info.authors[0]}
    files: list[tuple[str, str | bytes, tuple[str, ...]]] = [
        (_join(root, ".claude-plugin", "plugin.json"), _json(manifest), sources),
        (
            _join(base, ".claude-plugin", "marketplace.json"),
            _json(
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
                (_join(root, "agents", f"{agent_name}.md"), agent_markdown(ws, agent, render, digest), ())
            )
    for rel, content, src, _ in skill_files(ws, render, _join(root, "skills")):
        files.append((rel, content, src))
    for command_name, command in sorted(ws.commands.items()):
        files.append(
            (
                _join(root, "commands", f"{command_name}.md"),
                command_markdown(command_name, command, render),
                (),
            )
        )
    hooks = merge_settings(None, ws.config.telemetry).get("hooks")
    if hooks:
        files.append((_join(root, "hooks", "hooks.json"), _json({"hooks": hooks}), ("orkestra.yaml",)))
    servers = {"mcpServers": mcp_servers(ws, user=True)}  # at user scope: runs nothing from the repo
    if servers["mcpServers"]:
        files.append((_join(root, ".mcp.json"), _json(servers), ("registries/tools.yaml",)))
    return [
        (rel, content if isinstance(content, bytes) else content.rstrip("\n") + "\n", src)
        for rel, content, src in files
    ]


def _join(*parts: str) -> str:
    return "/".join(p.strip("/") for p in parts if p.strip("/"))


def _json(data: dict) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


@dataclass(frozen=True)
class BuildResult:
    marketplace: str
    plugin: str
    marketplace_name: str
    version: str
    files: int

    def to_dict(self) -> dict:
        data = asdict(self)
        data["install"] = [
            f"claude plugin marketplace add {self.marketplace}",
            f"claude plugin install {self.plugin}@{self.marketplace_name}",
        ]
        return data


def build_plugin(root: str | os.PathLike[str] | None, out: str | None = None) -> BuildResult:
    """Validate the workspace, render the marketplace into ``out`` (default ``dist/claude-plugin``).

    ``out`` is resolved first and must not be, hold or lie inside the repository's source folders;
    it is replaced as a whole by one rename, and only if it is absent, empty or an earlier build (its
    marker lists every file, unchanged); anything else is refused, never overwritten
    (``orkestra.outdir``).
    """
    from orkestra.errors import WorkspaceError
    from orkestra.outdir import resolve_output, write_output
    from orkestra.project_info import _packages
    from orkestra.render.environment import template_loader
    from orkestra.workspace.config import find_root
    from orkestra.workspace.validate import validate

    root_path = find_root(root)
    ws = Workspace.load(root_path)
    diagnostics = validate(ws)
    if any(d.severity == "error" for d in diagnostics):
        raise WorkspaceError(diagnostics)
    paths = ws.config.paths
    protected = [
        paths.registries,
        paths.templates,
        paths.ai_assets,
        paths.output,
        paths.decisions,
        paths.domains,
        paths.state,
        paths.marketplace,
        *_packages(root_path, plugin_name(ws)),
    ]
    target = resolve_output(out or root_path / "dist" / "claude-plugin", root_path, protected, BUILT_BY)
    files = plugin_files(ws, template_loader(root_path / ws.config.paths.templates), "")
    write_output(
        target,
        {
            rel: content if isinstance(content, bytes) else content.encode("utf-8")
            for rel, content, _ in files
        },
        BUILT_BY,
    )
    name = plugin_name(ws)
    return BuildResult(str(target), name, f"{name}-marketplace", plugin_version(ws), len(files))
