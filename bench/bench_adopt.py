"""Adoption on real repositories: init, sync, a fresh clone's ``sync --check``, and the rendered MCP servers
answering ``tools/list`` from a bare PATH.

For each public repository (a bare mirror under ``<mirrors>/<owner>+<name>/repo``, its HEAD): the tree is
laid out as a one-commit git repository, then, as a new user would, ``orkestra init`` (what it detected is
printed), ``orkestra sync``, a commit of what they wrote, a ``git clone`` of that commit, ``orkestra sync
--check`` in the clone (CI's question: exit 0; ``orkestra doctor --fix`` runs before the commit, as
docs/adopt.md says, so a gitignored ``.claude/`` is fixed first), and each server ``.mcp.json`` names started exactly as
written with ``PATH=/usr/bin:/bin`` (no activated venv) in the clone, where the user's project venv is
``.venv`` (a link to this checkout's, which has orkestra installed): ``initialize``, then ``tools/list``.

    python bench/bench_adopt.py [--mirrors DIR] [--repos pallets/flask,psf/requests,...] [--work DIR]

Prints one JSON line per repository and a summary line.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ORKESTRA = Path(sys.executable).parent / "orkestra"
DEFAULT_REPOS = (
    "pallets/flask",  # Python, a web framework, maintainers but no authors
    "psf/requests",  # Python, setup.py and __version__ in the package
    "pydata/xarray",  # Python, a gitignored .claude/, CLAUDE.md stating its test command
    "expressjs/express",  # JavaScript, package.json scripts
    "sindresorhus/ky",  # TypeScript
    "spf13/cobra",  # Go
)
GIT_ENV = {
    "GIT_AUTHOR_NAME": "bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
}


def emit(**fields) -> None:
    print(json.dumps(fields), flush=True)


def run(args: list[str], cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    env = {**os.environ, **GIT_ENV, "NO_COLOR": "1", "COLUMNS": "200"}
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env, timeout=600, **kwargs)


def lay_out(name: str, mirrors: Path, work: Path) -> Path:
    bare = mirrors / name.replace("/", "+") / "repo"
    if not bare.is_dir():
        raise SystemExit(f"no mirror of {name} at {bare} (fetch the public repository there)")
    tree = work / name.replace("/", "+")
    shutil.rmtree(tree, ignore_errors=True)
    tree.mkdir(parents=True)
    archive = subprocess.run(["git", f"--git-dir={bare}", "archive", "HEAD"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "upstream", "--no-verify"]):
        run(["git", *args], tree).check_returncode()
    return tree


def detected(init: dict) -> dict:
    """What init found, in a few fields (its ``project`` section)."""
    project = init.get("project") or {}
    keep = (
        "name",
        "version",
        "authors",
        "languages",
        "frameworks",
        "packages",
        "test_command",
        "lint_command",
        "build_command",
        "hubs",
        "entry_points",
    )
    return {key: project[key] for key in keep if key in project} | {"agents": init.get("agents")}


def tools_list(command: str, args: list[str], cwd: Path, home: Path, timeout: float = 60.0) -> dict:
    """Start one stdio server as ``.mcp.json`` names it, from a bare PATH, and ask ``tools/list``."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "CLAUDE_PROJECT_DIR": str(cwd), "LANG": "C.UTF-8"}
    expanded = [
        a.replace("${CLAUDE_PROJECT_DIR:-.}", str(cwd)).replace("${CLAUDE_PROJECT_DIR}", str(cwd))
        for a in args
    ]
    started = time.perf_counter()
    try:
        server = subprocess.Popen(
            [command, *expanded],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
    except OSError as exc:
        return {"ok": False, "error": f"{type(exc).__name__}: {exc}"}

    def send(message: dict) -> None:
        server.stdin.write((json.dumps(message) + "\n").encode())
        server.stdin.flush()

    try:
        send(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "bench", "version": "0"},
                },
            }
        )
        if read_reply(server, 1, timeout) is None:
            return {"ok": False, "error": "no reply to initialize", "stderr": stderr_tail(server)}
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        reply = read_reply(server, 2, timeout)
        if reply is None or "result" not in reply:
            return {"ok": False, "error": f"tools/list answered {reply}", "stderr": stderr_tail(server)}
        return {
            "ok": True,
            "tools": len(reply["result"].get("tools", [])),
            "ms_to_tools": round((time.perf_counter() - started) * 1000),
        }
    finally:
        server.kill()
        server.wait()


def read_reply(server: subprocess.Popen, wanted: int, timeout: float) -> dict | None:
    deadline = time.monotonic() + timeout
    buffer = b""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([server.stdout], [], [], max(0.0, deadline - time.monotonic()))
        if not ready:
            break
        chunk = os.read(server.stdout.fileno(), 65536)
        if not chunk:
            break
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if message.get("id") == wanted:
                return message
    return None


def stderr_tail(server: subprocess.Popen) -> str:
    server.kill()
    return (server.stderr.read() or b"").decode(errors="replace")[-400:]


def adopt(name: str, mirrors: Path, work: Path) -> dict:
    tree = lay_out(name, mirrors, work)
    out: dict = {"repo": name}
    started = time.perf_counter()
    init = run([str(ORKESTRA), "init", "--format", "json"], tree)
    out["init_exit"] = init.returncode
    out["init_seconds"] = round(time.perf_counter() - started, 1)
    try:
        answer = json.loads(init.stdout)
    except ValueError:
        answer = {}
        out["init_output"] = (init.stdout + init.stderr)[-600:]
    out["detected"] = detected(answer)
    out["init_warnings"] = answer.get("warnings")
    sync = run([str(ORKESTRA), "sync"], tree)
    out["sync_exit"] = sync.returncode
    if sync.returncode:
        out["sync_output"] = (sync.stdout + sync.stderr)[-600:]
    doctor = run([str(ORKESTRA), "doctor", "--fix", "--format", "json"], tree)  # docs/adopt.md's next step
    try:
        report = json.loads(doctor.stdout)
        out["doctor_fixed"] = [f.get("action") for f in report.get("fixed", [])]
    except ValueError:
        out["doctor_output"] = (doctor.stdout + doctor.stderr)[-400:]
    run(["git", "add", "-A"], tree)
    run(["git", "commit", "-qm", "chore: orkestra init and sync", "--no-verify"], tree)
    clone = work / (tree.name + "-clone")
    shutil.rmtree(clone, ignore_errors=True)
    run(["git", "clone", "-q", str(tree), str(clone)], work).check_returncode()
    check = run([str(ORKESTRA), "sync", "--check"], clone)
    out["fresh_clone_sync_check_exit"] = check.returncode
    if check.returncode:
        out["sync_check_output"] = (check.stdout + check.stderr)[-800:]
    (clone / ".venv").symlink_to(REPO / ".venv")  # the user's project venv, with orkestra installed
    servers = json.loads((clone / ".mcp.json").read_text()).get("mcpServers", {})
    home = work / "home"
    home.mkdir(exist_ok=True)
    out["servers"] = {
        server: tools_list(spec["command"], spec.get("args", []), clone, home)
        for server, spec in servers.items()
    }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--repos", default=",".join(DEFAULT_REPOS))
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "orkestra-adopt")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    results = []
    for name in args.repos.split(","):
        result = adopt(name.strip(), args.mirrors, args.work)
        results.append(result)
        emit(bench="adopt", **result)
    answered = sum(all(s.get("ok") for s in r["servers"].values()) and bool(r["servers"]) for r in results)
    emit(
        bench="adopt",
        repo="all",
        n=len(results),
        init_ok=sum(r["init_exit"] == 0 for r in results),
        sync_ok=sum(r["sync_exit"] == 0 for r in results),
        fresh_clone_in_sync=sum(r["fresh_clone_sync_check_exit"] == 0 for r in results),
        servers_answer_from_bare_path=answered,
    )


if __name__ == "__main__":
    main()
