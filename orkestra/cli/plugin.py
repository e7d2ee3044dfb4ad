"""`orkestra plugin`: a Claude Code plugin and marketplace built from the registries."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.options import FormatOption, RepoOption, group
from orkestra.cli.output import run, show_record

app = group("Build a Claude Code plugin from the registries.")


@app.command("build")
def build(
    out: Annotated[
        str | None, typer.Option("--out", help="Marketplace folder (default: dist/claude-plugin).")
    ] = None,
    repo: RepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Validate, then write the plugin and a marketplace listing it.

    The marketplace folder holds .claude-plugin/marketplace.json and plugins/<project>/ (plugin.json
    with the project's version, agents, skills, commands, hooks, .mcp.json).
    The folder is replaced in one rename, and only if it is empty or an earlier build. JSON:
    {"marketplace", "plugin", "marketplace_name", "version", "files", "install": [commands]}.
    To publish from the repository through sync instead, add `plugin` to `targets:`.

    \b
    Example:
      orkestra plugin build --out dist/claude-plugin
      claude plugin marketplace add ./dist/claude-plugin && claude plugin install NAME@NAME-marketplace
    """

    def action() -> None:
        from orkestra.plugin import build_plugin

        show_record(build_plugin(repo, out).to_dict(), fmt, "plugin build")

    run(action)
