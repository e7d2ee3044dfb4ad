"""`orkestra doctor`: what stops the workspace from working on this machine or in CI, with the fix."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.options import Format, ReportFormatOption
from orkestra.cli.output import emit_json, emit_lines, run


def command(
    fix: Annotated[
        bool, typer.Option("--fix", help="Apply the safe fixes (.gitignore negation, re-render, index).")
    ] = False,
    repo: Annotated[
        str | None,
        typer.Option("--repo", "--root", metavar="PATH", help="Repository (default: found from the cwd)."),
    ] = None,
    fmt: ReportFormatOption = None,
) -> None:
    """Find what breaks outside this shell: outputs, servers, index.

    Checks: rendered outputs git ignores (they can't be committed: sync --check fails on every
    clone), MCP servers in .mcp.json that don't start from a bare PATH (/usr/bin:/bin; each is
    started with --version), a missing or stale code index, hook programs a bare PATH doesn't
    find, and installed plugins that start these servers (their scope). Each finding says how
    to fix it; --fix applies the safe ones and checks again. --format json: {"root", "ok",
    "errors", "warnings", "findings": [{check, severity, message, fix, path, fixable}],
    "fixed": [{check, action}]}. Exit 0 when no error is left, 1 otherwise.

    \b
    Example:
      orkestra doctor
      orkestra doctor --fix
      orkestra doctor --json | jq '.findings[] | select(.severity=="error")'
    """

    def action() -> int:
        from orkestra.doctor import diagnose
        from orkestra.doctor import fix as repair

        root = _root(repo)
        findings = diagnose(root)
        fixed = []
        if fix and any(f.fixable for f in findings):
            fixed = repair(root, findings)
            findings = diagnose(root)
        errors = [f for f in findings if f.severity == "error"]
        warnings = [f for f in findings if f.severity == "warning"]
        if fmt is Format.json:
            emit_json(
                {
                    "root": str(root),
                    "ok": not errors,
                    "errors": len(errors),
                    "warnings": len(warnings),
                    "findings": [f.to_dict() for f in findings],
                    "fixed": fixed,
                }
            )
        else:
            lines = [f"fixed   {d['check']}: {d['action']}" for d in fixed]
            for finding in findings:
                where = f"{finding.path}: " if finding.path else ""
                lines.append(f"{finding.severity:<7} {finding.check}: {where}{finding.message}")
                lines.append(
                    f"        fix: {finding.fix}"
                    + (" (--fix does it)" if finding.fixable and not fix else "")
                )
            lines.append(
                f"{len(errors)} error(s), {len(warnings)} warning(s)" + ("" if findings else "; healthy")
            )
            emit_lines(lines)
        return 1 if errors else 0

    run(action)


def _root(repo: str | None):
    """The workspace root; without ``orkestra.yaml``, the git top level (or the folder) as given."""
    from pathlib import Path

    from orkestra.errors import NoWorkspaceError
    from orkestra.workspace.root import find_root

    try:
        return find_root(repo, must_exist=True)
    except NoWorkspaceError:
        from orkestra import git

        start = Path(repo or ".").resolve()
        top = git.output(start, "rev-parse", "--show-toplevel").strip()
        return Path(top) if top else start
