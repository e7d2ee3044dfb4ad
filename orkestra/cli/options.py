"""The options every command shares, and the group class that keeps their old spellings working.

One spelling per idea (docs/cli.md, "Conventions"):

- ``--repo PATH``: the repository. ``--root PATH`` (the old name) is a hidden alias.
- ``--format json|table|text``: unset, people on a terminal get ``table`` (lists) or ``text``
  (single records) and pipes get ``json``, so scripts keep reading JSON. ``--json`` is a hidden
  alias for ``--format json``.
- ``--dry-run`` shows the plan and writes nothing; ``--check`` writes nothing and exits 1 when
  anything would change (CI).

Hidden aliases are rewritten by :class:`AliasGroup` before a command parses its arguments, so a
command declares one parameter per idea and ``--help`` shows one spelling.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer
from typer import _click as click
from typer.core import TyperGroup


class Format(str, Enum):
    json = "json"
    table = "table"
    text = "text"


def _option(name: str, help: str, **extra: Any) -> Any:
    return typer.Option(name, show_default=False, help=help, **extra)


RepoOption = Annotated[
    str | None,
    _option(
        "--repo", "Repository (default: the nearest directory upwards holding orkestra.yaml).", metavar="PATH"
    ),
]
GitRepoOption = Annotated[
    Path | None, _option("--repo", "Repository (default: the git work tree holding the cwd).", metavar="PATH")
]
FormatOption = Annotated[
    Format | None,
    _option("--format", "json, table or text (default: table or text on a terminal, json when piped)."),
]
ReportFormatOption = Annotated[
    Format | None, _option("--format", "text (default) or json; table is the same as text.")
]
LimitOption = Annotated[int | None, typer.Option("--limit", min=1, help="Show at most N results.")]
DryRunOption = Annotated[bool, typer.Option("--dry-run", help="Show the plan; write nothing.")]
CheckOption = Annotated[
    bool, typer.Option("--check", help="Write nothing; exit 1 if anything would change (for CI).")
]

# hidden spelling -> (the option it stands for, the arguments it becomes)
ALIASES: dict[str, tuple[str, tuple[str, ...]]] = {
    "--root": ("--repo", ("--repo",)),
    "--json": ("--format", ("--format", "json")),
}


def pick_format(fmt: Format | None, human: Format) -> Format:
    """``fmt`` if given; else ``human`` when stdout is a terminal and ``json`` when it is not."""
    if fmt is not None:
        return fmt
    return human if sys.stdout.isatty() else Format.json


def expand_aliases(command: click.Command, args: list[str]) -> list[str]:
    """``args`` with each hidden alias the command does not declare itself spelled the current way."""
    declared = {name for param in command.params for name in getattr(param, "opts", ())}
    out: list[str] = []
    for index, token in enumerate(args):
        if token == "--":
            return out + args[index:]
        flag, eq, value = token.partition("=")
        target = ALIASES.get(flag)
        if target is None or flag in declared or target[0] not in declared:
            out.append(token)
        elif len(target[1]) == 1:  # an option taking a value: --root X, --root=X
            out.append(target[1][0] + eq + value)
        elif not eq:  # a flag standing for an option with its value
            out.extend(target[1])
        else:
            out.append(token)
    return out


class AliasGroup(TyperGroup):
    """A group whose leaf commands also accept the hidden aliases in :data:`ALIASES`."""

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        name, command, rest = super().resolve_command(ctx, args)
        if command is not None and not hasattr(command, "commands"):
            rest = expand_aliases(command, rest)
        return name, command, rest


def group(help: str) -> typer.Typer:
    """A command group with the house settings: plain help, help when bare, hidden aliases."""
    return typer.Typer(help=help, no_args_is_help=True, rich_markup_mode=None, cls=AliasGroup)
