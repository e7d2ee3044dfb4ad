"""The hook handler and the report through the real CLI (in-process; the lean hook as a program)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import run_cli
from telemetry_synth import write_store

from orkestra.telemetry.report import report_project
from orkestra.telemetry.store import load_events

FIXTURES = Path(__file__).parent / "fixtures" / "hooks"
HOOK = str(Path(sys.executable).parent / "orkestra-hook")
HEAVY = (
    "typer",
    "click",
    "pydantic",
    "yaml",
    "rich",
    "git",
    "jinja2",
    "opentelemetry",
    "tree_sitter",
    "mcp",
    "detect_secrets",
    "typing",  # ~3 ms of start-up; the telemetry modules import it only for type checkers
)


def payload(name: str, cwd: Path) -> str:
    data = json.loads((FIXTURES / f"{name}.json").read_text())
    data["cwd"] = str(cwd)
    return json.dumps(data)


def stored(repo: Path) -> list:
    return load_events(repo / ".orkestra" / "telemetry").events


def test_orkestra_hook_records_events_exits_0_and_prints_nothing(git_repo):
    for name in ("SessionStart", "PreToolUse-bash", "PostToolUseFailure-bash", "SubagentStop"):
        result = subprocess.run(
            [HOOK],
            input=payload(name, git_repo),
            capture_output=True,
            text=True,
            cwd="/",
            env={"PATH": "/usr/bin:/bin"},
        )
        assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    assert [(e.name, e.labels.get("bash_cli"), e.labels["outcome"]) for e in stored(git_repo)] == [
        ("SessionStart", None, "n/a"),
        ("PreToolUse", "pytest", "n/a"),
        ("PostToolUseFailure", "git", "failure"),
        ("SubagentStop", None, "n/a"),
    ]


def test_malformed_stdin_is_recorded_and_never_fails_the_agent(git_repo):
    result = subprocess.run(
        [HOOK],
        input='{"hook_event_name": "PreToolUse", "tool_na',
        capture_output=True,
        text=True,
        cwd=git_repo,
    )
    assert (result.returncode, result.stdout) == (0, "")
    [event] = stored(git_repo)
    assert event.name == "malformed"
    assert event.fields["raw"] == '{"hook_event_name": "PreToolUse", "tool_na'


def test_an_unwritable_store_still_exits_0_with_a_note_on_stderr(git_repo):
    (git_repo / "blocker").write_text("a file where the store directory should be")
    result = subprocess.run(
        [HOOK, "--store-dir", "blocker/telemetry"],
        input=payload("Stop", git_repo),
        capture_output=True,
        text=True,
        cwd=git_repo,
    )
    assert (result.returncode, result.stdout) == (0, "")
    assert (
        result.stderr
        == "orkestra-hook: event not recorded: UnsafeStoreDir: store folder 'blocker' is not a folder\n"
    )


def test_typer_handle_and_codex_notify_write_the_same_store(git_repo):
    handle = run_cli("hooks", "handle", cwd=git_repo, input=payload("PostToolUse-mcp", git_repo))
    notify = run_cli("hooks", "codex-notify", payload("codex-notify", git_repo), cwd="/")
    lean = subprocess.run(
        [HOOK, "codex-notify", payload("codex-notify", git_repo)], capture_output=True, text=True, cwd="/"
    )
    assert [(r.returncode, r.stdout) for r in (handle, notify, lean)] == [(0, ""), (0, ""), (0, "")]
    assert [(e.name, e.labels["agent_tool"]) for e in stored(git_repo)] == [
        ("PostToolUse", "claude-code"),
        ("agent-turn-complete", "codex-cli"),
        ("agent-turn-complete", "codex-cli"),
    ]


def test_the_hook_entry_imports_nothing_heavy():
    code = f"import sys, orkestra.telemetry.hook; print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    root = tmp_path_factory.mktemp("project")
    (root / "orkestra.yaml").write_text("version: 1\ntelemetry:\n  store_dir: var/telemetry\n")
    write_store(root / "var" / "telemetry")
    return root


def test_report_json_matches_the_library_and_reads_store_dir_from_config(synthetic):
    result = run_cli("telemetry", "report", "--session", "s1", cwd=synthetic)
    assert result.returncode == 0, result.stderr
    expected = json.loads(json.dumps(report_project(synthetic, session="s1").to_dict()))
    assert json.loads(result.stdout) == expected
    assert json.loads(result.stdout)["totals"]["events"] == 999


def test_report_table_is_for_people(synthetic):
    result = run_cli("telemetry", "report", "--format", "table", cwd=synthetic)
    assert result.returncode == 0, result.stderr
    for cell in ("bash:pytest", "76.0%", "systematic-debugging", "code-reviewer"):
        assert cell in result.stdout


def test_report_usage_and_config_errors(synthetic, tmp_path):
    bad_since = run_cli("telemetry", "report", "--since", "soon", cwd=synthetic)
    assert (bad_since.returncode, bad_since.stdout) == (2, "")
    assert "--since" in bad_since.stderr
    (tmp_path / "orkestra.yaml").write_text("telemetry:\n  otlp_endpoint: 4318\n")
    bad_config = run_cli("telemetry", "report", cwd=tmp_path)
    assert bad_config.returncode == 1
    assert bad_config.stderr.strip() == (
        "orkestra.yaml:2:3: telemetry.otlp_endpoint: expected an http(s) URL, got 4318"
    )
