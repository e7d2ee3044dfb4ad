"""`maguyva search` / `orkestra code search` and `index` on a terminal: the query's intent, fusion
strategy and notes above the hits, snippets given the room (a block per hit when the terminal is
narrow), citations and symbols never cut, and the index summary's store path never split."""

from __future__ import annotations

import pytest
from clirun import run_cli
from index_helpers import commit_all, write_tree

LONG = "app/deeply/nested/package/with/a/long/module/path/for/tables/kernel.py"
PROJECT = {
    "app/util.py": (
        "def compute_the_column_widths_for_tables(columns, cells, width):\n"
        '    """Each column gets its natural width, then a fair share of what is left over for the\n'
        '    free text columns, key columns weighing twice as much as free text columns do."""\n'
        "    return [width // len(columns)] * len(columns)\n"
    ),
    LONG: "def kernel_widths_helper():\n    return compute_the_column_widths_for_tables([], [], 80)\n",
}


@pytest.fixture
def indexed(git_repo):
    write_tree(git_repo, PROJECT)
    commit_all(git_repo)
    assert run_cli("index", cwd=git_repo, program="maguyva").returncode == 0
    return git_repo


def search(repo, columns: int, program: str = "maguyva"):
    args = ("search", "column widths for tables", "--format", "table")
    if program == "orkestra":
        args = ("code", *args)
    done = run_cli(*args, cwd=repo, env={"COLUMNS": str(columns)}, program=program)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_narrow_terminals_get_a_block_per_hit_with_intent_and_notes_first(indexed):
    shown = search(indexed, 60)
    lines = shown.splitlines()
    assert lines[0] == "query: column widths for tables"
    assert lines[1].startswith("intent: ")
    assert lines[2].startswith("fusion: ranked")
    assert any(line.startswith("note: semantic") for line in lines)  # no embeddings in this index
    # every line fits, but a citation or symbol wider than the terminal: alone on its line, never cut
    assert all(len(line) <= 60 for line in lines if "deeply" not in line), lines
    assert any(line.endswith(f". {LONG}:1") for line in lines)
    assert (
        "   function app.deeply.nested.package.with.a.long.module.path.for.tables.kernel.kernel_widths_helper"
        in lines
    )
    assert "app/util.py:1" in shown
    assert "function app.util.compute_the_column_widths_for_tables" in shown
    assert f"{LONG}:1" in shown
    # the snippet keeps far more than the ~36 characters the old table cut it to
    snippet = " ".join(line.strip() for line in lines if line.startswith("   ") and "also:" not in line)
    assert "Each column gets its natural width, then a fair share" in snippet


def test_wide_terminals_get_a_table_whose_snippet_wraps_instead_of_being_cut(indexed):
    shown = search(indexed, 260)
    assert "┃ citation" in shown
    assert "intent: " in shown.split("┏")[0]
    assert all(len(line) <= 260 for line in shown.splitlines())
    cells = " ".join(line.split("│")[4].strip() for line in shown.splitlines() if line.count("│") == 5)
    assert "Each column gets its natural width, then a fair share of what is left over" in cells
    assert f"{LONG}:1" in shown
    assert "compute_the_column_widths_for_tables" in shown


def test_orkestra_code_search_prints_the_same(indexed):
    assert search(indexed, 70, "orkestra") == search(indexed, 70)


def test_the_index_summary_prints_the_store_path_on_one_line(git_repo, tmp_path):
    write_tree(git_repo, PROJECT)
    store = tmp_path / "a-store-folder-with-a-rather-long-name" / "and-a-long-index-file-name.db"
    store.parent.mkdir()
    done = run_cli(
        "index",
        "--store",
        str(store),
        "--format",
        "table",
        cwd=git_repo,
        env={"COLUMNS": "50"},
        program="maguyva",
    )
    assert done.returncode == 0, done.stderr
    assert f"store: {store}" in done.stdout.splitlines()  # whole, on its own line, never folded
    plan = run_cli(
        "index",
        "--dry-run",
        "--store",
        str(store),
        "--format",
        "table",
        cwd=git_repo,
        env={"COLUMNS": "50"},
        program="maguyva",
    )
    assert f"into: {store}" in plan.stdout.splitlines()
