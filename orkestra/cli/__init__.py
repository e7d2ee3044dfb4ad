"""The ``orkestra`` command line: a thin typer layer over the library.

Start-up is kept low by registering command groups lazily: only the group named on the
command line is imported (``--help`` imports them all, which is still cheap because group
modules import nothing but stdlib and typer at module level).
"""

from __future__ import annotations

import importlib
import sys

import typer

# name -> (module, kind). "group" modules export ``app`` (a typer.Typer); "command" modules
# export ``command`` (a function) registered under ``name``.
ENTRIES: dict[str, tuple[str, str]] = {
    "init": ("orkestra.cli.init", "command"),
    "import": ("orkestra.cli.import_", "command"),
    "plugin": ("orkestra.cli.plugin", "group"),
    "validate": ("orkestra.cli.validate", "command"),
    "sync": ("orkestra.cli.sync", "command"),
    "system": ("orkestra.cli.system", "group"),
    "agents": ("orkestra.cli.agents", "group"),
    "skills": ("orkestra.cli.skills", "group"),
    "decisions": ("orkestra.cli.decisions", "group"),
    "truths": ("orkestra.cli.truths", "group"),
    "registry": ("orkestra.cli.registry", "group"),
    "search": ("orkestra.cli.search", "command"),
    "why": ("orkestra.cli.why", "command"),
    "serve": ("orkestra.cli.serve", "command"),
    "mine": ("orkestra.cli.mine", "group"),
    "code": ("orkestra.cli.code", "group"),
    "mcp": ("orkestra.cli.mcp", "group"),
    "hooks": ("orkestra.cli.hooks", "group"),
    "telemetry": ("orkestra.cli.telemetry", "group"),
}

HELP = """Orkestra: agent registries in YAML, rendered into what Claude Code loads.

Progressive disclosure: `orkestra system status` -> `agents list` -> `agents info NAME`
-> `decisions search QUERY` -> `code search QUERY`. Output is JSON unless --format table.
"""


def _requested(argv: list[str]) -> str | None:
    """The first positional word of the command line: the group or command to load."""
    for word in argv:
        if not word.startswith("-"):
            return word
    return None


def build_app(argv: list[str] | None = None) -> typer.Typer:
    """Build the root app, importing only the entry the command line names (all for help)."""
    app = typer.Typer(help=HELP, no_args_is_help=True, add_completion=False, rich_markup_mode=None)
    app.callback()(_group)  # keeps `orkestra` a group even when only one command is registered
    wanted = _requested(sys.argv[1:] if argv is None else argv)
    names = [wanted] if wanted in ENTRIES else list(ENTRIES)
    for name in names:
        module_name, kind = ENTRIES[name]
        module = importlib.import_module(module_name)
        if kind == "group":
            app.add_typer(module.app, name=name)
        else:
            app.command(name)(module.command)
    return app


def _group() -> None:
    """Without a callback, typer would turn a one-command app into that bare command."""


def main() -> None:
    """Console-script entry point."""
    build_app()(prog_name="orkestra")
