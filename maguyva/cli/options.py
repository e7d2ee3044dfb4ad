"""The options every ``maguyva`` command shares, and the hidden aliases that keep old scripts working.

``--repo PATH`` names the repository (``--root`` and, on ``index``/``status``/``graph``, a positional
PATH are hidden aliases); ``--format json|table|text`` chooses the output (``--json`` is a hidden
alias of ``--format json``). Without ``--format``, a terminal gets ``table`` (lists) or ``text``
(single records) and a pipe gets ``json``.
"""

from __future__ import annotations

from enum import Enum
from typing import Annotated

import typer
from typer.core import TyperCommand


class Format(str, Enum):
    json = "json"
    table = "table"
    text = "text"


RepoOption = Annotated[
    str, typer.Option("--repo", metavar="PATH", help="Repository root (default: the current directory).")
]
PathAlias = Annotated[
    str | None,
    typer.Argument(
        metavar="PATH", hidden=True, show_default=False, help="Same as --repo (kept for old scripts)."
    ),
]
StoreOption = Annotated[
    str | None,
    typer.Option(
        "--store",
        help="Index: a SQLite path or postgresql://…?workspace=W&repo=R (default: $MAGUYVA_STORE, "
        "maguyva.store in orkestra.yaml, else <git dir>/maguyva/index.db).",
    ),
]
FormatOption = Annotated[
    Format | None,
    typer.Option(
        "--format",
        show_default=False,
        help="json, table or text (default: table or text on a terminal, json when piped).",
    ),
]


def repo_of(repo: str, path: str | None) -> str:
    """The repository a command works on: the hidden positional PATH wins over the --repo default."""
    return path if path is not None else repo


class AliasedCommand(TyperCommand):
    """A command that reads ``--root`` as ``--repo`` and ``--json`` as ``--format json`` (both hidden)."""

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        names = {name for param in self.params for name in getattr(param, "opts", ())}
        rewritten: list[str] = []
        for index, word in enumerate(args):
            if word == "--":
                rewritten.extend(args[index:])
                break
            if "--repo" in names and (word == "--root" or word.startswith("--root=")):
                word = "--repo" + word[len("--root") :]
            elif word == "--json" and "--json" not in names and "--format" in names:
                rewritten.extend(("--format", "json"))
                continue
            rewritten.append(word)
        return super().parse_args(ctx, rewritten)
