"""`orkestra plugin`: a Claude Code plugin and marketplace built from the registries."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.output import emit_json, run

app = typer.Typer(help="Build a Claude Code plugin (and a marketplace listing it) from the registries.",
                  no_args_is_help=True, rich_markup_mode=None)


@app.command("build")
def build(
    out: Annotated[str | None, typer.Option("--out", help="Marketplace folder (default: dist/claude-plugin).")]
    = None,
    root: Annotated[str | None, typer.Option("--root", help="Workspace root (default: nearest orkestra.yaml).")]
    = None,
) -> None:
    """Validate, then write a marketplace folder: .claude-plugin/marketplace.json and
    plugins/<project>/ (plugin.json with the project's version, agents, skills, commands, hooks, .mcp.json).

    The folder is replaced in one rename, and only if it is empty or an earlier build. Prints
    {"marketplace", "plugin", "marketplace_name", "version", "files", "install": [commands]}.
    To publish from the repository through sync instead, add `plugin` to `targets:`.

    \b
    Example:
      orkestra plugin build --out dist/claude-plugin
      claude plugin marketplace add ./dist/claude-plugin && claude plugin install NAME@NAME-marketplace
    """

    def action() -> None:
        from orkestra.plugin import build_plugin

        emit_json(build_plugin(root, out).to_dict())

    run(action)
