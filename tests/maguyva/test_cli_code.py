"""`orkestra code index|status` and the `maguyva` console script, run in-process."""

from __future__ import annotations

import json

from clirun import run_cli
from index_helpers import commit_all, write_tree

PROJECT = {
    "app/main.py": "from app.util import helper\n\n\ndef main():\n    return helper()\n",
    "app/util.py": "def helper():\n    return 1\n",
    "README.md": "# App\n",
}


def test_index_prints_a_json_summary_and_status_reads_it_back(git_repo):
    write_tree(git_repo, PROJECT)
    commit_all(git_repo)
    done = run_cli("code", "index", cwd=git_repo)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert (summary["mode"], summary["files"], summary["symbols"], summary["edges"]) == ("full", 3, 3, 2)
    assert summary["store"].endswith(".git/maguyva/index.db")
    assert done.stderr == ""  # no progress bar when stderr is not a terminal

    status = json.loads(run_cli("code", "status", cwd=git_repo).stdout)
    assert status["totals"] == {"files": 3, "symbols": 3, "edges": 2}
    assert (status["stale"], status["uncommitted_at_index"]) == (False, [])
    assert len(status["commit"]) == 40


def test_status_lists_files_changed_since_the_index(git_repo):
    write_tree(git_repo, PROJECT)
    run_cli("code", "index", str(git_repo), cwd=git_repo.parent)
    write_tree(git_repo, {"app/util.py": "def helper():\n    return 2\n"})
    status = json.loads(run_cli("code", "status", cwd=git_repo).stdout)
    assert status["not_in_map"] == {"added": [], "changed": ["app/util.py"], "deleted": []}
    assert status["stale"] is True


def test_dry_run_previews_and_creates_no_store(git_repo):
    write_tree(git_repo, {**PROJECT, "blob.bin": b"\x00\x01"})
    done = run_cli("code", "index", "--dry-run", cwd=git_repo)
    assert done.returncode == 0, done.stderr
    plan = json.loads(done.stdout)
    assert (plan["languages"], plan["skipped"]) == (
        {"markdown": 1, "python": 2},
        [{"path": "blob.bin", "reason": "binary"}],
    )
    assert not (git_repo / ".git" / "maguyva").exists()


def test_the_maguyva_script_offers_the_same_commands_with_an_explicit_store(git_repo, tmp_path):
    write_tree(git_repo, PROJECT)
    store = tmp_path / "elsewhere.db"
    done = run_cli("index", "--store", str(store), "--format", "table", cwd=git_repo, program="maguyva")
    assert done.returncode == 0, done.stderr
    assert "python" in done.stdout
    assert store.exists()
    status = json.loads(
        run_cli("status", cwd=git_repo, program="maguyva", env={"MAGUYVA_STORE": str(store)}).stdout
    )
    assert status["store"] == str(store)


def test_status_without_an_index_fails_with_a_hint_and_bad_options_are_usage_errors(git_repo):
    missing = run_cli("code", "status", cwd=git_repo)
    assert missing.returncode == 1
    assert "run `orkestra code index` first" in missing.stderr
    assert run_cli("code", "index", "--no-such-flag", cwd=git_repo).returncode == 2


def test_outside_a_git_repository_without_a_store_is_a_usage_error(tmp_path):
    write_tree(tmp_path / "plain", PROJECT)
    done = run_cli("code", "index", cwd=tmp_path / "plain", env={"MAGUYVA_STORE": ""})
    assert done.returncode == 2
    assert "not inside a git repository; pass --store PATH" in done.stderr
