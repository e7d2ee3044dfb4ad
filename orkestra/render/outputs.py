"""Every generated file, in memory: composed workspace → contexts → templates → bytes.

Reads (skill assets, the user's settings.json to merge into) but never writes. Paths are
repo-relative POSIX; the list is sorted by path so a plan is stable.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from orkestra.errors import OrkestraError
from orkestra.fs.links import Containment
from orkestra.render import context as ctx
from orkestra.render.environment import template_loader
from orkestra.render.targets import target_outputs
from orkestra.render.targets.claude import agent_markdown, command_markdown, mcp_servers, skill_files
from orkestra.render.targets.common import join
from orkestra.workspace import jsontext
from orkestra.workspace.load import Workspace


@dataclass(frozen=True, slots=True)
class Output:
    """One file sync wants on disk. ``merged`` files hold user content too and are never pruned."""

    path: str
    content: bytes
    sources: tuple[str, ...]
    executable: bool = False
    merged: bool = False


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
                    join(out, "agents", f"{name}.md"),
                    agent_markdown(ws, agent, render, digest_path),
                    _source(ws, "agent", name),
                )
        for rel, content, sources, executable in skill_files(ws, render, join(out, "skills"), links):
            outputs.append(Output(rel, content, sources, executable=executable))
        for name, command in sorted(ws.commands.items()):
            text(
                join(out, "commands", f"{name}.md"),
                command_markdown(name, command, render),
                _source(ws, "command", name),
            )
    for registry in ws.truths:
        text(
            join(registry.package_dir, "GROUND_TRUTHS.md"),
            render("ground_truths.md.j2", ctx.truths_context(registry)),
            registry.path,
        )
    if ws.decisions:
        records = join(ws.config.paths.decisions, "records")
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

            sources = (join(ws.config.paths.decisions, "records"), *(r.path for r in ws.truths))
            outputs.append(Output(lookup_path(out), lookup_text(ws).encode("utf-8"), sources))
    for rel, body, sources in target_outputs(ws, render):
        outputs.append(
            Output(rel, body, sources)
            if isinstance(body, bytes)
            else Output(rel, (body.rstrip("\n") + "\n").encode("utf-8"), sources)
        )
    return sorted(outputs, key=lambda o: o.path)


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

    rel = join(ws.config.paths.output, "settings.json")
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
