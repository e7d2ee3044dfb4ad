"""The ``server``, ``hooks`` and ``plugin`` checks: programs a client starts, resolved from a bare PATH."""

from __future__ import annotations

import functools
import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

from orkestra.doctor.finding import Finding
from orkestra.launcher import BARE_PATH, PROGRAMS, USER_LAUNCHER, bare_env, launch, launched


def _expand(value: str, root: Path) -> str:
    for var in ("${CLAUDE_PROJECT_DIR:-.}", "${CLAUDE_PROJECT_DIR}", "$CLAUDE_PROJECT_DIR"):
        value = value.replace(var, str(root))
    return value


def resolve(command: str, args: list[str], root: Path, *, probe: bool = True) -> tuple[bool, str]:
    """Whether ``command args`` (a ``.mcp.json`` stdio entry) starts from a bare PATH, and what was found
    or why not. ``probe`` runs the program's ``--version`` the way the client would start it."""
    command, args = _expand(command, root), [_expand(a, root) for a in args]
    launcher = launched(command, args)
    if launcher is not None:
        script, program, _ = launcher
        if not probe:
            found = _launcher_candidates(script, program, root)
            return (True, found[0]) if found else (False, f"no {program} in {_where(script)}")
        sh = shutil.which("sh", path=BARE_PATH) or "/bin/sh"
        return _run((sh, "-c", script, program, str(root), "--version"), root)
    program = command if os.sep in command else shutil.which(command, path=BARE_PATH)
    if program is None or not os.access(program, os.X_OK):
        elsewhere = shutil.which(command)
        return False, (
            f"`{command}` is not on {BARE_PATH}; only on this shell's PATH at {elsewhere} (an activated environment)"
            if elsewhere
            else f"`{command}` is not found on {BARE_PATH} nor on this PATH"
        )
    if probe and len(args) >= 2 and args[0] == "-m" and args[1] in PROGRAMS:  # mcp.launcher: absolute
        return _run((program, "-m", args[1], "--version"), root)
    return True, program


def _where(script: str) -> str:
    return (
        "PATH or ~/.local/bin"
        if script == USER_LAUNCHER
        else "the project's .venv, venv, .pixi, PATH or ~/.local/bin"
    )


def _launcher_candidates(script: str, program: str, root: Path) -> list[str]:
    """The programs the launcher would try, in its order, that exist (the script without running it)."""
    home = Path(os.environ.get("HOME", str(Path.home())))
    places = (
        []
        if script == USER_LAUNCHER
        else [root / ".venv/bin", root / "venv/bin", root / ".pixi/envs/default/bin"]
    )
    candidates = [str(p / program) for p in places]
    candidates += [shutil.which(program, path=BARE_PATH) or "", str(home / ".local/bin" / program)]
    return [c for c in candidates if c and os.path.isfile(c) and os.access(c, os.X_OK)]


@functools.lru_cache(maxsize=32)
def _run(argv: tuple[str, ...], root: Path) -> tuple[bool, str]:
    """``argv`` started the way a client starts a server (bare PATH); once per process for each command
    (both bundled servers share one launcher)."""
    try:
        proc = subprocess.run(
            list(argv), cwd=root, env=bare_env(), capture_output=True, text=True, timeout=60
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return False, str(exc)
    said = (proc.stdout.strip() or proc.stderr.strip()).splitlines()
    return proc.returncode == 0, (said[-1] if said else f"exit {proc.returncode}")


def check_servers(root: Path, config: Any, *, probe: bool = True) -> list[Finding]:
    rel = config.paths.mcp_config.strip("/")
    mode = config.mcp.launcher
    entries = _servers_in(root / rel)
    pending = ""
    if entries is None and not (root / "orkestra.yaml").is_file():
        return []  # a repository without orkestra: nothing is rendered here
    if entries is None:  # not rendered yet (init): what sync will render for the bundled servers
        command, args = launch("orkestra", ["serve"], mode)
        entries = {"orkestra": {"type": "stdio", "command": command, "args": args}}
        pending = " once `orkestra sync` renders it"
    found = []
    for name, entry in sorted(entries.items()):
        command = entry.get("command")
        if entry.get("type", "stdio") != "stdio" or not isinstance(command, str) or not command:
            continue
        args = [str(a) for a in entry.get("args") or []]
        ok, detail = resolve(command, args, root, probe=probe)
        if ok:
            if args[:1] == ["-m"] and args[1:2] and args[1] in PROGRAMS and _tracked(root, rel):
                found.append(_absolute_committed(name, command, rel))  # mcp.launcher: absolute, committed
            continue
        ours = launched(command, args) is not None
        stale = not ours and command in PROGRAMS and mode == "project"
        fix = (
            "`orkestra sync` renders it with the launcher (mcp.launcher: project)"
            if stale
            else "create the project environment at .venv with orkestra in it (`uv venv && uv pip install "
            "orkestra`), or install it for every repository (`uv tool install orkestra`)"
            if ours
            else "set `mcp: {launcher: project}` in orkestra.yaml and run `orkestra sync` (docs/mcp.md)"
            if command in PROGRAMS
            else f"install `{command}` where a bare PATH finds it, or give its absolute path in registries/tools.yaml"
        )
        bundled = ours or command in PROGRAMS  # another vendor's server may rely on a PATH we cannot see
        found.append(
            Finding(
                "server",
                "error" if bundled else "warning",
                f"MCP server {name!r} will not start from a bare PATH{pending}, so the client shows "
                f"'Failed to connect': {detail}",
                fix,
                rel,
                stale,
            )
        )
    return found


def _absolute_committed(name: str, command: str, rel: str) -> Finding:
    return Finding(
        "server",
        "warning",
        f"MCP server {name!r} starts {command}, a path of this machine, in a committed file: other clones "
        "cannot start it and `orkestra sync --check` fails there",
        "keep `mcp.launcher: absolute` for uncommitted setups; commit the portable `project` launcher",
        rel,
    )


def _servers_in(path: Path) -> dict[str, dict] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        return {}
    servers = data.get("mcpServers") if isinstance(data, dict) else None
    return {k: v for k, v in servers.items() if isinstance(v, dict)} if isinstance(servers, dict) else {}


def _tracked(root: Path, rel: str) -> bool:
    from orkestra import git

    return bool(git.output(root, "ls-files", "--", rel).strip())


def check_hooks(root: Path, config: Any) -> list[Finding]:
    rel = f"{config.paths.output.strip('/')}/settings.json"
    try:
        settings = json.loads((root / rel).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    hooks = settings.get("hooks") if isinstance(settings, dict) else None
    programs: dict[str, list[str]] = {}
    for event, groups in (hooks or {}).items() if isinstance(hooks, dict) else ():
        for group in groups if isinstance(groups, list) else ():
            for hook in (group.get("hooks") or []) if isinstance(group, dict) else ():
                if isinstance(hook, dict) and hook.get("type") == "command" and hook.get("command"):
                    word = _program(str(hook["command"]), root)
                    if word:
                        programs.setdefault(word, []).append(event)
    found = []
    for program, events in sorted(programs.items()):
        where = str(root / program) if "/" in program and not os.path.isabs(program) else program
        if "/" in program:
            ok, elsewhere = os.path.isfile(where) and os.access(where, os.X_OK), None
        else:
            ok, elsewhere = shutil.which(program, path=BARE_PATH) is not None, shutil.which(program)
        if ok:
            continue
        ours = program.startswith("orkestra")
        found.append(
            Finding(
                "hooks",
                "warning" if elsewhere else "error",
                f"{_events(events)} `{program}`, which "
                + (
                    f"a bare PATH does not find (only this shell's, at {elsewhere})"
                    if elsewhere
                    else "is not installed here"
                ),
                "install orkestra for every repository (`uv tool install orkestra`) or start Claude Code from "
                "the activated environment"
                if ours
                else f"install `{program}`, or change the hook that runs it",
                rel,
            )
        )
    return found


def _events(events: list[str]) -> str:
    names = sorted(set(events))
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    return f"the {shown} hook{'s run' if len(names) > 1 else ' runs'}"


def _program(command: str, root: Path) -> str:
    try:
        words = shlex.split(command)
    except ValueError:
        return ""
    if not words:
        return ""
    word = _expand(words[0], root)
    return os.path.expanduser(word)


def _claude_dir() -> Path:
    configured = os.environ.get("CLAUDE_CONFIG_DIR")
    return Path(configured) if configured else Path(os.environ.get("HOME", str(Path.home()))) / ".claude"


def installed_plugins() -> list[dict[str, Any]]:
    """Claude Code's installed plugins (``~/.claude/plugins/installed_plugins.json``, version 1 or 2):
    ``{"id", "scope", "project", "path"}`` each."""
    try:
        data = json.loads((_claude_dir() / "plugins" / "installed_plugins.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    plugins = data.get("plugins", data) if isinstance(data, dict) else {}
    found = []
    for ident, installs in plugins.items() if isinstance(plugins, dict) else ():
        for install in installs if isinstance(installs, list) else [installs]:
            if isinstance(install, dict):
                found.append(
                    {
                        "id": ident,
                        "scope": str(install.get("scope") or "user"),
                        "project": install.get("projectPath"),
                        "path": install.get("installPath"),
                    }
                )
    return found


def check_plugins(*, probe: bool = True) -> list[Finding]:
    found = []
    for plugin in installed_plugins():
        servers = _servers_in(Path(plugin["path"]) / ".mcp.json") if plugin["path"] else None
        ours = {
            name: entry
            for name, entry in (servers or {}).items()
            if entry.get("command") in PROGRAMS
            or launched(str(entry.get("command")), list(entry.get("args") or []))
        }
        if not ours:
            continue
        everywhere = plugin["scope"] == "user"
        found.append(
            Finding(
                "plugin",
                "info",
                f"plugin {plugin['id']} is installed at {plugin['scope']} scope"
                + (
                    f": its servers ({', '.join(sorted(ours))}) start in every repository, answering an error "
                    "where there is no orkestra.yaml or index"
                    if everywhere
                    else f" for {plugin['project']}"
                ),
                f"to keep it to one repository: `claude plugin uninstall {plugin['id']}` then "
                f"`claude plugin install {plugin['id']} --scope project` there"
                if everywhere
                else "nothing to do",
                str(plugin["path"]),
            )
        )
        elsewhere = Path(plugin["project"]) if plugin["project"] else Path(plugin["path"])
        for name, entry in sorted(ours.items()):
            ok, detail = resolve(
                str(entry["command"]), [str(a) for a in entry.get("args") or []], elsewhere, probe=probe
            )
            if not ok:
                found.append(
                    Finding(
                        "plugin",
                        "error",
                        f"plugin {plugin['id']}: server {name!r} fails to connect"
                        + (" in every repository" if everywhere else "")
                        + f": {detail}",
                        "install orkestra where any repository finds it (`uv tool install orkestra` or "
                        "`pipx install orkestra`)",
                        str(plugin["path"]),
                    )
                )
    return found
