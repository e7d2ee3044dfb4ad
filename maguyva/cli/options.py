"""The options every ``maguyva`` command shares, and the hidden aliases that keep old scripts working.

``--repo PATH`` names the repository (``--root`` and, on ``index``/``status``/``graph``, a positional
PATH are hidden aliases); ``--format json|table|text`` chooses the output (``--json`` is a hidden
alias of ``--format json``). Without ``--format``, a terminal gets ``table`` (lists) or ``text``
(single records) and a pipe gets ``json``.
"""

from __future__ import annotations

import inspect
import re
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
SessionIdleTimeout = Annotated[  # both MCP servers' HTTP sessions (maguyva and orkestra serve)
    float,
    typer.Option(
        "--session-idle-timeout",
        min=1,
        max=7 * 24 * 3600,
        help="HTTP: close a session after this many seconds without a request.",
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


def as_invoked(text: str, prefix: str) -> str:
    """``text`` with each line that runs ``maguyva …`` naming the command as invoked (``prefix``:
    ``orkestra code`` when mounted, ``maguyva`` standalone)."""
    if prefix == "maguyva":
        return text
    return re.sub(r"(?m)^(\s*(?:\$ )?)maguyva(?= |$)", lambda m: m.group(1) + prefix, text)


class AliasedCommand(TyperCommand):
    """A command that reads ``--root`` as ``--repo`` and ``--json`` as ``--format json`` (both hidden),
    and whose help examples name it as invoked (``orkestra code index`` under orkestra)."""

    def format_help_text(self, ctx, formatter) -> None:
        text = inspect.cleandoc(self.help or "").partition("\f")[0]
        if text:
            root = (
                ctx.find_root().info_name or "maguyva"
            )  # "orkestra" (the tree), "orkestra code" or "maguyva"
            prefix = (
                "orkestra code" if root == "orkestra" else root if root.startswith("orkestra") else "maguyva"
            )
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(as_invoked(text, prefix))

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
