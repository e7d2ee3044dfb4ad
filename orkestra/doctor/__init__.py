"""``orkestra doctor``: what stops a workspace from working on a real machine and in CI, each with its fix.

Five checks (docs/cli.md, "doctor"):

- ``gitignore``: rendered outputs (``.claude/``, ``.mcp.json``, the manifest, …) that git ignores,
  so they can never be committed and ``sync --check`` fails on every fresh clone (one
  ``git check-ignore --stdin -z`` for them all; tracked files are never ignored, so never reported).
- ``server``: an MCP server in ``.mcp.json`` whose command does not start from a bare PATH
  (``/usr/bin:/bin``, what a client started outside a shell profile has): actually run, with
  ``probe``, else resolved without starting anything.
- ``index``: no code index, or one older than the working tree.
- ``hooks``: hooks in ``.claude/settings.json`` whose program a bare PATH does not find.
- ``plugin``: installed Claude Code plugins that start these servers, and at which scope.

``diagnose(probe=False)`` is the cheap form ``init``, ``sync`` and ``validate --show-warnings``
print as warnings; ``fix`` applies the safe repairs (a ``.gitignore`` negation that git confirms,
re-rendering the server commands, building the index).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from orkestra.doctor.finding import CHECKS, Finding


def diagnose(
    root: Path, config: Any = None, *, probe: bool = True, checks: Iterable[str] = CHECKS
) -> list[Finding]:
    """Every finding for the workspace at ``root`` (``config``: its ``OrkestraConfig``; None reads it,
    or takes the defaults when there is no ``orkestra.yaml``). ``probe`` starts the server commands
    and reads the index's state; without it nothing is started."""
    if config is None:
        config = _config(root)
    from orkestra.doctor.gitignore import check_gitignore, output_paths
    from orkestra.doctor.index import check_index
    from orkestra.doctor.programs import check_hooks, check_plugins, check_servers

    wanted = set(checks)
    found: list[Finding] = []
    if "gitignore" in wanted:
        found += check_gitignore(root, output_paths(root, config))
    if "server" in wanted:
        found += check_servers(root, config, probe=probe)
    if "index" in wanted:
        found += check_index(root, probe=probe)
    if "hooks" in wanted:
        found += check_hooks(root, config)
    if "plugin" in wanted:
        found += check_plugins(probe=probe)
    return found


def warnings_for(root: Path, config: Any = None, checks: Iterable[str] = CHECKS) -> list[Finding]:
    """The cheap findings (nothing started, the index not read) ``init``, ``sync`` and ``validate
    --show-warnings`` print; never raises (a check that cannot run says nothing)."""
    try:
        return diagnose(root, config, probe=False, checks=checks)
    except Exception:  # noqa: BLE001 - a warning pass must never fail the command it decorates
        return []


def as_diagnostic(finding: Finding):
    """A finding as a validate warning (``doctor.<check>`` in the field)."""
    from orkestra.errors import Diagnostic

    return Diagnostic(
        finding.path or "orkestra.yaml",
        0,
        0,
        f"doctor.{finding.check}",
        f"{finding.message}; fix: {finding.fix}",
        "warning",
        code=f"doctor-{finding.check}",
    )


def _config(root: Path):
    from orkestra.workspace.config import load_config

    return load_config(root)  # the defaults when there is no orkestra.yaml


def fix(root: Path, findings: list[Finding], config: Any = None) -> list[dict[str, str]]:
    """Apply the safe repairs for ``findings``; what was done, one entry per repair."""
    config = config if config is not None else _config(root)
    done: list[dict[str, str]] = []
    checks = {f.check for f in findings if f.fixable}
    if "gitignore" in checks:
        from orkestra.doctor.gitignore import fix_gitignore, output_paths

        action = fix_gitignore(root, output_paths(root, config))
        if action:
            done.append({"check": "gitignore", "action": action})
    if "server" in checks:
        from orkestra.errors import OrkestraError
        from orkestra.render.sync import sync

        try:
            report = sync(root, apply=True)
        except OrkestraError as exc:  # hand-edited outputs, registry errors: sync's own refusal, reported
            done.append({"check": "server", "action": f"not fixed: orkestra sync refused: {exc}"})
        else:
            written = report.applied.written if report.applied is not None else ()
            done.append({"check": "server", "action": f"orkestra sync: wrote {len(written)} file(s)"})
    if "index" in checks:
        from maguyva.index.pipeline import index_repository

        summary = index_repository(root)
        done.append({"check": "index", "action": f"orkestra code index: {summary.files} file(s) indexed"})
    return done
