"""A Claude Code plugin and a marketplace listing it, built from the registries (docs/targets.md).

Layout (FORMATS §7, CC docs ``plugins-reference`` and ``plugin-marketplaces``)::

    <base>/.claude-plugin/marketplace.json        lists the plugin
    <base>/plugins/<name>/.claude-plugin/plugin.json
    <base>/plugins/<name>/{agents,skills,commands}/, hooks/hooks.json, .mcp.json

The files are the ``plugin`` target's (``orkestra.render.targets.plugin``, which sync renders under
``paths.marketplace``); ``build_plugin`` writes the same files to a folder of its own, replacing it in
one rename.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass

from orkestra.render.targets.plugin import BUILT_BY, plugin_files, plugin_name, plugin_version
from orkestra.workspace.load import Workspace


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
    from orkestra.validation import validate_workspace
    from orkestra.workspace.config import find_root

    root_path = find_root(root)
    ws = Workspace.load(root_path)
    diagnostics = validate_workspace(ws)
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
