"""What a person reads on a terminal (issue 32, "Terminal and docs"): multi-line decision fields as
wrapped text, a suggestion for a mistyped command at every level, and help examples that name the
command as it was invoked (`orkestra code index`, `maguyva index`)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from cli_workspace import make_workspace
from clirun import run_cli

RECORD = "ai_assets/reference/decisions/records/DEC-PL-001.yaml"
SUMMARY = (
    "Every pipeline stage runs its transforms in DuckDB, reading Parquet without\n"
    "copies and writing through one connection per stage.\n"
    "\n"
    "The runtime is configured once, in packages/pipeline/runtime.py.\n"
)
CONTEXT = "Stages used three engines:\n\n- pandas for joins\n- polars for scans\n  (since 2025)\n"


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Path:
    root = make_workspace(tmp_path_factory.mktemp("terminal") / "ws")
    path = root / RECORD
    text = path.read_text()
    text = re.sub(r"^summary: .*$", "summary: |\n" + _indent(SUMMARY), text, flags=re.M)
    text = re.sub(r"^context: .*$", "context: |\n" + _indent(CONTEXT), text, flags=re.M)
    path.write_text(text)
    return root


def _indent(text: str) -> str:
    return "".join(f"  {line}\n" if line else "\n" for line in text.splitlines()).rstrip("\n")


def test_decision_text_wraps_paragraphs_and_keeps_list_blocks(ws):
    shown = run_cli("decisions", "info", "DEC-PL-001", "--format", "text", cwd=ws, env={"COLUMNS": "60"})
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert all(len(line) <= 60 for line in lines), lines
    # no quoted YAML scalars
    assert "'" not in shown.stdout
    assert "''" not in shown.stdout
    start = lines.index("summary:")
    summary = lines[start + 1 : lines.index("context:")]
    # the hard-wrapped first paragraph is one wrapped paragraph, a blank line, then the second
    assert summary.index("") > 0
    assert summary.count("") == 1
    first = " ".join(line.strip() for line in summary[: summary.index("")])
    assert first == " ".join(SUMMARY.split("\n\n")[0].split())
    context = lines[lines.index("context:") + 1 : lines.index("context:") + 6]
    assert context == [
        "  Stages used three engines:",
        "",
        "  - pandas for joins",
        "  - polars for scans",
        "    (since 2025)",
    ]
    # dates unquoted, lists one item a line
    assert "created: 2026-01-05" in lines
    assert "rationale:" in lines


def test_decision_json_is_unchanged(ws):
    record = json.loads(run_cli("decisions", "info", "DEC-PL-001", "--format", "json", cwd=ws).stdout)
    assert record["summary"] == SUMMARY
    assert record["context"] == CONTEXT


def test_decision_table_shows_paragraphs_and_list_items(ws):
    shown = run_cli("decisions", "info", "DEC-PL-001", "--format", "table", cwd=ws, env={"COLUMNS": "80"})
    assert shown.returncode == 0, shown.stderr
    cells = [line.split("│")[2].rstrip() for line in shown.stdout.splitlines() if line.count("│") == 3]
    assert all(len(line) <= 80 for line in shown.stdout.splitlines())
    # one item a line
    assert " - pandas for joins" in cells
    assert " - polars for scans" in cells
    assert not any('["' in cell or "\\n" in cell for cell in cells)  # no JSON lists, no escaped newlines
    assert any(cell.startswith(" - One engine means one type system") for cell in cells)


@pytest.mark.parametrize(
    "args,typo,suggested",
    [
        (("agnets",), "agnets", "'agents'"),
        (("decsions", "list"), "decsions", "'decisions'"),
        (("agents", "lst"), "lst", "'list'"),
        (("code", "idnex"), "idnex", "'index'"),
    ],
)
def test_a_mistyped_command_exits_2_with_the_closest_ones(tmp_path, args, typo, suggested):
    done = run_cli(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert re.search(rf"No such command '{typo}'\. Did you mean [^?]*{suggested}", done.stderr), done.stderr


def test_a_word_like_no_command_gets_no_suggestion(tmp_path):
    done = run_cli("zzzzqq", cwd=tmp_path)
    assert done.returncode == 2
    assert "No such command 'zzzzqq'." in done.stderr
    assert "Did you mean" not in done.stderr


@pytest.mark.parametrize("tree", [False, True], ids=["direct", "via-tree"])
def test_code_help_examples_name_the_command_as_invoked(tmp_path, tree):
    env = {"ORKESTRA_CODE_VIA_TREE": "1"} if tree else {}
    for args, wanted in (
        (("index",), "orkestra code index --dry-run"),
        (("search",), 'orkestra code search "who calls'),
        (("keys", "list"), "orkestra code keys list --workspace"),
    ):
        shown = run_cli("code", *args, "--help", cwd=tmp_path, env=env).stdout
        examples = shown.split("Example:")[1].split("Options:")[0]
        assert wanted in examples, examples
        assert not re.search(r"^\s*maguyva ", examples, re.M), examples
    own = run_cli("index", "--help", cwd=tmp_path, program="maguyva").stdout
    assert "    maguyva index --dry-run" in own
    assert "orkestra code" not in own
