"""The Claude Code target: ``CLAUDE.md`` and ``.claude/rules/`` from the instructions, and the pieces of
the ``.claude/`` tree other targets reuse: agent and command Markdown, skill folders with their assets,
and THE MCP server list every client's configuration is built from. ``render.outputs`` assembles the
tree itself."""

from __future__ import annotations

import os
from pathlib import Path

from orkestra.fs.links import Containment
from orkestra.render import context as ctx
from orkestra.render.inputs import skill_assets
from orkestra.render.targets.common import Rendered, instructions, join, scoped_rule_files
from orkestra.workspace.compose import compose_agent
from orkestra.workspace.load import Workspace


def claude_files(ws: Workspace, render) -> list[Rendered]:
    """CLAUDE.md (project-wide instructions) and ``.claude/rules/<name>.md`` (path-scoped ones)."""
    files: list[Rendered] = []
    bodies = instructions(ws, "claude", True)
    if bodies:
        files.append(
            ("CLAUDE.md", "\n\n".join(i.body.strip() for i in bodies), tuple(i.source for i in bodies))
        )
    rules = f"{ws.config.paths.output}/rules"
    return files + scoped_rule_files(ws, render, "claude", rules, ".md", lambda globs: {"paths": globs})


def mcp_servers(ws: Workspace, *, user: bool = False) -> dict[str, dict]:
    """THE MCP server list (Claude Code ``.mcp.json`` form). ``.mcp.json``, ``.cursor/mcp.json``,
    ``.vscode/mcp.json``, ``.codex/config.toml`` and the plugin's ``.mcp.json`` are all built from it,
    so a server added here (or to the tools registry) reaches every target. The bundled servers start
    through ``orkestra.yaml`` ``mcp.launcher`` (``orkestra.launcher``); ``user``: a plugin's list, whose
    launcher never runs a program from the opened repository."""
    from orkestra.launcher import launch

    servers = ctx.mcp_config(ws.tools)["mcpServers"]
    for entry in servers.values():
        if "command" in entry:
            entry["command"], entry["args"] = launch(
                entry["command"], entry["args"], ws.config.mcp.launcher, user=user
            )
    return servers


def agent_markdown(ws: Workspace, agent, render, digest_path: str) -> str:
    """One agent as Claude Code reads it: composed from the primitives, or its own text verbatim."""
    composed = compose_agent(ws, agent)
    if agent.is_verbatim:
        return render("verbatim.md.j2", ctx.verbatim_agent_context(agent, composed.tools))
    return render("agent.md.j2", ctx.agent_context(composed, digest_path))


def command_markdown(name: str, command, render) -> str:
    context = ctx.command_context(name, command)
    return render("command.md.j2", context) if context["frontmatter"] else context["body"]


def skill_files(
    ws: Workspace, render, folder: str, links: Containment | None = None
) -> list[tuple[str, bytes, tuple[str, ...], bool]]:
    """(path, bytes, sources, executable) of every active skill's SKILL.md and assets under ``folder``."""
    links = links or Containment(ws.root)
    files = []
    for name, skill in sorted(ws.skills.items()):
        if skill.metadata.status == "deprecated":
            continue
        target = join(folder, name)
        body = render("skill.md.j2", ctx.skill_context(skill)).rstrip("\n") + "\n"
        files.append(
            (join(target, "SKILL.md"), body.encode("utf-8"), (f"{skill.source_dir}/SKILL.md",), False)
        )
        for rel in skill_assets(ws.root, skill, links):
            source = ws.root / rel
            files.append(
                (
                    join(target, Path(rel).relative_to(skill.source_dir).as_posix()),
                    _asset_bytes(source, rel),
                    (rel,),
                    os.access(source, os.X_OK),
                )
            )
    return files


MAX_ASSET_BYTES = 64 << 20  # a skill's reference, script or asset; a 3 GB sparse one is refused unread


def _asset_bytes(source: Path, rel: str) -> bytes:
    """A skill asset's bytes through the capped reader (``fstat`` on the open file, at most cap + 1 read)."""
    from orkestra.errors import OrkestraError
    from orkestra.fs.links import read_regular

    try:
        return read_regular(source, MAX_ASSET_BYTES)
    except OSError as exc:
        raise OrkestraError(f"{rel}: cannot read this skill asset: {exc.strerror or exc}") from None
