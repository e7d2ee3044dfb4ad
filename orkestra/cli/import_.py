"""`orkestra import`: bring hand-written agents, skills, commands and rules into the registries."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.options import DryRunOption, FormatOption, RepoOption
from orkestra.cli.output import run, show_record


def command(
    source: Annotated[
        list[str] | None,
        typer.Option(
            "--from", help="Where to read: claude, agents-md, cursor, codex (repeatable; default: all)."
        ),
    ] = None,
    dry_run: DryRunOption = False,
    repo: RepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Import existing .claude/, AGENTS.md and Cursor rules.

    Reads .claude/agents, .claude/skills, .claude/commands, CLAUDE.md, AGENTS.md, .cursor/rules
    and .agents/skills into the registries; the next `orkestra sync` renders the same files and owns them.

    Originals are never edited or deleted. Each is checked before anything is written: `round_trip`
    is identical, whitespace (same frontmatter values, same text up to whitespace; sync takes it
    over) or differs (sync reports it as not owned until you `sync --force`). JSON: {"applied",
    "round_trip": {...}, "items": [...], "skipped": [...], "targets_added", "tools_added",
    "registry_files"}; exit 0.

    \b
    Example:
      orkestra import --dry-run && orkestra import && orkestra sync
      orkestra import --from cursor --from agents-md
    """

    def action() -> None:
        from orkestra.importer import apply_import, plan_import
        from orkestra.workspace.config import find_root

        plan = plan_import(find_root(repo), tuple(source) if source else None)
        show_record((plan if dry_run else apply_import(plan)).to_dict(), fmt, "import")

    run(action)
