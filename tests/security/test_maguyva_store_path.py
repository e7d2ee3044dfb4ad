"""A cloned repository's ``maguyva.store`` cannot make an index run write outside it, or into ``.git``.

Before, ``store: ../outside/x.db``, an absolute path, ``~/x.db``, ``.git/hooks/idx.db`` or a path
through a committed symlink was resolved and written: the SQLite file and its ``-wal``/``-shm``
neighbours landed wherever the repository said. Now each is refused with exit 1 and an error naming
``orkestra.yaml``, its line and ``maguyva.store``; ``--store`` and ``$MAGUYVA_STORE``, the user's own
choice, still go anywhere. Real CLI runs and a real stdio MCP session.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clirun import run_cli
from conftest import git
from outside_tree import outside_folder, untouched


@pytest.fixture
def repo(git_repo, tmp_path):
    (git_repo / "app.py").write_text("def target_function():\n    return 1\n")
    git(git_repo, "add", "app.py")
    git(git_repo, "commit", "-q", "-m", "init")
    return git_repo


def _configure(repo: Path, store: str) -> None:
    (repo / "orkestra.yaml").write_text(f"version: 1\nmaguyva:\n  store: '{store}'\n")


def _hooks(repo: Path) -> list[str]:
    return sorted(p.name for p in (repo / ".git" / "hooks").iterdir())


@pytest.mark.parametrize(
    ("store", "says"),
    [
        ("../outside/x.db", "climbs out with '..'"),
        ("{outside}/x.db", "is an absolute path"),
        ("~/x.db", "is under a home folder"),
        (".git/hooks/idx.db", "is inside .git"),
        (".GIT/hooks/idx.db", "is inside .git"),
        ("vendor/.git/idx.db", "is inside .git"),
        ("./a/../../outside/x.db", "climbs out with '..'"),
    ],
)
def test_a_configured_store_outside_the_repository_or_in_git_is_refused(repo, tmp_path, store, says):
    outside = outside_folder(tmp_path)
    hooks = _hooks(repo)
    store = store.format(outside=outside)
    _configure(repo, store)
    for program in ("orkestra", "maguyva"):
        args = ("code", "index") if program == "orkestra" else ("index",)
        done = run_cli(*args, cwd=repo, program=program, env={"HOME": str(outside), "MAGUYVA_STORE": ""})
        assert done.returncode == 1, (program, done.stdout, done.stderr)
        assert f"orkestra.yaml:3: maguyva.store: {store!r} {says}" in done.stderr, done.stderr
        assert "--store" in done.stderr  # says how to put the index elsewhere on purpose
    untouched(outside)
    assert _hooks(repo) == hooks
    assert not list(repo.rglob("*.db*"))


@pytest.mark.parametrize(
    "plant",
    [
        {"link": ".cache", "to": "{outside}", "says": "'.cache' is a symlink"},
        {"link": ".cache/idx.db", "to": "{outside}/x.db", "says": "'.cache/idx.db' is a symlink"},
        {"link": ".cache/idx.db-wal", "to": "{outside}/x.db-wal", "says": "'.cache/idx.db-wal' is a symlink"},
        {
            "link": ".cache/idx.db.rank.npz",
            "to": "{outside}/r",
            "says": "'.cache/idx.db.rank.npz' is a symlink",
        },
        {"link": ".cache", "file": True, "says": "'.cache' is not a folder"},
    ],
)
def test_a_configured_store_reached_through_a_committed_symlink_is_refused(repo, tmp_path, plant):
    outside = outside_folder(tmp_path)
    link = repo / plant["link"]
    link.parent.mkdir(parents=True, exist_ok=True)
    if plant.get("file"):
        link.write_text("not a folder\n")
    else:
        link.symlink_to(plant["to"].format(outside=outside))
    _configure(repo, ".cache/idx.db")
    done = run_cli("code", "index", cwd=repo, env={"MAGUYVA_STORE": ""})
    assert done.returncode == 1, done.stdout
    assert "orkestra.yaml:3: maguyva.store: " + plant["says"] in done.stderr, done.stderr
    untouched(outside)
    done = run_cli("code", "status", cwd=repo, env={"MAGUYVA_STORE": ""})  # a read is refused too
    assert done.returncode == 1
    assert plant["says"] in done.stderr


def test_plain_paths_inside_and_the_users_own_choice_still_work(repo, tmp_path):
    outside = outside_folder(tmp_path)
    for store, where in (
        (".cache/idx.db", repo / ".cache/idx.db"),
        (".git/maguyva/b.db", repo / ".git/maguyva/b.db"),
    ):
        _configure(repo, store)
        done = run_cli("code", "index", cwd=repo, env={"MAGUYVA_STORE": ""})
        assert done.returncode == 0, done.stderr
        assert where.is_file()
    _configure(repo, "../outside/x.db")  # a hostile file does not stop the user's own --store or variable
    chosen = tmp_path / "mine" / "idx.db"
    assert run_cli("code", "index", "--store", str(chosen), cwd=repo).returncode == 0
    assert chosen.is_file()
    env_store = tmp_path / "env.db"
    assert run_cli("code", "index", cwd=repo, env={"MAGUYVA_STORE": str(env_store)}).returncode == 0
    assert env_store.is_file()
    untouched(outside)


def test_the_mcp_server_refuses_to_start_and_writes_nothing_outside(repo, tmp_path):
    """A real stdio MCP client: the server exits before serving (exit 1), its stderr naming the field."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    outside = outside_folder(tmp_path)
    _configure(repo, "../outside/x.db")
    env = {key: value for key, value in os.environ.items() if key != "MAGUYVA_STORE"}
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "orkestra", "code", "serve", "--repo", str(repo)], env=env
    )
    said = "orkestra.yaml:3: maguyva.store: '../outside/x.db' climbs out with '..'"

    async def go(errlog):
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write) as session,
        ):
            with anyio.fail_after(60):
                await session.initialize()
                return await session.call_tool("refresh_index", {})

    with (tmp_path / "server.err").open("w+") as errlog:
        with pytest.raises(BaseException) as refused:  # the session ends: the server is gone
            anyio.run(go, errlog)
        errlog.seek(0)
        assert said in errlog.read(), refused.value
    done = run_cli("code", "serve", "--repo", str(repo), cwd=repo, env={"MAGUYVA_STORE": ""}, input="")
    assert done.returncode == 1
    assert said in done.stderr
    untouched(outside)
    assert not list(repo.rglob("*.db*"))
