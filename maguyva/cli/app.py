"""The ``maguyva`` Typer app: every command in the order a user needs them.

``orkestra code …`` mounts this same app, so both command lines behave identically. Command
modules import their library code inside the command, so ``maguyva grep`` pays for nothing else;
and a command line that names a command gets an app with that command alone (``app_for``): typer
builds every registered command before it parses (~15 ms for all of them).
"""

from __future__ import annotations

import os
from typing import Annotated, Optional, Sequence

import typer

from maguyva.cli import embed, graph, index, query, serve, team
from maguyva.cli.options import AliasedCommand

HELP = "Maguyva: index the repository's code and query it."

COMMANDS = (
    ("index", index.index),
    ("status", index.status),
    ("search", query.search),
    ("symbol", query.symbol),
    ("refs", query.refs),
    ("deps", query.deps),
    ("grep", query.grep),
    ("structure", query.structure),
    ("file", query.file),
    ("context", query.context),
    ("overview", query.overview),
    ("graph", graph.graph),
    ("embed", embed.embed),
    ("serve", serve.serve),
    ("repos", team.repos),
)
COMPLETE_VARS = ("_MAGUYVA_COMPLETE", "_ORKESTRA_COMPLETE")  # shell completion needs every command


def _build(names: Sequence[str] | None = None) -> typer.Typer:
    """The app with the commands ``names`` (all, and the ``keys`` group, when None)."""
    built = typer.Typer(help=HELP, no_args_is_help=True, rich_markup_mode=None)
    for name, function in COMMANDS:
        if names is None or name in names:
            built.command(name, cls=AliasedCommand)(function)
    if names is None:
        built.add_typer(team.keys, name="keys")
    built.callback()(_root)  # keeps the app a group when it holds one command
    return built


def app_for(argv: Sequence[str]) -> typer.Typer:
    """The app for a command line (the words after ``maguyva`` or ``orkestra code``): only the command
    it names, when it names one of :data:`COMMANDS`; else the whole app (help, ``keys``, a typo)."""
    wanted = next((word for word in argv if not word.startswith("-")), None)
    if wanted not in dict(COMMANDS) or any(var in os.environ for var in COMPLETE_VARS):
        return app
    return _build([wanted])


def _version(value: bool) -> None:
    if value:
        from maguyva import __version__

        typer.echo(f"maguyva {__version__}")
        raise typer.Exit()


def _root(
    version: Annotated[
        Optional[bool],
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = None,
) -> None:
    """Maguyva: index the repository's code and query it."""


app = _build()  # the whole app: what `orkestra code` mounts, and what the docs and tests read
