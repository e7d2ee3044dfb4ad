"""The ``maguyva`` Typer app: every command in the order a user needs them.

``orkestra code …`` mounts this same app, so both command lines behave identically. Command
modules import their library code inside the command, so ``maguyva grep`` pays for nothing else.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from maguyva.cli import embed, graph, index, query, serve, team
from maguyva.cli.options import AliasedCommand

HELP = "Maguyva: index the repository's code and query it."

app = typer.Typer(help=HELP, no_args_is_help=True, rich_markup_mode=None)

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
for _name, _function in COMMANDS:
    app.command(_name, cls=AliasedCommand)(_function)
app.add_typer(team.keys, name="keys")


def _version(value: bool) -> None:
    if value:
        from maguyva import __version__

        typer.echo(f"maguyva {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        Optional[bool],
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = None,
) -> None:
    """Maguyva: index the repository's code and query it."""
