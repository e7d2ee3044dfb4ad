"""`orkestra registry changelog …`: Keep a Changelog files rendered from the ledgers."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from orkestra.cli.options import CheckOption, FormatOption, GitRepoOption, group
from orkestra.cli.output import fail, run, show_record

app = group("Render CHANGELOG.md files from the changelog ledger.")


@app.command("render")
def render(
    package: Annotated[
        str | None, typer.Option("--package", help="Package dir name or path; 'root'.")
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Every package and the repository root.")] = False,
    check: CheckOption = False,
    repo: GitRepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Regenerate CHANGELOG.md from the ledger, newest release first.

    Entries are grouped by release tag. An unknown --package exits 1 with "did you mean ...".

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

        result = render_changelogs(open_mining(repo or Path.cwd()), package=package, every=every, check=check)
        show_record(result, fmt, "changelog render")
        return 0 if result["ok"] else 1

    run(action)
