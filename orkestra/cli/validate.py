"""`orkestra validate`: every problem in the registries, as file:line:col diagnostics."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from orkestra.cli.output import emit_json, emit_lines, run


def command(
    show_warnings: Annotated[bool, typer.Option("--show-warnings", help="Also list warnings.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print diagnostics as JSON.")] = False,
    root: Annotated[Optional[str], typer.Option("--root", help="Workspace root (default: nearest with "
                                                "orkestra.yaml upwards from the cwd).")] = None,
) -> None:
    """Check schemas, cross-references and what Claude Code would silently drop.

    Exit 0 when clean (warnings allowed), 1 on any error, 2 on a usage error.

    \b
    Example:
      orkestra validate --show-warnings
      orkestra validate --json | jq '.diagnostics[] | select(.severity=="error")'
    """

    def action() -> int:
        from orkestra.workspace.validate import check_workspace

        diagnostics = check_workspace(root)
        errors = [d for d in diagnostics if d.severity == "error"]
        shown = diagnostics if show_warnings else errors
        if as_json:
            emit_json({"ok": not errors, "errors": len(errors), "warnings": len(diagnostics) - len(errors),
                       "diagnostics": [d.to_dict() for d in shown]})
        else:
            summary = f"{len(errors)} error(s), {len(diagnostics) - len(errors)} warning(s)"
            emit_lines([str(d) for d in shown] + [summary])
        return 1 if errors else 0

    run(action)
