"""The ``maguyva`` Typer app: every command in the order a user needs them.

``orkestra code …`` mounts this same app, so both command lines behave identically. Command
modules import their library code inside the command, so ``maguyva grep`` pays for nothing else;
and a command line that names a command gets an app with that command alone (``app_for``): typer
builds every registered command before it parses (~15 ms for all of them).
"""

from __future__ import annotations

import functools
import importlib
import os
from collections.abc import Sequence
from typing import Annotated

import typer

from maguyva.cli.options import AliasedCommand

HELP = "Maguyva: index the repository's code and query it."

# name -> (module in maguyva.cli, function), in the order `maguyva --help` lists them; a module is
# imported only when one of its commands is built
COMMANDS = {
    "index": ("index", "index"),
    "status": ("index", "status"),
    "search": ("query", "search"),
    "symbol": ("query", "symbol"),
    "refs": ("query", "refs"),
    "deps": ("query", "deps"),
    "grep": ("query", "grep"),
    "structure": ("query", "structure"),
    "file": ("query", "file"),
    "context": ("query", "context"),
    "overview": ("query", "overview"),
    "graph": ("graph", "graph"),
    "embed": ("embed", "embed"),
    "serve": ("serve", "serve"),
    "repos": ("team", "repos"),
}
COMPLETE_VARS = ("_MAGUYVA_COMPLETE", "_ORKESTRA_COMPLETE")  # shell completion needs every command


def _build(names: Sequence[str] | None = None) -> typer.Typer:
    """The app with the commands ``names`` (all, and the ``keys`` group, when None)."""
    built = typer.Typer(help=HELP, no_args_is_help=True, rich_markup_mode=None)
    for name, (module, function) in COMMANDS.items():
        if names is None or name in names:
            command = getattr(importlib.import_module(f"maguyva.cli.{module}"), function)
            built.command(name, cls=AliasedCommand)(command)
    if names is None:
        from maguyva.cli.team import keys

        built.add_typer(keys, name="keys")
    built.callback()(_root)  # keeps the app a group when it holds one command
    return built


def app_for(argv: Sequence[str]) -> typer.Typer:
    """The app for a command line (the words after ``maguyva`` or ``orkestra code``): only the command
    it names, when it names one of :data:`COMMANDS`; else the whole app (help, ``keys``, a typo)."""
    wanted = next((word for word in argv if not word.startswith("-")), None)
    if wanted not in COMMANDS or any(var in os.environ for var in COMPLETE_VARS):
        return whole_app()
    return _build([wanted])


@functools.cache
def whole_app() -> typer.Typer:
    """Every command and the ``keys`` group: what ``maguyva.cli.app.app`` is."""
    return _build()


def __getattr__(name: str) -> typer.Typer:
    """``app``, the whole app (what `orkestra code` mounts, and what the docs and tests read), built
    on first use so that ``app_for`` imports one command module only."""
    if name == "app":
        return whole_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _version(value: bool) -> None:
    if value:
        from maguyva import __version__

        typer.echo(f"maguyva {__version__}")
        raise typer.Exit()


def _root(
    version: Annotated[
        bool | None,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = None,
) -> None:
    """Maguyva: index the repository's code and query it."""
