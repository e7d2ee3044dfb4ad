"""The ``orkestra`` command line: a thin typer layer over the library.

Start-up is kept low by registering command groups lazily: only the group named on the
command line is imported. ``orkestra --help`` (or no command) imports none of them: the root
lists :data:`SUMMARIES` (tests/test_cli_imports.py checks they equal the modules' own help).
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Annotated, Any

import typer
from typer import _click as click  # typer 0.28 vendors click; what its groups and formatters are

from orkestra.cli.options import AliasGroup

# name -> (module, kind). "group" modules export ``app`` (a typer.Typer); "command" modules
# export ``command`` (a function) registered under ``name``. The order is the one `--help` shows:
# the path a new user takes (set up, check, look around, ask why, mine, code, wire up, extras).
ENTRIES: dict[str, tuple[str, str]] = {
    "init": ("orkestra.cli.init", "command"),
    "sync": ("orkestra.cli.sync", "command"),
    "validate": ("orkestra.cli.validate", "command"),
    "doctor": ("orkestra.cli.doctor", "command"),
    "system": ("orkestra.cli.system", "group"),
    "agents": ("orkestra.cli.agents", "group"),
    "skills": ("orkestra.cli.skills", "group"),
    "decisions": ("orkestra.cli.decisions", "group"),
    "truths": ("orkestra.cli.truths", "group"),
    "search": ("orkestra.cli.search", "command"),
    "why": ("orkestra.cli.why", "command"),
    "mine": ("orkestra.cli.mine", "group"),
    "code": ("orkestra.cli.code", "group"),
    "serve": ("orkestra.cli.serve", "command"),
    "mcp": ("orkestra.cli.mcp", "group"),
    "import": ("orkestra.cli.import_", "command"),
    "plugin": ("orkestra.cli.plugin", "group"),
    "registry": ("orkestra.cli.registry", "group"),
    "hooks": ("orkestra.cli.hooks", "group"),
    "telemetry": ("orkestra.cli.telemetry", "group"),
}

# name -> the one-line help `orkestra --help` shows, so the root help imports no command module.
# An entry without a summary here is imported for --help (so a new command never goes missing).
# tests/test_cli_imports.py checks each equals the module's own help; tests/test_cli_conventions.py
# that each fits an 80-column screen.
SUMMARIES: dict[str, str] = {
    "init": "Create orkestra.yaml and starter registries (safe to re-run).",
    "sync": "Render the registries into what Claude Code loads (.claude/).",
    "validate": "Check schemas, cross-references and what Claude Code drops.",
    "doctor": "Find what breaks outside this shell: outputs, servers, index.",
    "system": "Workspace health at a glance.",
    "agents": "List, search and inspect agents.",
    "skills": "Skills: list, inspect, search, audit, evaluate and ingest.",
    "decisions": "Architectural decisions: list, search, inspect, add.",
    "truths": "Ground truths: list, search and inspect.",
    "search": "Search every registry at once, best match first.",
    "why": "The decisions, truths and changes behind a path or symbol.",
    "mine": "Mine git history into changelog and decision ledgers.",
    "code": "Maguyva: index the repository's code and query it.",
    "serve": "Run the orkestra MCP server (stdio, or HTTP with --http).",
    "mcp": "MCP client configuration for the Maguyva server.",
    "import": "Import existing .claude/, AGENTS.md and Cursor rules.",
    "plugin": "Build a Claude Code plugin from the registries.",
    "registry": "Decisions, truths and changelogs under one group.",
    "hooks": "Record Claude Code and Codex hook events (telemetry).",
    "telemetry": "Query the local telemetry store written by the hooks.",
}

HELP = """Orkestra: agent registries in YAML, rendered into what Claude Code loads.

Start with `orkestra init`, then `sync` and `validate`. To look around:
`system status` -> `agents list` -> `agents info NAME` -> `decisions search QUERY`
-> `why PATH` -> `code search QUERY`.

Output: tables and text on a terminal, JSON when piped; choose with --format json|table|text.
Shell completion: `orkestra --install-completion` (bash, zsh, fish, PowerShell).
"""

COMPLETE_VAR = "_ORKESTRA_COMPLETE"  # set by the shell completion scripts typer installs


def _print_version(value: bool) -> None:
    if value:
        from orkestra import __version__

        sys.stdout.write(f"orkestra {__version__}\n")
        raise typer.Exit()


def _requested(argv: list[str]) -> str | None:
    """The first positional word of the command line: the group or command to load."""
    for word in argv:
        if not word.startswith("-"):
            return word
    return None


def build_app(argv: list[str] | None = None, eager: bool = False) -> typer.Typer:
    """Build the root app, importing only the entry the command line names.

    Without one (``--help``, no arguments, an unknown word) nothing is imported but entries
    missing from :data:`SUMMARIES`; ``eager`` builds the whole tree (the docs check uses it)."""
    wanted = _requested(sys.argv[1:] if argv is None else argv)
    eager = eager or COMPLETE_VAR in os.environ  # completing words needs every group's commands
    lazy = not eager and wanted not in ENTRIES
    app = typer.Typer(
        help=HELP,
        no_args_is_help=True,
        add_completion=True,
        rich_markup_mode=None,
        cls=_SummaryRoot if lazy else _Root,
    )
    app.callback()(_group)  # keeps `orkestra` a group even when only one command is registered
    names = (
        [wanted] if wanted in ENTRIES and not eager else [n for n in ENTRIES if eager or n not in SUMMARIES]
    )
    for name in names:
        module_name, kind = ENTRIES[name]
        module = importlib.import_module(module_name)
        if kind == "group":
            words = sys.argv[1:] if argv is None else argv
            # a group may build only the command the line names (``code``: maguyva.cli.app.app_for)
            lazy_sub = getattr(module, "app_for", None) if not eager else None
            sub = lazy_sub(words[words.index(name) + 1 :]) if lazy_sub else module.app
            app.add_typer(sub, name=name)
        else:
            app.command(name)(module.command)
    return app


class _Root(AliasGroup):
    """The root group: commands listed in :data:`ENTRIES` order (typer puts commands before groups)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        rank = {name: index for index, name in enumerate(ENTRIES)}
        return sorted(self.commands, key=lambda name: rank.get(name, len(rank)))

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        """An unknown command exits 2 naming the closest ones from :data:`ENTRIES` (the lazy root
        holds none of them, so typer's own suggestion, made from the loaded commands, finds nothing)."""
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.UsageError as error:
            if args and "Did you mean" not in error.message:
                import difflib  # only on this error path: start-up stays lean

                matches = difflib.get_close_matches(args[0], list(ENTRIES), n=3, cutoff=0.6)
                if matches:
                    error.message = (
                        f"{error.message.rstrip('.')}. Did you mean {', '.join(map(repr, matches))}?"
                    )
            raise


class _SummaryRoot(_Root):
    """The root group for ``--help``: lists every entry from its summary, importing none."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        order = list(ENTRIES)
        limit = formatter.width - 6 - max(len(n) for n in order)
        rows = []
        for name in order:
            loaded = self.commands.get(name)
            text = (
                loaded.get_short_help_str(limit)
                if loaded is not None
                else click.utils.make_default_short_help(SUMMARIES[name], limit)
            )
            rows.append((name, text))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _group(
    version: Annotated[
        bool,
        typer.Option("--version", is_eager=True, callback=_print_version, help="Print the version and exit."),
    ] = False,
) -> None:
    """Without a callback, typer would turn a one-command app into that bare command."""


def main() -> None:
    """Console-script entry point."""
    build_app()(prog_name="orkestra")
