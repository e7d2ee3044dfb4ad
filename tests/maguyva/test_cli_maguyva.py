"""The `maguyva` CLI and `orkestra code`, one app: same answers, the shared option conventions,
hidden aliases for old scripts, output chosen by --format (JSON when piped), uncut citations."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from clirun import Result, run_cli
from conftest import REPO
from index_helpers import commit_all, write_tree

PROJECT = {
    "app/main.py": "from app.util import helper\n\n\ndef main():\n    return helper()\n",
    "app/util.py": "def helper():\n    return 1\n",
    "app/deeply/nested/package/with/a/long/module/path/for/tables/kernel.py": "def helper_kernel():\n    return 2\n",
    "README.md": "# App\n",
}


@pytest.fixture
def indexed(git_repo):
    write_tree(git_repo, PROJECT)
    commit_all(git_repo)
    assert run_cli("index", cwd=git_repo, program="maguyva").returncode == 0
    return git_repo


def both(*args: str, cwd, env=None) -> tuple[Result, Result]:
    return (run_cli("code", *args, cwd=cwd, env=env), run_cli(*args, cwd=cwd, env=env, program="maguyva"))


@pytest.mark.parametrize(
    "args",
    [
        ("grep", "helper"),
        ("symbol", "helper"),
        ("refs", "helper"),
        ("status",),
        ("structure", "--kind", "function"),
        ("file", "app/util.py", "--start", "1", "--end", "1"),
    ],
)
def test_orkestra_code_and_maguyva_give_the_same_answer(indexed, args):
    via_orkestra, via_maguyva = both(*args, cwd=indexed)
    assert via_orkestra.returncode == via_maguyva.returncode == 0, via_orkestra.stderr + via_maguyva.stderr
    assert json.loads(via_orkestra.stdout) == json.loads(via_maguyva.stdout)  # piped: JSON without a flag


def test_errors_and_exit_codes_are_the_same_through_both(git_repo, indexed):
    for done in both("deps", "x", "--direction", "sideways", cwd=indexed):
        assert (done.returncode, done.stderr) == (
            1,
            "error: unknown direction 'sideways' (callers, callees, both, impact)\n",
        )
    for done in both("grep", "--no-such-flag", "x", cwd=git_repo):
        assert done.returncode == 2


def test_a_missing_index_is_exit_1_with_the_same_message_through_both(tmp_path):
    from conftest import git

    repo = tmp_path / "empty"
    repo.mkdir()
    git(repo, "init", "-q")
    via_orkestra, via_maguyva = both("status", cwd=repo)
    assert via_orkestra.returncode == via_maguyva.returncode == 1
    assert via_orkestra.stderr == via_maguyva.stderr
    assert via_orkestra.stderr.startswith("error: no index at")


def test_hidden_aliases_keep_old_command_lines_working(indexed, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    expected = json.loads(run_cli("status", "--repo", str(indexed), cwd=elsewhere, program="maguyva").stdout)
    for old in (
        ("code", "status", str(indexed)),
        ("code", "status", "--root", str(indexed)),
        ("code", "status", f"--root={indexed}"),
    ):
        done = run_cli(*old, cwd=elsewhere)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["totals"] == expected["totals"]
    grep = run_cli("code", "grep", "helper", "--root", str(indexed), "--json", cwd=elsewhere)
    assert grep.returncode == 0
    assert json.loads(grep.stdout)["results"]
    literal = run_cli("grep", "--repo", str(indexed), "--", "--json", cwd=elsewhere, program="maguyva")
    # after --, a pattern
    assert literal.returncode == 0
    assert json.loads(literal.stdout)["results"] == []
    help_text = run_cli("status", "--help", cwd=elsewhere, program="maguyva").stdout
    assert "--repo" in help_text
    assert "--root" not in help_text
    assert "--json" not in help_text


def test_format_table_never_cuts_the_citation_and_text_prints_records(indexed):
    env = {"COLUMNS": "80"}
    table = run_cli("grep", "helper", "--format", "table", cwd=indexed, env=env, program="maguyva")
    assert table.returncode == 0, table.stderr
    assert "kernel.py:1" in table.stdout  # the long path keeps its file name and line
    assert "app/util.py:1" in table.stdout
    assert max(len(line) for line in table.stdout.splitlines()) <= 80
    text = run_cli("file", "app/util.py", "--format", "text", cwd=indexed, program="maguyva")
    assert text.returncode == 0
    assert "def helper():" in text.stdout
    assert not text.stdout.lstrip().startswith("{")


def test_a_terminal_gets_a_table_or_text_and_a_pipe_gets_json(monkeypatch):
    from maguyva.cli.options import Format
    from maguyva.cli.output import chosen, shorten_middle

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    assert (chosen(None, listing=True), chosen(None, listing=False)) == (Format.table, Format.text)
    assert chosen(Format.json, listing=True) is Format.json
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    assert chosen(None, listing=True) is chosen(None, listing=False) is Format.json
    cut = shorten_middle("maguyva/retrieve/a/very/long/path/to/module.py:1234", 30)
    assert len(cut) == 30
    assert cut.endswith("module.py:1234")
    assert "…" in cut


def test_help_lists_index_first_in_one_untruncated_line_each_and_version():
    env = {**os.environ, "COLUMNS": "80", "PYTHONPATH": str(REPO)}
    out = subprocess.run(
        [sys.executable, "-m", "maguyva", "--help"], capture_output=True, text=True, env=env
    ).stdout
    commands = out.split("Commands:")[1].strip().splitlines()
    assert commands[0].split()[0] == "index"
    assert commands[1].split()[0] == "status"
    assert not any(line.rstrip().endswith("...") or "{" in line for line in commands)
    assert "blog" not in out
    version = subprocess.run(
        [sys.executable, "-m", "maguyva", "--version"], capture_output=True, text=True, env=env
    )
    assert version.returncode == 0
    assert version.stdout.startswith("maguyva ")


def test_status_sees_added_files_in_the_cli_and_the_mcp_tool(indexed):
    from maguyva.api import Maguyva

    write_tree(
        indexed,
        {"app/new.py": "def fresh():\n    return 3\n", "app/util.py": "def helper():\n    return 9\n"},
    )
    (indexed / "README.md").unlink()
    cli = json.loads(run_cli("status", cwd=indexed, program="maguyva").stdout)
    assert cli["not_in_map"] == {
        "added": ["app/new.py"],
        "changed": ["app/util.py"],
        "deleted": ["README.md"],
    }
    api = Maguyva.open(indexed)
    try:
        tool = api.index_status()
    finally:
        api.close()
    assert tool.model_dump(mode="json")["not_in_map"] == [
        {"path": "README.md", "state": "deleted"},
        {"path": "app/new.py", "state": "added"},
        {"path": "app/util.py", "state": "modified"},
    ]
    assert tool["not_in_map_count"] == 3
    assert "app/new.py" in tool["uncommitted"]
