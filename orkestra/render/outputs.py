"""Every generated file, in memory: composed workspace → contexts → templates → bytes.

Reads (skill assets, the user's settings.json to merge into) but never writes. Paths are
repo-relative POSIX; the list is sorted by path so a plan is stable.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from orkestra.errors import OrkestraError
from orkestra.render import context as ctx
from orkestra.render.environment import template_loader
from orkestra.render.inputs import skill_assets
from orkestra.workspace import jsontext
from orkestra.workspace.compose import compose_agent
from orkestra.workspace.links import Containment
from orkestra.workspace.load import Workspace


@dataclass(frozen=True, slots=True)
class Output:
    """One file sync wants on disk. ``merged`` files hold user content too and are never pruned."""

    path: str
    content: bytes
    sources: tuple[str, ...]
    executable: bool = False
    merged: bool = False


def _join(*parts: str) -> str:
    return "/".join(p.strip("/") for p in parts if p.strip("/"))


def render_outputs(ws: Workspace) -> list[Output]:
    """Agents, skills (flat, with assets), commands, ground truths, decisions digest, MCP config, settings,
    then every other target in ``orkestra.yaml`` (``targets``)."""
    render = template_loader(ws.root / ws.config.paths.templates)
    out = ws.config.paths.output
    digest_path = ws.config.paths.decisions_digest
    outputs: list[Output] = []
    links = Containment(ws.root)

    def text(path: str, body: str, *sources: str) -> None:
        outputs.append(Output(path, (body.rstrip("\n") + "\n").encode("utf-8"), tuple(sources)))

    claude = "claude" in ws.config.targets
    if claude:
        for name, agent in sorted(ws.agents.items()):
            if agent.status == "active":
                text(
                    _join(out, "agents", f"{name}.md"),
                    agent_markdown(ws, agent, render, digest_path),
                    _source(ws, "agent", name),
                )
        for rel, content, sources, executable in skill_files(ws, render, _join(out, "skills"), links):
            outputs.append(Output(rel, content, sources, executable=executable))
        for name, command in sorted(ws.commands.items()):
            text(
                _join(out, "commands", f"{name}.md"),
                command_markdown(name, command, render),
                _source(ws, "command", name),
            )
    for registry in ws.truths:
        text(
            _join(registry.package_dir, "GROUND_TRUTHS.md"),
            render("ground_truths.md.j2", ctx.truths_context(registry)),
            registry.path,
        )
    if ws.decisions:
        records = _join(ws.config.paths.decisions, "records")
        text(
            digest_path,
            render(
                "decisions.md.j2",
                ctx.decisions_context(list(ws.decisions.values()), ws.decision_registry, records),
            ),
            records,
        )
    if claude:
        servers = {"mcpServers": mcp_servers(ws)}
        if servers["mcpServers"]:
            text(ws.config.paths.mcp_config, json.dumps(servers, indent=2) + "\n", _source(ws, "tools", ""))
        settings = _settings(ws)
        if settings is not None:
            outputs.append(settings)
        if _memory_hook(ws):  # the guidance hook's lookup table (orkestra.why.lookup)
            from orkestra.why.lookup import lookup_path
            from orkestra.why.lookup_build import lookup_text

            sources = (_join(ws.config.paths.decisions, "records"), *(r.path for r in ws.truths))
            outputs.append(Output(lookup_path(out), lookup_text(ws).encode("utf-8"), sources))
    from orkestra.render.targets import target_outputs

    for rel, body, sources in target_outputs(ws, render):
        outputs.append(
            Output(rel, body, sources)
            if isinstance(body, bytes)
            else Output(rel, (body.rstrip("\n") + "\n").encode("utf-8"), sources)
        )
    return sorted(outputs, key=lambda o: o.path)


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
        target = _join(folder, name)
        body = render("skill.md.j2", ctx.skill_context(skill)).rstrip("\n") + "\n"
        files.append(
            (_join(target, "SKILL.md"), body.encode("utf-8"), (f"{skill.source_dir}/SKILL.md",), False)
        )
        for rel in skill_assets(ws.root, skill, links):
            source = ws.root / rel
            files.append(
                (
                    _join(target, Path(rel).relative_to(skill.source_dir).as_posix()),
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
    from orkestra.workspace.links import read_regular

    try:
        return read_regular(source, MAX_ASSET_BYTES)
    except OSError as exc:
        raise OrkestraError(f"{rel}: cannot read this skill asset: {exc.strerror or exc}") from None


def _memory_hook(ws: Workspace) -> bool:
    from orkestra.why.settings import hook_enabled

    try:
        return hook_enabled(ws.config.memory)
    except ValueError as exc:
        raise OrkestraError(f"orkestra.yaml: {exc}") from exc


def _source(ws: Workspace, kind: str, key: str) -> str:
    """The registry file an entity came from (``ws.where`` would also locate the line: slow)."""
    origin = ws.origins.get((kind, key))
    return origin.doc.path if origin else ""


def _settings(ws: Workspace) -> Output | None:
    """``.claude/settings.json`` with our hooks merged into what the user keeps there (None: nothing to write)."""
    from orkestra.telemetry.settings import merge_settings

    rel = _join(ws.config.paths.output, "settings.json")
    path = ws.root / rel
    existing = None
    if path.is_file():
        try:
            existing = jsontext.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise OrkestraError(f"{rel}: not valid JSON ({exc}); fix it so sync can merge its hooks") from exc
        if not isinstance(existing, dict):
            raise OrkestraError(f"{rel}: expected a JSON object")
    from orkestra.why.settings import merge_memory_hook

    try:
        merged = merge_memory_hook(
            merge_settings(existing, ws.config.telemetry),
            ws.config.memory,
            ws.config.paths.output,
            ws.config.paths.state,
        )
    except ValueError as exc:
        raise OrkestraError(f"orkestra.yaml: {exc}") from exc
    if existing is None and not merged:
        return None
    content = (json.dumps(merged, indent=2, ensure_ascii=False) + "\n").encode()
    return Output(rel, content, ("orkestra.yaml",), merged=True)
