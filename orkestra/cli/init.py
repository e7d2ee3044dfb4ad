"""`orkestra init`: scaffold a minimal working workspace into a repository."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.output import emit_json, run


def command(
    path: Annotated[str, typer.Argument(help="Repository to scaffold (default: the current directory).")] = ".",
) -> None:
    """Create orkestra.yaml and starter registries (never overwrites; safe to re-run).

    Prints {"root", "created": [...], "skipped": [...], "gitignore_updated"}. Afterwards
    `orkestra sync` renders .claude/ at once.

    \b
    Example:
      orkestra init . && orkestra sync
    """

    def action() -> None:
        from orkestra.init import init_workspace

        emit_json(init_workspace(path).to_dict())

    run(action)
