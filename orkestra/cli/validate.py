"""`orkestra validate`: every problem in the registries, as file:line:col diagnostics."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.options import Format, RepoOption, ReportFormatOption
from orkestra.cli.output import emit_json, emit_lines, run


def command(
    show_warnings: Annotated[bool, typer.Option("--show-warnings", help="Also list warnings.")] = False,
    repo: RepoOption = None,
    fmt: ReportFormatOption = None,
) -> None:
    """Check schemas, cross-references and what Claude Code drops.

    Prints file:line:col diagnostics and a summary (--format json: {"ok", "errors", "warnings",
    "diagnostics"}). --show-warnings adds `orkestra doctor`'s cheap checks (ignored outputs, server
    commands, hook programs) as warnings. Exit 0 when clean (warnings allowed), 1 on any error, 2 on
    a usage error.

    \b
    Example:
      orkestra validate --show-warnings
      orkestra validate --format json | jq '.diagnostics[] | select(.severity=="error")'
    """

    def action() -> int:
        from orkestra.validation import check_workspace

        diagnostics = check_workspace(repo)
        if show_warnings:  # what breaks outside this shell (orkestra doctor), cheap checks only
            from orkestra.doctor import as_diagnostic, warnings_for
            from orkestra.workspace.root import find_root

            found = warnings_for(find_root(repo), checks=("gitignore", "server", "hooks"))
            diagnostics += [as_diagnostic(f) for f in found]
        errors = [d for d in diagnostics if d.severity == "error"]
        shown = diagnostics if show_warnings else errors
        if fmt is Format.json:
            emit_json(
                {
                    "ok": not errors,
                    "errors": len(errors),
                    "warnings": len(diagnostics) - len(errors),
                    "diagnostics": [d.to_dict() for d in shown],
                }
            )
        else:
            summary = f"{len(errors)} error(s), {len(diagnostics) - len(errors)} warning(s)"
            emit_lines([str(d) for d in shown] + [summary])
        return 1 if errors else 0

    run(action)
