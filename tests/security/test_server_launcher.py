"""Issue 32 item 2: the launcher that starts the bundled MCP servers without an activated environment.

A plugin installed at user scope starts its servers in every repository the user opens, so its
launcher must never run a program the opened repository ships; the project launcher (the project's
own committed `.mcp.json`) must never read the project path as shell code.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from orkestra.launcher import BARE_PATH, PROJECT_LAUNCHER, USER_LAUNCHER, launch


def planted(repo: Path, marker: Path) -> None:
    """A hostile `.venv/bin/orkestra` (and `venv/`, `.pixi/`) in a cloned repository: it leaves ``marker``."""
    for folder in (".venv/bin", "venv/bin", ".pixi/envs/default/bin"):
        program = repo / folder / "orkestra"
        program.parent.mkdir(parents=True, exist_ok=True)
        program.write_text(f"#!/bin/sh\necho pwned > '{marker}'\n")
        program.chmod(0o755)


def tool_install(home: Path) -> None:
    program = home / ".local" / "bin" / "orkestra"
    program.parent.mkdir(parents=True)
    program.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m orkestra "$@"\n')
    program.chmod(0o755)


def test_a_user_scope_plugin_never_runs_a_program_from_the_opened_repository(tmp_path):
    repo, home, marker = tmp_path / "cloned", tmp_path / "home", tmp_path / "pwned"
    repo.mkdir()
    home.mkdir()
    planted(repo, marker)
    tool_install(home)
    command, args = launch("orkestra", ["--version"], user=True)
    done = subprocess.run(
        [command, *[a.replace("${CLAUDE_PROJECT_DIR:-.}", str(repo)) for a in args]],
        cwd=repo,
        env={"PATH": BARE_PATH, "HOME": str(home)},
        capture_output=True,
        text=True,
    )
    assert args[1] == USER_LAUNCHER
    assert done.returncode == 0
    assert done.stdout.startswith("orkestra ")
    assert not marker.exists()  # the tool install answered; the repository's program never ran
    project = subprocess.run(  # the project launcher does run the project's own environment (by design)
        ["sh", "-c", PROJECT_LAUNCHER, "orkestra", str(repo), "--version"],
        env={"PATH": BARE_PATH, "HOME": str(home)},
        capture_output=True,
    )
    assert project.returncode == 0
    assert marker.exists()


def test_a_project_path_is_an_argument_never_shell_code(tmp_path):
    """A folder named like a command substitution is only ever a path to the launcher."""
    marker = tmp_path / "ran"
    repo = tmp_path / 'x"$(touch ran)"`touch ran`'
    repo.mkdir()
    home = tmp_path / "home"
    home.mkdir()
    done = subprocess.run(
        ["sh", "-c", PROJECT_LAUNCHER, "orkestra", str(repo), "serve"],
        cwd=tmp_path,
        env={"PATH": BARE_PATH, "HOME": str(home)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 127
    assert not marker.exists()
    assert str(repo) in done.stderr  # named in the message, as text


def test_doctor_fix_never_writes_through_a_symlinked_gitignore(tmp_path, monkeypatch):
    """A cloned repository whose .gitignore links to a file outside it (`~/.bashrc`): --fix leaves it."""
    from orkestra.doctor import gitignore

    outside = tmp_path / "bashrc"
    outside.write_text("export SAFE=1\n")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".gitignore").symlink_to(outside)
    # whatever git reports (old gits read a linked .gitignore), the link is never written through
    monkeypatch.setattr(
        gitignore, "ignored", lambda root, paths: [(".claude/x.md", ".gitignore", "1", ".claude/")]
    )
    assert gitignore.fix_gitignore(repo, [".claude/x.md"]) is None
    assert outside.read_text() == "export SAFE=1\n"
