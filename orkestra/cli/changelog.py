"""`orkestra registry changelog …`: Keep a Changelog files rendered from the ledgers."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from orkestra.cli.output import emit_json, fail, run

app = typer.Typer(help="Render CHANGELOG.md files from the changelog ledger.", no_args_is_help=True,
                  rich_markup_mode=None)


@app.command("render")
def render(
    package: Annotated[Optional[str], typer.Option("--package", help="Package dir name or path; 'root'.")] = None,
    every: Annotated[bool, typer.Option("--all", help="Every package and the repository root.")] = False,
    check: Annotated[bool, typer.Option("--check", help="Compare only; exit 1 if a file would change.")] = False,
    root: Annotated[Optional[Path], typer.Option("--root", help="Repository (default: the cwd's work tree).")]
    = None,
) -> None:
    """Regenerate CHANGELOG.md from the ledger, grouped by release tag, newest first.

    \b
    Example:
      orkestra registry changelog render --package canonical
      orkestra registry changelog render --all --check
    """
    if (package is None) == (not every):
        fail("give exactly one of --package P or --all", 2)

    def action() -> int:
        from orkestra.mining.changelog_files import render_changelogs
        from orkestra.mining.config import open_mining

        result = render_changelogs(open_mining(root or Path.cwd()), package=package, every=every, check=check)
        emit_json(result)
        return 0 if result["ok"] else 1

    run(action)
