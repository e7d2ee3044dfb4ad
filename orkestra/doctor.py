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

import json
import os
import shlex
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from orkestra.launcher import BARE_PATH, PROGRAMS, USER_LAUNCHER, bare_env, launch, launched

CHECKS = ("gitignore", "server", "index", "hooks", "plugin")
FIX_MARK = "# orkestra doctor --fix: rendered outputs must be committed (`orkestra sync --check` in CI)"


@dataclass(frozen=True)
class Finding:
    check: str  # one of CHECKS
    severity: str  # error | warning | info
    message: str
    fix: str  # what to do about it, in words and commands
    path: str = ""  # the file it concerns, repo-relative when inside the repository
    fixable: bool = False  # `orkestra doctor --fix` repairs it

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        where = f"{self.path}: " if self.path else ""
        return f"{where}{self.message}; fix: {self.fix}"


def diagnose(
    root: Path, config: Any = None, *, probe: bool = True, checks: Iterable[str] = CHECKS
) -> list[Finding]:
    """Every finding for the workspace at ``root`` (``config``: its ``OrkestraConfig``; None reads it,
    or takes the defaults when there is no ``orkestra.yaml``). ``probe`` starts the server commands
    and reads the index's state; without it nothing is started."""
    if config is None:
        config = _config(root)
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


# ---- gitignore ------------------------------------------------------------------------------------


def output_paths(root: Path, config: Any) -> list[str]:
    """What ``sync`` writes and must be committed: the manifest, every file it lists, ``.mcp.json``."""
    from orkestra.render.manifest import manifest_path, read_manifest_at

    manifest = manifest_path(config)
    paths = [manifest, config.paths.mcp_config.strip("/")]
    try:
        recorded = read_manifest_at(root, manifest)
    except Exception:  # noqa: BLE001 - a broken manifest is sync's to report, not doctor's
        recorded = None
    if recorded is not None:
        paths += sorted({*recorded.files, *recorded.merged})
    return list(dict.fromkeys(p for p in paths if p))


def ignored(root: Path, paths: Iterable[str]) -> list[tuple[str, str, str, str]]:
    """``(path, source, line, pattern)`` for each of ``paths`` git ignores (untracked ones only: a
    tracked file is never ignored); ``[]`` outside a git repository or without git."""
    from orkestra import git

    asked = [p for p in dict.fromkeys(paths) if p]
    if not asked:
        return []
    try:
        proc = git.run(root, "check-ignore", "--stdin", "-z", "-v", input="\0".join(asked) + "\0", timeout=30)
    except (OSError, subprocess.SubprocessError):
        return []
    if proc.returncode not in (0, 1):  # 128: not a repository
        return []
    fields = proc.stdout.split("\0")
    hits = []
    for index in range(0, len(fields) - 3, 4):
        source, line, pattern, path = fields[index : index + 4]
        if not pattern.startswith("!"):  # -v also prints negations, which un-ignore
            hits.append((path, source, line, pattern))
    return hits


def check_gitignore(root: Path, paths: Iterable[str]) -> list[Finding]:
    hits = ignored(root, paths)
    by_rule: dict[tuple[str, str, str], list[str]] = {}
    for path, source, line, pattern in hits:
        by_rule.setdefault((source, line, pattern), []).append(path)
    found = []
    for (source, line, pattern), paths_hit in by_rule.items():
        shown = paths_hit[0] + (f" and {len(paths_hit) - 1} more" if len(paths_hit) > 1 else "")
        ours = _root_gitignore(root, source)
        found.append(
            Finding(
                "gitignore",
                "error",
                f"{shown} ignored by {_short(root, source)}:{line} ({pattern}): sync's outputs cannot be "
                "committed, so `orkestra sync --check` fails on every fresh clone",
                "`orkestra doctor --fix` appends a negation to .gitignore (and keeps "
                ".claude/settings.local.json ignored)"
                if ours
                else f"remove or narrow the rule at {_short(root, source)}:{line} (outside the repository's "
                ".gitignore, so --fix leaves it), or move the outputs (paths.output in orkestra.yaml)",
                paths_hit[0],
                ours,
            )
        )
    return found


def _root_gitignore(root: Path, source: str) -> bool:
    return source == ".gitignore" or Path(source) == root / ".gitignore"


def _short(root: Path, source: str) -> str:
    try:
        return str(Path(source).relative_to(root)) if Path(source).is_absolute() else source
    except ValueError:
        return source


def fix_gitignore(root: Path, paths: Iterable[str]) -> str | None:
    """Re-include the ignored outputs with negations appended to the root ``.gitignore``; kept only
    when git confirms every output is then committable (else the file is put back). What was done."""
    hits = [h for h in ignored(root, paths) if _root_gitignore(root, h[1])]
    if not hits:
        return None
    gitignore = root / ".gitignore"
    before = gitignore.read_bytes() if gitignore.exists() else b""
    paths_hit = [h[0] for h in hits]
    tops = {p.split("/", 1)[0]: "/" in p for p in paths_hit}
    lines = [f"!/{top}/" if is_dir else f"!/{top}" for top, is_dir in sorted(tops.items())]
    if tops.get(".claude"):
        lines.append("/.claude/settings.local.json")  # personal settings stay out of the repository
    attempts = [lines, lines + [f"!/{p}" for p in paths_hit]]  # a deeper rule needs the file itself
    for attempt in attempts:
        text = before.decode("utf-8", "replace")
        text += ("" if not text or text.endswith("\n") else "\n") + "\n" + FIX_MARK + "\n"
        gitignore.write_text(text + "\n".join(attempt) + "\n", encoding="utf-8")
        if not ignored(root, paths_hit):
            return f".gitignore: appended {', '.join(attempt)}"
    gitignore.write_bytes(before)  # git still ignores them (a parent folder's rule): leave it as it was
    return None


# ---- servers --------------------------------------------------------------------------------------


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
        return _run([sh, "-c", script, program, str(root), "--version"], root)
    program = command if os.sep in command else shutil.which(command, path=BARE_PATH)
    if program is None or not os.access(program, os.X_OK):
        elsewhere = shutil.which(command)
        return False, (
            f"`{command}` is not on {BARE_PATH}; only on this shell's PATH at {elsewhere} (an activated environment)"
            if elsewhere
            else f"`{command}` is not found on {BARE_PATH} nor on this PATH"
        )
    if probe and len(args) >= 2 and args[0] == "-m" and args[1] in PROGRAMS:  # mcp.launcher: absolute
        return _run([program, "-m", args[1], "--version"], root)
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


def _run(argv: list[str], root: Path) -> tuple[bool, str]:
    try:
        proc = subprocess.run(argv, cwd=root, env=bare_env(), capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError) as exc:
        return False, str(exc)
    said = (proc.stdout.strip() or proc.stderr.strip()).splitlines()
    return proc.returncode == 0, (said[-1] if said else f"exit {proc.returncode}")


def check_servers(root: Path, config: Any, *, probe: bool = True) -> list[Finding]:
    rel = config.paths.mcp_config.strip("/")
    mode = config.mcp.launcher
    entries = _servers_in(root / rel)
    if entries is None:  # not rendered yet (init): what sync will render for the bundled servers
        command, args = launch("orkestra", ["serve"], mode)
        entries = {"orkestra": {"type": "stdio", "command": command, "args": args}}
        rel = f"{rel} (once synced)"
    found = []
    for name, entry in sorted(entries.items()):
        command = entry.get("command")
        if entry.get("type", "stdio") != "stdio" or not isinstance(command, str) or not command:
            continue
        args = [str(a) for a in entry.get("args") or []]
        ok, detail = resolve(command, args, root, probe=probe)
        if ok:
            if os.path.isabs(command) and _tracked(root, rel):
                found.append(_absolute_committed(name, command, rel))
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
        found.append(
            Finding(
                "server",
                "error",
                f"MCP server {name!r} will not start from a bare PATH, so the client shows "
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


# ---- index ----------------------------------------------------------------------------------------


def check_index(root: Path, *, probe: bool = True) -> list[Finding]:
    from maguyva.errors import MaguyvaError, NotARepositoryError
    from maguyva.store.location import locating

    try:
        _, location = locating(root, None)()
    except NotARepositoryError:
        return []  # no git: nothing to index by default (the server says so on each call)
    except MaguyvaError as exc:
        return [
            Finding(
                "index",
                "error",
                str(exc),
                "fix maguyva.store in orkestra.yaml (docs/cli.md)",
                "orkestra.yaml",
            )
        ]
    if not isinstance(location, Path):
        return []  # a team store is the team server's to keep
    if not location.exists():
        return [
            Finding(
                "index",
                "warning",
                f"no code index at {location}: the maguyva server answers every tool with an error until there is one",
                "`orkestra code index`",
                fixable=True,
            )
        ]
    if not probe:
        return []
    try:
        from maguyva.api import Maguyva

        api = Maguyva.open(root)
        try:
            status = api.index_status()
        finally:
            api.close()
    except MaguyvaError as exc:
        return [Finding("index", "error", f"the index cannot be read: {exc}", "`orkestra code index --full`")]
    changed = status.not_in_map_count or 0
    if not changed:
        return []
    return [
        Finding(
            "index",
            "warning",
            f"the index is stale: {changed} file(s) changed since it was built",
            "`orkestra code index` (incremental)",
            fixable=True,
        )
    ]


# ---- hooks ----------------------------------------------------------------------------------------


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
                f"{_events(events)} run `{program}`, which "
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
    return f"the {shown} hook{'s' if len(names) > 1 else ''}"


def _program(command: str, root: Path) -> str:
    try:
        words = shlex.split(command)
    except ValueError:
        return ""
    if not words:
        return ""
    word = _expand(words[0], root)
    return os.path.expanduser(word)


# ---- plugins --------------------------------------------------------------------------------------


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


# ---- fix ------------------------------------------------------------------------------------------


def fix(root: Path, findings: list[Finding], config: Any = None) -> list[dict[str, str]]:
    """Apply the safe repairs for ``findings``; what was done, one entry per repair."""
    config = config if config is not None else _config(root)
    done: list[dict[str, str]] = []
    checks = {f.check for f in findings if f.fixable}
    if "gitignore" in checks:
        action = fix_gitignore(root, output_paths(root, config))
        if action:
            done.append({"check": "gitignore", "action": action})
    if "server" in checks:
        from orkestra.render.sync import sync

        report = sync(root, apply=True)
        written = report.applied.written if report.applied is not None else ()
        done.append({"check": "server", "action": f"orkestra sync: wrote {len(written)} file(s)"})
    if "index" in checks:
        from maguyva.index.pipeline import index_repository

        summary = index_repository(root)
        done.append({"check": "index", "action": f"orkestra code index: {summary.files} file(s) indexed"})
    return done
