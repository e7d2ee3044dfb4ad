"""The ``cursor`` target: ``.cursor/rules/<name>.mdc`` per instruction and ``.cursor/mcp.json``."""

from __future__ import annotations

from orkestra.render.targets.common import Rendered, markdown, to_json
from orkestra.render.targets.mcp import cursor_mcp, servers
from orkestra.workspace.load import Workspace


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
        files.append((f".cursor/rules/{rule.name}.mdc", markdown(render, front, rule.body), (rule.source,)))
    entries = servers(ws)
    if entries:
        files.append((".cursor/mcp.json", to_json(cursor_mcp(entries)), ("registries/tools.yaml",)))
    return files
