"""Labels derived from hook payloads: tool type, MCP server, shell command family, outcome."""

from __future__ import annotations

import pytest

from orkestra.telemetry.enrich import bash_cli, mcp_server, outcome, skill_name, tool_type


@pytest.mark.parametrize(
    "command, family",
    [
        ("git status", "git"),
        ("cd services/api && git log --oneline -5", "git"),
        ("FOO=1 BAR=2 npm test", "npm"),
        ("sudo -u deploy -E systemctl restart shop", "systemctl"),
        ("python -m pytest -q tests/", "pytest"),
        (".venv/bin/python3.11 -m pip install -e .", "pip"),
        ("python3 manage.py migrate", "python"),
        ("uv run --with rich pytest -x", "pytest"),
        ("uvx ruff check .", "ruff"),
        ("npx --package typescript tsc --noEmit", "tsc"),
        ("poetry run black .", "black"),
        ("/usr/bin/git diff 2>&1 | head -50", "git"),
        ("cat log.txt | grep ERROR | wc -l", "cat"),
        ("export PATH=$PATH:/opt/bin; make build", "make"),
        ("source .venv/bin/activate && pytest", "pytest"),
        ("(cd web && pnpm exec vitest run)", "vitest"),
        ("bash -c 'cargo test --all'", "cargo"),
        ("env -u DEBUG NODE_ENV=test node app.js", "node"),
        ("timeout 30 curl -s http://localhost:8000/health", "curl"),
        ("nohup nice -n 10 ./scripts/backup.sh &", "backup.sh"),
        ("docker compose up -d", "docker"),
        ("pytest tests/a.py\ngit add -A", "pytest"),
        ("cd /tmp", "cd"),
        ('echo "unbalanced quote', "echo"),
        ("", None),
        ("A=1", None),
    ],
)
def test_bash_cli_is_the_first_real_command_family(command, family):
    assert bash_cli(command) == family


@pytest.mark.parametrize(
    "name, kind, server",
    [
        ("mcp__maguyva__intelligent_search", "mcp", "maguyva"),
        ("mcp__plugin_github_github__create_issue", "mcp", "plugin_github_github"),
        ("Bash", "bash", None),
        ("Skill", "skill", None),
        ("Agent", "agent", None),
        ("Task", "agent", None),
        ("Read", "builtin", None),
        ("WebFetch", "builtin", None),
    ],
)
def test_tool_type_and_mcp_server(name, kind, server):
    assert (tool_type(name), mcp_server(name)) == (kind, server)


def test_skill_name_comes_from_the_skill_tool_input():
    assert skill_name({"skill": "systematic-debugging"}) == "systematic-debugging"
    assert skill_name({"command": "/code-review"}) == "code-review"
    assert skill_name("nope") is None


@pytest.mark.parametrize(
    "event, payload, expected",
    [
        ("PostToolUse", {"tool_response": {"stdout": "ok"}}, "success"),
        ("PostToolUse", {"tool_response": {"interrupted": True}}, "interrupted"),
        ("PostToolUseFailure", {"is_interrupt": False}, "failure"),
        ("PostToolUseFailure", {"is_interrupt": True}, "interrupted"),
        ("PermissionDenied", {}, "failure"),
        ("StopFailure", {}, "failure"),
        ("agent-turn-complete", {}, "success"),
        ("PreToolUse", {}, "n/a"),
        ("SessionStart", {}, "n/a"),
    ],
)
def test_outcome(event, payload, expected):
    assert outcome(event, payload) == expected
