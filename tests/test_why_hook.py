"""The decision-guidance hook: rendered by sync when enabled, its output shape, and its silence."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import run_cli
from conftest import REPO, git
from memory_repo import make_memory_repo

from orkestra.why.settings import HOOK_PROGRAM, MATCHER, merge_memory_hook


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> Path:
    repo = tmp_path_factory.mktemp("hook") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    make_memory_repo(repo)
    with (repo / "orkestra.yaml").open("a") as handle:
        handle.write("memory: {hook: true}\n")
    result = run_cli("sync", "--root", str(repo), cwd=repo)
    assert result.returncode == 0, result.stderr
    return repo


def hook(payload: dict | str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    text = payload if isinstance(payload, str) else json.dumps(payload)
    return subprocess.run(
        [sys.executable, "-m", "orkestra.why.hook"],
        check=False,
        input=text,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=30,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO), **(env or {})},
    )


def payload(repo: Path, tool: str, path: str, key: str = "file_path") -> dict:
    return {
        "session_id": "s1",
        "hook_event_name": "PreToolUse",
        "cwd": str(repo),
        "tool_name": tool,
        "tool_input": {key: path},
        "tool_use_id": "t1",
    }


def test_sync_renders_the_hook_and_its_lookup_table(shop):
    settings = json.loads((shop / ".claude" / "settings.json").read_text())
    ours = [g for g in settings["hooks"]["PreToolUse"] if g["hooks"][0]["command"] == HOOK_PROGRAM]
    assert ours == [
        {"matcher": MATCHER, "hooks": [{"type": "command", "command": HOOK_PROGRAM, "timeout": 5}]}
    ]
    assert "async" not in ours[0]["hooks"][0]  # context must reach the agent: a synchronous hook
    lookup = json.loads((shop / ".claude" / "orkestra" / "memory.json").read_text())
    assert lookup["files"]["src/shop/pricing.py"] == ["DEC-PR-001", "GT-SHOP-001"]
    assert "DEC-PR-002" not in lookup["records"]  # superseded: no guidance from it
    assert run_cli("sync", "--check", "--root", str(shop), cwd=shop).returncode == 0


def test_covered_file_gets_ids_and_do_avoid_through_additional_context(shop):
    for tool in ("Read", "Edit", "Write"):
        event = payload(shop, tool, str(shop / "src" / "shop" / "pricing.py")) | {
            "session_id": f"cover-{tool}"
        }
        result = hook(event, shop)
        assert result.returncode == 0
        assert result.stderr == ""
        answer = json.loads(result.stdout)
        assert set(answer) == {"hookSpecificOutput"}
        output = answer["hookSpecificOutput"]
        assert set(output) == {"hookEventName", "additionalContext"}  # never a permission decision
        assert output["hookEventName"] == "PreToolUse"
        context = output["additionalContext"]
        assert "DEC-PR-001 (decision, active)" in context
        assert "GT-SHOP-001 (truth, current)" in context
        assert "do: Round with round(x, 2)" in context
        assert "avoid: Passing a fraction like 0.2." in context
    after = hook(
        payload(shop, "Edit", "src/shop/pricing.py")
        | {"hook_event_name": "PostToolUse", "session_id": "post"},
        shop,
    )
    assert (
        json.loads(after.stdout)["hookSpecificOutput"]["hookEventName"] == "PostToolUse"
    )  # mirrors the event


def test_records_shown_once_per_session_are_then_only_named(shop):
    first = hook(payload(shop, "Read", "src/shop/pricing.py") | {"session_id": "dedupe"}, shop)
    assert "do: Round with round(x, 2)" in first.stdout
    again = json.loads(
        hook(payload(shop, "Edit", "src/shop/pricing.py") | {"session_id": "dedupe"}, shop).stdout
    )
    context = again["hookSpecificOutput"]["additionalContext"]
    assert "shown earlier this session: DEC-PR-001, GT-SHOP-001" in context
    assert "do:" not in context
    other = hook(payload(shop, "Read", "src/shop/pricing.py") | {"session_id": "another"}, shop)
    assert "do: Round with round(x, 2)" in other.stdout  # a new session sees the guidance again
    assert (shop / ".orkestra" / "memory-hook" / "dedupe.seen").read_text().split() == [
        "DEC-PR-001",
        "GT-SHOP-001",
    ]
    hostile = hook(payload(shop, "Read", "src/shop/pricing.py") | {"session_id": "../../../../tmp/x"}, shop)
    assert "do: Round" in hostile.stdout
    assert (shop / ".orkestra" / "memory-hook" / "tmpx.seen").is_file()


def test_relative_paths_and_project_dir_resolve(shop, tmp_path):
    result = hook(
        payload(tmp_path, "Read", str(shop / "src/shop/notes.py")) | {"cwd": str(tmp_path)},
        tmp_path,
        {"CLAUDE_PROJECT_DIR": str(shop)},
    )
    assert "GT-SHOP-002" in json.loads(result.stdout)["hookSpecificOutput"]["additionalContext"]
    relative = hook(payload(shop, "Read", "src/shop/notes.py"), shop)
    assert "GT-SHOP-002" in relative.stdout


@pytest.mark.parametrize("case", ["uncovered", "bash", "outside", "git", "garbage", "empty", "no-lookup"])
def test_silent_when_nothing_applies(shop, tmp_path, case):
    cwd = shop
    data: dict | str = payload(shop, "Read", str(shop / "orkestra.yaml"))
    if case == "bash":
        data = {**payload(shop, "Bash", ""), "tool_input": {"command": "cat src/shop/pricing.py"}}
    elif case == "outside":
        data = payload(shop, "Read", str(shop / ".." / ".." / "etc" / "passwd"))
    elif case == "git":
        data = payload(shop, "Read", str(shop / ".git" / "config"))
    elif case == "garbage":
        data = "{not json"
    elif case == "empty":
        data = ""
    elif case == "no-lookup":
        (tmp_path / "orkestra.yaml").write_text("version: 1\n")
        (tmp_path / "src").mkdir()
        data, cwd = payload(tmp_path, "Read", str(tmp_path / "src" / "pricing.py")), tmp_path
    result = hook(data, cwd)
    assert result.returncode == 0
    assert result.stdout == ""


def test_merge_keeps_user_hooks_is_idempotent_and_turns_off():
    user = {
        "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "guard.sh"}]}]},
        "model": "opus",
    }
    once = merge_memory_hook(user, {"hook": True})
    assert merge_memory_hook(once, {"hook": True}) == once
    assert once["hooks"]["PreToolUse"][0] == user["hooks"]["PreToolUse"][0]
    assert once["model"] == "opus"
    assert merge_memory_hook(once, {"hook": False}) == user
    assert merge_memory_hook({}, None) == {}
    custom = merge_memory_hook({}, {"hook": True}, output_dir="build/claude", state_dir="var/state")
    assert (
        custom["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
        == "orkestra-why-hook --lookup build/claude/orkestra/memory.json --state var/state"
    )
    post = merge_memory_hook(once, {"hook": True, "event": "PostToolUse"})
    assert post["hooks"]["PreToolUse"] == user["hooks"]["PreToolUse"]  # moved, not duplicated
    assert post["hooks"]["PostToolUse"][0]["matcher"] == MATCHER
    assert merge_memory_hook(post, {"hook": False}) == user
    for bad, message in (
        ({"hook": "yes"}, "memory.hook: expected true or false"),
        ({"hooks": True}, "memory.hooks: unknown key"),
        ({"hook": True, "event": "Stop"}, "memory.event: expected one of"),
    ):
        with pytest.raises(ValueError, match=message):
            merge_memory_hook({}, bad)


def test_a_bad_memory_section_fails_sync_naming_it(shop, tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    make_memory_repo(repo)
    with (repo / "orkestra.yaml").open("a") as handle:
        handle.write("memory: {hook: maybe}\n")
    result = run_cli("sync", "--root", str(repo), cwd=repo)
    assert result.returncode == 1
    assert "memory.hook: expected true or false" in result.stderr


def test_the_hook_imports_only_the_standard_library_it_needs():
    heavy = (
        "yaml",
        "pydantic",
        "typer",
        "git",
        "mcp",
        "maguyva",
        "jinja2",
        "rich",
        "subprocess",
        "typing",
        "orkestra.workspace",
        "orkestra.why.answer",
    )
    code = (
        "import sys; before = set(sys.modules); import orkestra.why.hook; "
        f"print(sorted(m for m in {heavy!r} if m in sys.modules and m not in before))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)},
    )
    assert result.stdout.strip() == "[]"
