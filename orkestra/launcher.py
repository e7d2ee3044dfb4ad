"""How a rendered MCP configuration starts the bundled servers without an activated environment.

A client (Claude Code, Cursor, …) starts a stdio server with its own PATH, rarely the one of the
shell where a virtual environment was activated, so a bare ``orkestra`` fails to connect. The
rendered command must also be the same text on every clone: ``sync --check`` compares the
committed ``.mcp.json`` on a fresh clone in CI, at another path. ``orkestra.yaml`` ``mcp.launcher``
chooses (docs/mcp.md, "How the servers are started"):

- ``project`` (default): ``sh -c LAUNCHER orkestra DIR ARGS…``, a fixed script that runs the
  project's own environment (``DIR/.venv``, ``DIR/venv``, ``DIR/.pixi/envs/default``), else
  ``orkestra`` on PATH, else ``~/.local/bin/orkestra`` (pipx, ``uv tool``); otherwise it says on
  stderr what to install and exits 127. Portable: no machine path in it.
- ``path``: the bare program, for installs on every PATH (system packages; Windows, which has no ``sh``).
- ``absolute``: this interpreter's absolute path, ``<python> -m orkestra``: machine-specific, so
  only for an uncommitted configuration (``sync --check`` fails on other clones; doctor says so).

A plugin installed at user scope starts in every repository, including ones nobody vetted, so its
launcher (``user``) never runs a program from the opened repository: PATH and ``~/.local/bin`` only.
"""

from __future__ import annotations

import os
import sys
from typing import Literal

Mode = Literal["project", "path", "absolute"]
MODES: tuple[str, ...] = ("project", "path", "absolute")
PROGRAMS = ("orkestra", "maguyva")  # the bundled servers' console scripts, rewritten by the launcher
BARE_PATH = "/usr/bin:/bin"  # what a client started outside any shell profile may have
PROJECT_DIR = "${CLAUDE_PROJECT_DIR:-.}"
NOT_FOUND = 127

_ENVS = ('"$d/.venv/bin/$0"', '"$d/venv/bin/$0"', '"$d/.pixi/envs/default/bin/$0"')
_ANYWHERE = ('"$(command -v "$0")"', '"$HOME/.local/bin/$0"')


def _script(candidates: tuple[str, ...], where: str) -> str:
    return (
        "d=$1; shift; for p in " + " ".join(candidates) + '; do if [ -n "$p" ] && [ -x "$p" ]; '
        'then exec "$p" "$@"; fi; done; echo "$0: not found in ' + where + "; install it there "
        '(uv tool install orkestra) or set mcp.launcher in orkestra.yaml (docs/mcp.md)" >&2; '
        f"exit {NOT_FOUND}"
    )


# The two launchers. Their text is fixed (no machine path), so every clone renders the same bytes.
PROJECT_LAUNCHER = _script(_ENVS + _ANYWHERE, "$d/.venv, $d/venv, $d/.pixi, PATH or ~/.local/bin")
USER_LAUNCHER = _script(_ANYWHERE, "PATH or ~/.local/bin")
LAUNCHERS = (PROJECT_LAUNCHER, USER_LAUNCHER)


def launch(
    command: str,
    args: list[str],
    mode: str = "project",
    *,
    user: bool = False,
    project_dir: str = PROJECT_DIR,
) -> tuple[str, list[str]]:
    """The (command, args) a client runs for a bundled server written as ``command args`` in the tools
    registry; any other program is returned unchanged. ``user``: a plugin at user scope (no project
    environment is ever run); ``project_dir``: the client's own project-folder variable, or a path."""
    if command not in PROGRAMS:
        return command, list(args)
    if mode == "path":
        return command, list(args)
    if mode == "absolute":
        return sys.executable, ["-m", command, *args]
    script = USER_LAUNCHER if user else PROJECT_LAUNCHER
    return "sh", ["-c", script, command, project_dir, *args]


def launched(command: str, args: list[str]) -> tuple[str, str, list[str]] | None:
    """``(script, program, server args)`` when (command, args) is one of our launchers, else None."""
    if command == "sh" and len(args) >= 4 and args[0] == "-c" and args[1] in LAUNCHERS:
        return args[1], args[2], list(args[4:])
    return None


def bare_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a client started outside any shell profile: no venv on PATH."""
    env = {"PATH": BARE_PATH}
    for key in ("HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT"):
        if key in os.environ:
            env[key] = os.environ[key]
    return {**env, **(extra or {})}
