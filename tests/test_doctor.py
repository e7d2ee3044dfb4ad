"""`orkestra doctor` and the servers that start anywhere (issue 32, items 1 and 2).

Real git repositories in temp folders, the real CLI (in-process), and real MCP sessions
against the command `.mcp.json` renders, started from a bare PATH (no venv on it), the way a
client started outside an activated shell starts it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import conftest
import pytest
from clirun import run_cli
from conftest import git

from orkestra.launcher import BARE_PATH, PROJECT_LAUNCHER, USER_LAUNCHER

PROJECT_DIR_VARS = ("${CLAUDE_PROJECT_DIR:-.}", "${CLAUDE_PROJECT_DIR}")


def console_script(folder: Path) -> Path:
    """``folder/orkestra``: the installed console script linked in (a real environment's), else a
    one-line wrapper of this interpreter; either way the only orkestra a bare PATH can reach there."""
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "orkestra"
    installed = Path(sys.executable).parent / "orkestra"
    if installed.is_file():
        target.symlink_to(installed)
    else:
        target.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m orkestra "$@"\n')
        target.chmod(0o755)
    return target


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """An empty home folder: no ~/.local/bin, no Claude Code settings of the machine running the tests."""
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


def isolated(home: Path, **extra: str) -> dict[str, str]:
    return {"HOME": str(home), "CLAUDE_CONFIG_DIR": str(home / ".claude"), **extra}


def project(repo: Path, ignore: str = "") -> Path:
    """A small Python project, committed; ``ignore`` is its .gitignore."""
    (repo / "pyproject.toml").write_text('[project]\nname = "shop"\nversion = "1.0"\n')
    (repo / "shop").mkdir()
    (repo / "shop" / "__init__.py").write_text("def total(items):\n    return sum(items)\n")
    if ignore:
        (repo / ".gitignore").write_text(ignore)
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "init")
    return repo


def doctor(repo: Path, home: Path, *args: str, env: dict | None = None, run=run_cli) -> tuple[int, dict]:
    done = run("doctor", "--json", *args, cwd=repo, env={**isolated(home), **(env or {})})
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


def checks(report: dict, severity: str = "error") -> list[str]:
    return [f["check"] for f in report["findings"] if f["severity"] == severity]


def expand(value: str, repo: Path) -> str:
    for var in PROJECT_DIR_VARS:
        value = value.replace(var, str(repo))
    return value


def session(command: str, args: list[str], cwd: Path, env: dict, tool: str, arguments: dict | None = None):
    """initialize + tools/list + one tools/call against ``command args``, as a client starts it."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=command, args=args, env=env, cwd=str(cwd))

    async def go():
        with anyio.fail_after(120):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
                await client.initialize()
                listed = await client.list_tools()
                return {t.name for t in listed.tools}, await client.call_tool(tool, arguments or {})

    return anyio.run(go)


def rendered_session(repo: Path, name: str, env: dict, tool: str, arguments: dict | None = None):
    entry = json.loads((repo / ".mcp.json").read_text())["mcpServers"][name]
    return session(
        expand(entry["command"], repo), [expand(a, repo) for a in entry["args"]], repo, env, tool, arguments
    )


# ---- item 1: a gitignored .claude/ ----------------------------------------------------------------


def test_a_gitignored_claude_folder_is_reported_everywhere_and_fixed_so_a_fresh_clone_is_in_sync(
    git_repo, home, tmp_path
):
    """xarray ignores .claude/: init, sync and validate warn, doctor fails, --fix re-includes it, and a
    fresh clone of what could then be committed passes `sync --check` (it fails before the fix)."""
    repo = project(git_repo, ignore="__pycache__/\n.claude/\n")
    env = isolated(home)
    init = run_cli("init", cwd=repo, env=env)
    assert init.returncode == 0, init.stderr
    assert "warning: .claude/.orkestra-manifest.json" in init.stderr
    assert ".gitignore:2" in init.stderr
    synced = run_cli("sync", cwd=repo, env=env)
    assert synced.returncode == 0
    assert "ignored by .gitignore:2 (.claude/)" in synced.stderr
    validated = run_cli("validate", "--show-warnings", cwd=repo, env=env)
    assert validated.returncode == 0
    assert "doctor.gitignore" in validated.stdout

    code, report = doctor(repo, home)
    assert code == 1
    assert report["ok"] is False
    assert "gitignore" in checks(report)
    finding = next(f for f in report["findings"] if f["check"] == "gitignore")
    assert finding["fixable"] is True
    assert finding["path"] == ".claude/.orkestra-manifest.json"

    def fresh_clone_check(name: str) -> subprocess.CompletedProcess:
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", f"adopt orkestra ({name})", "--allow-empty")
        clone = tmp_path / name
        git(tmp_path, "clone", "-q", str(repo), str(clone))
        return run_cli("sync", "--check", cwd=clone, env=env)

    before = fresh_clone_check("before")
    # CI, now no longer silent
    assert before.returncode == 1
    assert "ignored by .gitignore" in before.stderr
    assert "bare PATH" not in before.stderr  # CI's PATH is not the question there

    code, report = doctor(repo, home, "--fix")
    assert "gitignore" not in checks(report)
    assert report["fixed"][0]["check"] == "gitignore"
    text = (repo / ".gitignore").read_text()
    # appended, nothing lost
    assert text.startswith("__pycache__/\n.claude/\n")
    assert "!/.claude/" in text
    (repo / ".claude" / "settings.local.json").write_text("{}")
    assert git(repo, "check-ignore", ".claude/settings.local.json").strip()  # personal settings stay out
    after = fresh_clone_check("after")
    assert after.returncode == 0, after.stdout + after.stderr


def test_a_rule_outside_the_repositorys_gitignore_is_named_and_left_alone(git_repo, home):
    repo = project(git_repo)
    assert run_cli("init", cwd=repo, env=isolated(home)).returncode == 0
    assert run_cli("sync", cwd=repo, env=isolated(home)).returncode == 0
    exclude = repo / ".git" / "info" / "exclude"
    exclude.write_text(exclude.read_text() + "/.mcp.json\n")
    before = (repo / ".gitignore").read_text()
    code, report = doctor(repo, home, "--fix")
    finding = next(f for f in report["findings"] if f["check"] == "gitignore")
    assert code == 1
    assert finding["fixable"] is False
    assert ".git/info/exclude" in finding["message"]
    assert report["fixed"] == [] or all(d["check"] != "gitignore" for d in report["fixed"])
    assert (repo / ".gitignore").read_text() == before


def test_tracked_outputs_are_never_reported(git_repo, home):
    """A committed output is not ignored whatever a later rule says (git only ignores untracked files)."""
    repo = project(git_repo)
    assert run_cli("init", cwd=repo, env=isolated(home)).returncode == 0
    assert run_cli("sync", cwd=repo, env=isolated(home)).returncode == 0
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt")
    (repo / ".gitignore").write_text((repo / ".gitignore").read_text() + ".claude/\n")
    _, report = doctor(repo, home)
    assert "gitignore" not in checks(report)


# ---- item 2: servers that start from a bare PATH ------------------------------------------------


def test_the_rendered_servers_answer_from_a_bare_path_with_a_project_venv(git_repo, home):
    """init + sync render the launcher; from PATH=/usr/bin:/bin (no venv on it) both servers initialize,
    list their tools and answer a call, the maguyva one with 'what to run' while there is no index."""
    repo = project(git_repo)
    env = isolated(home)
    assert run_cli("init", cwd=repo, env=env).returncode == 0
    assert run_cli("sync", cwd=repo, env=env).returncode == 0
    servers = json.loads((repo / ".mcp.json").read_text())["mcpServers"]
    assert {s["command"] for s in servers.values()} == {"sh"}
    assert all(s["args"][1] == PROJECT_LAUNCHER and str(repo) not in json.dumps(s) for s in servers.values())
    console_script(repo / ".venv" / "bin")  # the project's own environment, not activated
    bare = {"PATH": BARE_PATH, "HOME": str(home)}

    tools, answer = rendered_session(repo, "orkestra", bare, "list_agents_skills")
    assert "why" in tools
    assert not answer.is_error
    assert "orchestrator" in [a["name"] for a in answer.structured_content["agents"]]
    tools, answer = rendered_session(repo, "maguyva", bare, "index_status")
    assert "intelligent_search" in tools
    assert answer.is_error
    assert "run `orkestra code index`" in answer.content[0].text

    code, report = doctor(repo, home)
    assert "server" not in checks(report), report
    assert code == 0, report


def test_a_bare_orkestra_command_fails_from_a_bare_path_and_doctor_says_how_to_fix_it(git_repo, home):
    """`mcp.launcher: path` renders the old bare `orkestra`: it cannot start without the venv on PATH
    (what Claude Code showed as 'Failed to connect'), and doctor reports it with the fix."""
    repo = project(git_repo)
    env = isolated(home)
    assert run_cli("init", cwd=repo, env=env).returncode == 0
    config = repo / "orkestra.yaml"
    config.write_text(config.read_text() + "\nmcp: {launcher: path}\n")
    assert run_cli("sync", cwd=repo, env=env).returncode == 0
    entry = json.loads((repo / ".mcp.json").read_text())["mcpServers"]["orkestra"]
    assert entry["command"] == "orkestra"
    with pytest.raises(BaseException):  # noqa: B017 - the spawn itself fails: there is no such program
        rendered_session(repo, "orkestra", {"PATH": BARE_PATH, "HOME": str(home)}, "list_agents_skills")

    code, report = doctor(repo, home)
    server = [f for f in report["findings"] if f["check"] == "server"]
    assert code == 1
    assert len(server) == 2
    assert all(f["severity"] == "error" for f in server)
    assert "launcher: project" in server[0]["fix"]
    assert server[0]["path"] == ".mcp.json"


def test_doctor_fix_rerenders_a_mcp_json_from_before_the_launcher(git_repo, home):
    repo = project(git_repo)
    env = isolated(home)
    assert run_cli("init", cwd=repo, env=env).returncode == 0
    config = repo / "orkestra.yaml"
    original = config.read_text()
    config.write_text(original + "\nmcp: {launcher: path}\n")
    assert run_cli("sync", cwd=repo, env=env).returncode == 0
    config.write_text(original)  # the default again, not synced yet: .mcp.json still starts `orkestra`
    console_script(repo / ".venv" / "bin")
    code, report = doctor(repo, home)
    assert code == 1
    assert any(f["check"] == "server" and f["fixable"] for f in report["findings"])
    code, report = doctor(repo, home, "--fix")
    assert code == 0, report
    assert "server" not in checks(report), report
    assert json.loads((repo / ".mcp.json").read_text())["mcpServers"]["orkestra"]["command"] == "sh"


def test_the_launcher_says_what_to_install_when_nothing_is_found(git_repo, home):
    done = subprocess.run(
        ["sh", "-c", PROJECT_LAUNCHER, "orkestra", str(git_repo), "serve"],
        env={"PATH": BARE_PATH, "HOME": str(home)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 127
    assert "uv tool install orkestra" in done.stderr
    assert "mcp.launcher" in done.stderr


def test_an_absolute_launcher_is_this_interpreter_and_doctor_warns_when_it_is_committed(git_repo, home):
    repo = project(git_repo)
    env = isolated(home)
    assert run_cli("init", cwd=repo, env=env).returncode == 0
    config = repo / "orkestra.yaml"
    config.write_text(config.read_text() + "\nmcp: {launcher: absolute}\n")
    assert run_cli("sync", cwd=repo, env=env).returncode == 0
    entry = json.loads((repo / ".mcp.json").read_text())["mcpServers"]["orkestra"]
    assert Path(entry["command"]).is_absolute()
    assert entry["args"][:2] == ["-m", "orkestra"]
    tools, answer = rendered_session(
        repo, "orkestra", {"PATH": BARE_PATH, "HOME": str(home)}, "get_truth", {"truth_id": "GT-NOPE-1"}
    )
    assert "search_registry" in tools
    assert answer.is_error
    _, report = doctor(repo, home)
    assert "server" not in checks(report)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "adopt")
    _, report = doctor(repo, home)
    assert "server" in checks(report, "warning")


# ---- servers without an index or orkestra.yaml; the plugin at user scope -------------------------


def test_the_plugin_servers_start_in_a_repository_without_orkestra_and_answer_what_to_run(
    git_repo, home, tmp_path
):
    """A plugin at user scope starts its servers in every repository: in one with neither orkestra.yaml
    nor an index, from a bare PATH with orkestra installed as a tool (~/.local/bin), both start and
    every call answers an error saying what to run."""
    from orkestra.render.environment import template_loader
    from orkestra.render.targets.plugin import plugin_files
    from orkestra.workspace import Workspace

    source = project(git_repo)
    assert run_cli("init", cwd=source, env=isolated(home)).returncode == 0
    ws = Workspace.load(source)
    files = {rel: text for rel, text, _ in plugin_files(ws, template_loader(source / "templates"), "")}
    servers = json.loads(next(t for r, t in files.items() if r.endswith(".mcp.json")))["mcpServers"]
    assert all(s["command"] == "sh" and s["args"][1] == USER_LAUNCHER for s in servers.values())

    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q", "-b", "main")
    console_script(home / ".local" / "bin")
    bare = {"PATH": BARE_PATH, "HOME": str(home)}
    entry = servers["orkestra"]
    tools, answer = session(
        "sh", [expand(a, other) for a in entry["args"]], other, bare, "why", {"target": "x.py"}
    )
    assert "why" in tools
    assert answer.is_error
    assert "orkestra init" in answer.content[0].text
    entry = servers["maguyva"]
    tools, answer = session("sh", [expand(a, other) for a in entry["args"]], other, bare, "repo_overview")
    assert "repo_overview" in tools
    assert answer.is_error
    assert "orkestra code index" in answer.content[0].text


def test_serve_without_orkestra_yaml_answers_after_init_without_a_restart(git_repo, home):
    """`orkestra serve` used to exit 1 without orkestra.yaml; now the same session works once it exists."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    repo = project(git_repo)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "orkestra", "serve"],
        env={**os.environ, **isolated(home)},
        cwd=str(repo),
    )

    async def go():
        with anyio.fail_after(120):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
                await client.initialize()
                first = await client.call_tool("list_agents_skills", {})
                made = await anyio.to_thread.run_sync(lambda: run_cli("init", cwd=repo, env=isolated(home)))
                return first, made, await client.call_tool("list_agents_skills", {})

    first, made, second = anyio.run(go)
    assert first.is_error
    assert f"orkestra init {repo}" in first.content[0].text
    assert made.returncode == 0
    assert not second.is_error
    assert second.structured_content["agents"]


def test_doctor_reports_the_plugin_scope_and_a_plugin_server_that_cannot_start(git_repo, home, tmp_path):
    repo = project(git_repo)
    assert run_cli("init", cwd=repo, env=isolated(home)).returncode == 0
    built = run_cli(
        "plugin", "build", "--out", str(tmp_path / "market"), "--format", "json", cwd=repo, env=isolated(home)
    )
    assert built.returncode == 0, built.stderr
    plugin_dir = tmp_path / "market" / "plugins" / "shop"
    installed = home / ".claude" / "plugins" / "installed_plugins.json"
    installed.parent.mkdir(parents=True)
    installed.write_text(
        json.dumps(
            {
                "version": 2,
                "plugins": {"shop@shop-marketplace": [{"scope": "user", "installPath": str(plugin_dir)}]},
            }
        )
    )
    code, report = doctor(repo, home)
    scope = next(f for f in report["findings"] if f["check"] == "plugin" and f["severity"] == "info")
    assert "user scope" in scope["message"]
    assert "every repository" in scope["message"]
    assert "--scope project" in scope["fix"]
    failing = [f for f in report["findings"] if f["check"] == "plugin" and f["severity"] == "error"]
    assert code == 1
    assert failing
    assert "uv tool install orkestra" in failing[0]["fix"]
    console_script(home / ".local" / "bin")  # installed as a tool: found from any repository
    # a new process: doctor starts each server once per process
    _, report = doctor(repo, home, run=conftest.run_cli)
    assert not [f for f in report["findings"] if f["check"] == "plugin" and f["severity"] == "error"]


# ---- index and hooks -----------------------------------------------------------------------------


def test_a_missing_then_stale_index_is_reported_and_fix_builds_it(git_repo, home):
    repo = project(git_repo)
    assert run_cli("init", cwd=repo, env=isolated(home)).returncode == 0
    _, report = doctor(repo, home)
    index = next(f for f in report["findings"] if f["check"] == "index")
    assert "no code index" in index["message"]
    assert index["fixable"]
    assert index["severity"] == "warning"
    _, report = doctor(repo, home, "--fix")
    assert any(d["check"] == "index" for d in report["fixed"])
    assert "index" not in checks(report, "warning")
    (repo / "shop" / "extra.py").write_text("def more():\n    return 1\n")
    _, report = doctor(repo, home)
    stale = next(f for f in report["findings"] if f["check"] == "index")
    assert "stale: 1 file(s) changed" in stale["message"]


def test_hooks_whose_program_a_bare_path_cannot_find_are_reported(git_repo, home):
    repo = project(git_repo)
    assert run_cli("init", cwd=repo, env=isolated(home)).returncode == 0
    settings = repo / ".claude" / "settings.json"
    settings.parent.mkdir(exist_ok=True)
    hooks = {
        "PreToolUse": [{"hooks": [{"type": "command", "command": "no-such-program-xyz --flag"}]}],
        "Stop": [{"hooks": [{"type": "command", "command": "sh -c 'exit 0'"}]}],
        "SessionStart": [{"hooks": [{"type": "command", "command": "only-here"}]}],
    }
    settings.write_text(json.dumps({"hooks": hooks}))
    console_script(home / "bin")
    (home / "bin" / "orkestra").rename(home / "bin" / "only-here")
    _, report = doctor(repo, home, env={"PATH": f"{home / 'bin'}:{os.environ['PATH']}"})
    found = {f["message"].split("`")[1]: f["severity"] for f in report["findings"] if f["check"] == "hooks"}
    assert found == {"no-such-program-xyz": "error", "only-here": "warning"}  # sh is on a bare PATH


def test_the_json_shape_is_stable(git_repo, home):
    repo = project(git_repo)
    assert run_cli("init", cwd=repo, env=isolated(home)).returncode == 0
    _, report = doctor(repo, home)
    assert set(report) == {"root", "ok", "errors", "warnings", "findings", "fixed"}
    assert all(
        set(f) == {"check", "severity", "message", "fix", "path", "fixable"} for f in report["findings"]
    )
    text = run_cli("doctor", cwd=repo, env=isolated(home))
    assert text.stdout.splitlines()[-1].startswith(
        f"{report['errors']} error(s), {report['warnings']} warning(s)"
    )


def test_code_serve_without_an_index_answers_what_to_run_then_answers_once_indexed(git_repo, home):
    """`orkestra code serve` used to exit 1 without an index; the same session now answers after indexing."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    repo = project(git_repo)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "orkestra", "code", "serve", "--repo", str(repo)],
        env={**os.environ, **isolated(home), "MAGUYVA_STORE": ""},
        cwd=str(repo),
    )

    async def go():
        with anyio.fail_after(120):
            async with stdio_client(params) as (read, write), ClientSession(read, write) as client:
                await client.initialize()
                first = await client.call_tool("find_symbol", {"symbol_name": "total"})
                made = await anyio.to_thread.run_sync(
                    lambda: run_cli("code", "index", cwd=repo, env={**isolated(home), "MAGUYVA_STORE": ""})
                )
                return first, made, await client.call_tool("find_symbol", {"symbol_name": "total"})

    first, made, second = anyio.run(go)
    assert first.is_error
    assert "run `orkestra code index`" in first.content[0].text
    assert made.returncode == 0, made.stderr
    assert not second.is_error
    assert second.structured_content["count"] == 1


def test_another_vendors_server_missing_from_a_bare_path_is_a_warning_and_ours_an_error(git_repo, home):
    repo = project(git_repo)
    servers = {
        "vendor": {"type": "stdio", "command": "no-such-mcp-server-xyz", "args": []},
        "remote": {"type": "http", "url": "https://mcp.example/mcp"},
        "maguyva": {"type": "stdio", "command": "orkestra", "args": ["code", "serve"]},
    }
    (repo / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    code, report = doctor(repo, home)
    found = {f["message"].split("'")[1]: f["severity"] for f in report["findings"] if f["check"] == "server"}
    # an HTTP server starts nothing
    assert code == 1
    assert found == {"vendor": "warning", "maguyva": "error"}
