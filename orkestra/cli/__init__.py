"""The ``orkestra`` command line: a thin typer layer over the library.

Start-up is kept low by registering command groups lazily: only the group named on the
command line is imported. ``orkestra --help`` (or no command) imports none of them: the root
lists :data:`SUMMARIES` (tests/test_cli_imports.py checks they equal the modules' own help).
"""

from __future__ import annotations

import importlib
import sys

import typer
from typer import _click as click  # typer 0.28 vendors click; what its groups and formatters are
from typer.core import TyperGroup

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

# name -> the one-line help `orkestra --help` shows, so the root help imports no command module.
# An entry without a summary here is imported for --help (so a new command never goes missing).
SUMMARIES: dict[str, str] = {
    'init': 'Create orkestra.yaml and starter registries read from the repository (never overwrites; safe to re-run).',
    'import': 'Import .claude/agents, .claude/skills, .claude/commands, CLAUDE.md, AGENTS.md, .cursor/rules and .agents/skills into the registries; the next `orkestra sync` renders the same files and owns them.',
    'plugin': 'Build a Claude Code plugin (and a marketplace listing it) from the registries.',
    'validate': 'Check schemas, cross-references and what Claude Code would silently drop.',
    'sync': 'Render registries into .claude/, .mcp.json, GROUND_TRUTHS.md and the decisions digest.',
    'system': 'Workspace health at a glance.',
    'agents': 'List, search and inspect agents.',
    'skills': 'Skills: list, inspect, search, audit, evaluate and ingest.',
    'decisions': 'Architectural decisions: list, search, inspect, start a new one.',
    'truths': 'Ground truths: list, search and inspect.',
    'registry': 'Registries: decisions, truths and changelogs (as the blog writes them).',
    'search': 'Search every registry: {"query", "total", "hits": [{kind, id, title, score, matched_terms, exact}]}.',
    'why': 'Why is this code like this: decisions, ground truths and changelog entries, ranked and cited.',
    'serve': 'Run the orkestra MCP server: search_registry, get_decision, get_truth, why, list_agents_skills, propose_decision (stdio by default; --http for streamable HTTP at http://HOST:PORT/mcp).',
    'mine': 'Mine git history into changelog and decision ledgers.',
    'code': "Maguyva: index the repository's code and query it.",
    'mcp': 'MCP client configuration for the Maguyva server.',
    'hooks': 'Record Claude Code hook events and Codex notify payloads (telemetry).',
    'telemetry': 'Query the local telemetry store written by the hooks.',
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


def build_app(argv: list[str] | None = None, eager: bool = False) -> typer.Typer:
    """Build the root app, importing only the entry the command line names.

    Without one (``--help``, no arguments, an unknown word) nothing is imported but entries
    missing from :data:`SUMMARIES`; ``eager`` builds the whole tree (the docs check uses it)."""
    wanted = _requested(sys.argv[1:] if argv is None else argv)
    lazy = not eager and wanted not in ENTRIES
    app = typer.Typer(help=HELP, no_args_is_help=True, add_completion=False, rich_markup_mode=None,
                      cls=_SummaryRoot if lazy else None)
    app.callback()(_group)  # keeps `orkestra` a group even when only one command is registered
    names = [wanted] if wanted in ENTRIES and not eager else [n for n in ENTRIES if eager or n not in SUMMARIES]
    for name in names:
        module_name, kind = ENTRIES[name]
        module = importlib.import_module(module_name)
        if kind == "group":
            app.add_typer(module.app, name=name)
        else:
            app.command(name)(module.command)
    return app


class _SummaryRoot(TyperGroup):
    """The root group for ``--help``: lists every entry from its summary, importing none."""

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        order = [n for n in ENTRIES if ENTRIES[n][1] == "command"] + [n for n in ENTRIES if ENTRIES[n][1] == "group"]
        limit = formatter.width - 6 - max(len(n) for n in order)
        rows = []
        for name in order:
            loaded = self.commands.get(name)
            text = loaded.get_short_help_str(limit) if loaded is not None else \
                click.utils.make_default_short_help(SUMMARIES[name], limit)
            rows.append((name, text))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _group() -> None:
    """Without a callback, typer would turn a one-command app into that bare command."""


def main() -> None:
    """Console-script entry point."""
    build_app()(prog_name="orkestra")
