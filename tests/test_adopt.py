"""Adoption in realistic repositories (temp git repos): init reads the project, import round-trips
hand-written content, every target's files parse as their runtime expects, and the plugin works
with the real Claude Code client (installed by npm; skipped, saying why, without npm)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml
from clirun import run_cli
from conftest import REPO, git
from npm_tools import CLAUDE_CODE, npm_bin

from orkestra.frontmatter import compare, parse_markdown

ALL_TARGETS = "targets: [claude, agents-md, agent-skills, cursor, copilot, plugin]"
AGENTSKILLS = Path(sys.executable).parent / "agentskills"


def python_package(root: Path) -> Path:
    (root / "src/flaskish/json").mkdir(parents=True)
    (root / "src/flaskish/__init__.py").write_text("def app():\n    return 1\n")
    (root / "src/flaskish/json/__init__.py").write_text("")
    (root / "tests").mkdir()
    (root / "tests/conftest.py").write_text("")
    (root / "tests/test_app.py").write_text("def test_app():\n    assert True\n")
    (root / ".github/workflows").mkdir(parents=True)
    (root / ".github/workflows/tests.yaml").write_text("on: push\n")
    (root / "pyproject.toml").write_text(
        '[project]\nname = "Flaskish"\nversion = "3.1.0"\n'
        'description = "A lightweight WSGI web application framework."\n'
        'authors = [{name = "Pallets"}]\n'
    )
    return root


def node_package(root: Path) -> Path:
    (root / "lib").mkdir()
    (root / "lib/index.js").write_text("module.exports = () => 1;\n")
    (root / "lib/util.ts").write_text("export const x = 1;\n")
    (root / "package.json").write_text(
        json.dumps(
            {
                "name": "left-padder",
                "version": "0.9.1",
                "description": "Pads strings on the left.",
                "scripts": {"test": "node --test"},
            }
        )
    )
    return root


def hand_written(root: Path) -> Path:
    """A repository with a team's own .claude/ content, CLAUDE.md, AGENTS.md and cursor rules."""
    agents, skill, commands = (
        root / ".claude/agents",
        root / ".claude/skills/release-notes",
        root / ".claude/commands",
    )
    for folder in (agents, skill / "scripts", commands, root / ".cursor/rules"):
        folder.mkdir(parents=True)
    (agents / "security-auditor.md").write_text(
        "---\nname: security-auditor\ndescription: Audits code for vulnerabilities. Use proactively on auth "
        "changes.\ntools: Read, Grep, Glob, mcp__github__get_issue\nmodel: opus\ncolor: red\n---\n\n"
        "You are a security auditor.\n\n## Process\n1. Read the diff.\n2. Check the OWASP top ten.\n"
    )
    (agents / "doc-writer.md").write_text(
        "---\nname: doc-writer\ndescription: 'Writes docs: guides and references.'\ntools:\n  - Read\n  - Write\n"
        "---\nYou write documentation.   \n"
    )
    (agents / "planner.md").write_text(  # folded description, and `tools: []` meaning no tools at all
        "---\nname: planner\ndescription: >\n  Plans work in small steps.\n  Use when a task is large.\n"
        "tools: []\n---\n\n# Planner\n"
    )
    (skill / "SKILL.md").write_text(
        "---\nname: release-notes\ndescription: Draft release notes from merged pull requests. Use when "
        "preparing a release.\nallowed-tools: Read, Bash(git log:*)\n---\n# Release notes\n\n- [ ] Collect PRs\n"
    )
    (skill / "scripts/collect.sh").write_text("#!/bin/sh\ngit log --oneline\n")
    (skill / "template.md").write_text("## {version}\n")
    (commands / "ship.md").write_text(
        "---\ndescription: Ship it\nargument-hint: [version]\n"
        "allowed-tools: Bash(git tag:*)\n---\nTag $ARGUMENTS and push.\n"
    )
    (commands / "hello.md").write_text("Say hello to $ARGUMENTS\n")
    (root / "CLAUDE.md").write_text("# Team notes\n\nRun `make test` before pushing.\n")
    (root / "AGENTS.md").write_text("# Agents\n\nUse `make test`.\n")
    (root / ".cursor/rules/python-style.mdc").write_text(
        "---\ndescription: Python style\nglobs: **/*.py\nalwaysApply: false\n---\nUse type hints.\n"
    )
    return root


def ok(result) -> str:
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


# --- init ---------------------------------------------------------------------------------


def test_init_reads_a_python_package_and_syncs_clean_and_idempotent(git_repo: Path):
    root = python_package(git_repo)
    result = run_cli("init", cwd=root)
    report = json.loads(ok(result))
    assert report["project"]["name"] == "Flaskish"
    assert report["project"]["test_command"] == "python -m pytest"
    assert report["project"]["packages"] == ["src/flaskish"]
    assert report["project"]["languages"][0] == "python"
    assert 5 <= len(report["agents"]) <= 7
    assert report["agents"][0] == "orchestrator"
    assert {"code-reviewer", "debugger", "test-engineer", "python-specialist"} <= set(report["agents"])
    assert report["telemetry"] is False
    assert "Next steps" in result.stderr
    assert any("telemetry is off" in step for step in report["next_steps"])
    config = yaml.safe_load((root / "orkestra.yaml").read_text())
    assert config["project"] == "Flaskish"
    assert config["telemetry"] == {"enabled": False}
    for name, count in (("identities", 27), ("mindsets", 11), ("styles", 10)):
        assert len(yaml.safe_load((root / f"registries/{name}.yaml").read_text())[name]) == count
    truths = yaml.safe_load((root / "ai_assets/reference/ground_truths.yaml").read_text())["statements"]
    assert any("python -m pytest" in t["statement"] for t in truths)
    assert not any("CI runs the tests" in t["statement"] for t in truths)  # the workflow runs no test command
    assert all((root / e).exists() for t in truths for e in t["evidence"])
    domains = yaml.safe_load((root / "ai_assets/reference/decisions/registry.yaml").read_text())["domains"]
    assert domains == {"flaskish": {"code": "FLA", "description": "Decisions about src/flaskish/."}}
    assert (root / "ai_assets/reference/changelog/commits_processed.jsonl").is_file()
    installed = Path(sys.executable).parent / "orkestra"  # a project venv: the rendered servers start
    (root / ".venv/bin").mkdir(parents=True)
    (root / ".venv/bin/orkestra").symlink_to(installed if installed.is_file() else sys.executable)
    assert ok(run_cli("validate", "--show-warnings", cwd=root)).strip() == "0 error(s), 0 warning(s)"
    ok(run_cli("sync", cwd=root))
    assert not (root / ".claude/settings.json").exists()  # telemetry is opt-in
    agent = (root / ".claude/agents/test-engineer.md").read_text()
    assert "python -m pytest" in agent
    assert "test-first-discipline" in agent
    assert ok(run_cli("sync", "--check", cwd=root)).strip() == "in sync"
    again = json.loads(ok(run_cli("init", cwd=root)))
    assert again["created"] == []
    assert ok(run_cli("sync", "--check", cwd=root)).strip() == "in sync"


def test_scaffolded_skills_pass_their_own_evaluation(git_repo: Path):
    root = python_package(git_repo)
    ok(run_cli("init", cwd=root))
    skills = sorted((root / "registries/skills/foundations").iterdir())
    assert [s.name for s in skills] == [
        "context-budget-awareness",
        "evidence-based-completion",
        "structured-planning",
        "systematic-debugging",
        "test-first-discipline",
    ]
    evaluation = json.loads(ok(run_cli("skills", "evaluate", str(skills[0]), cwd=root)))  # the CLI, once
    assert evaluation["adopt"] is True, evaluation["criteria"]
    from orkestra.trust.api import evaluate

    for skill in skills[1:]:
        result = evaluate(str(skill), str(root))
        assert result.adopt is True, (skill.name, result.to_dict()["criteria"])


def test_init_reads_a_node_package_and_telemetry_is_announced(git_repo: Path):
    root = node_package(git_repo)
    report = json.loads(ok(run_cli("init", "--telemetry", cwd=root)))
    assert report["project"]["name"] == "left-padder"
    assert report["project"]["test_command"] == "npm test"
    assert "javascript-specialist" in report["agents"]
    assert len(report["agents"]) >= 5
    assert any("telemetry is ON" in step for step in report["next_steps"])
    assert "turn them off" in (root / "orkestra.yaml").read_text()
    assert ok(run_cli("validate", cwd=root)).strip().startswith("0 error(s)")
    ok(run_cli("sync", cwd=root))
    hooks = json.loads((root / ".claude/settings.json").read_text())["hooks"]
    assert "PreToolUse" in hooks


def test_init_minimal_keeps_the_bare_scaffold_with_the_real_name(git_repo: Path):
    root = python_package(git_repo)
    report = json.loads(ok(run_cli("init", "--minimal", cwd=root)))
    assert report["agents"] == ["orchestrator"]
    assert "registries/scopes.yaml" in report["created"]
    assert yaml.safe_load((root / "orkestra.yaml").read_text())["project"] == "Flaskish"
    ok(run_cli("sync", cwd=root))
    assert sorted(p.name for p in (root / ".claude/agents").iterdir()) == ["orchestrator.md"]


def test_init_reference_prints_the_shipped_registry_reference(tmp_path: Path):
    out = ok(run_cli("init", "--reference", cwd=tmp_path))
    assert out == (REPO / "docs/registries.md").read_text(), (
        "copy docs/registries.md to orkestra/scaffold/REGISTRIES.md"
    )
    assert not (tmp_path / "orkestra.yaml").exists()


# --- import -------------------------------------------------------------------------------


def _import(root: Path) -> dict:
    ok(run_cli("init", "--minimal", cwd=root))
    dry = json.loads(ok(run_cli("import", "--dry-run", cwd=root)))
    assert dry["applied"] is False
    assert not (root / "registries/agents/security-auditor.yaml").exists()
    return json.loads(ok(run_cli("import", cwd=root)))


def test_import_then_sync_round_trips_and_takes_ownership(git_repo: Path):
    root = hand_written(git_repo)
    originals = {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in root.rglob("*")
        if p.is_file()
        and ".git/" not in p.as_posix()
        and (".claude" in p.parts or p.suffix in (".md", ".mdc"))
    }
    report = _import(root)
    assert report["round_trip"]["differs"] == 0, [i for i in report["items"] if i["round_trip"] == "differs"]
    assert report["skipped"] == []
    assert set(report["targets_added"]) == {"agents-md", "cursor"}
    assert "mcp__github__get_issue" in report["tools_added"]
    agent = yaml.safe_load((root / "registries/agents/security-auditor.yaml").read_text())
    assert agent["model"] == "opus"
    assert agent["frontmatter"] == {"color": "red"}
    assert agent["prompt"].startswith("You are a security auditor.")
    skill = (root / "registries/skills/project/release-notes/SKILL.md").read_text()
    assert "source: imported" in skill
    assert "type: checklist" in skill
    assert all(
        root.joinpath(path).read_bytes() == data for path, data in originals.items()
    )  # untouched so far
    sync = ok(run_cli("sync", cwd=root))
    assert "imported original taken over" in sync
    from orkestra.render.manifest import MANIFEST_NAME

    manifest = json.loads((root / ".claude" / MANIFEST_NAME).read_text())["files"]
    for path, data in originals.items():
        assert path in manifest, path
        assert compare(data, (root / path).read_bytes()) in ("identical", "whitespace"), path
        before, after = parse_markdown(data.decode()), parse_markdown((root / path).read_text())
        if path.endswith((".md", ".mdc")) and before[0] is not None and "tools" not in before[0]:
            assert before[0] == after[0], path  # same frontmatter values
    assert parse_markdown((root / ".claude/agents/planner.md").read_text())[0]["tools"] == []
    assert ok(run_cli("sync", "--check", cwd=root)).strip() == "in sync"
    # the registries are the source now: an edit flows to the rendered agent
    registry = root / "registries/agents/doc-writer.yaml"
    registry.write_text(registry.read_text().replace("You write documentation.", "You write precise docs."))
    ok(run_cli("sync", cwd=root))
    assert "You write precise docs." in (root / ".claude/agents/doc-writer.md").read_text()


def test_import_never_overwrites_registries_and_reports_what_it_skips(git_repo: Path):
    root = hand_written(git_repo)
    (root / ".claude/agents/Bad_Name.md").write_text("---\nname: Bad_Name\ndescription: x\n---\nbody\n")
    (root / ".claude/agents/group").mkdir()
    (root / ".claude/agents/group/nested.md").write_text("---\nname: nested\ndescription: x\n---\nbody\n")
    ok(run_cli("init", "--minimal", cwd=root))
    (root / "registries/agents/doc-writer.yaml").write_text(
        "name: doc-writer\ncategory: docs\ndescription: Ours.\nidentity: [architect]\nmindset: analytical\n"
        "style: concise\n"
    )
    report = json.loads(ok(run_cli("import", "--from", "claude", cwd=root)))
    reasons = {s["path"]: s["reason"] for s in report["skipped"]}
    assert "not kebab-case" in reasons[".claude/agents/Bad_Name.md"]
    assert "subfolders" in reasons[".claude/agents/group/nested.md"]
    assert "already in the registries" in reasons[".claude/agents/doc-writer.md"]
    assert not any(i["source"] == ".cursor/rules/python-style.mdc" for i in report["items"])  # --from claude


def test_init_leaves_names_the_team_uses_to_import(git_repo: Path):
    root = hand_written(python_package(git_repo))
    (root / ".claude/agents/debugger.md").write_text(
        "---\nname: debugger\ndescription: Ours.\n---\nOur debugger.\n"
    )
    theirs = root / ".claude/skills/systematic-debugging"
    theirs.mkdir()
    (theirs / "SKILL.md").write_text(
        "---\nname: systematic-debugging\ndescription: Our way. Use when stuck.\n---\n# Ours\n"
    )
    report = json.loads(ok(run_cli("init", cwd=root)))
    assert "debugger" not in report["agents"]
    assert not (root / "registries/skills/foundations/systematic-debugging").exists()
    imported = json.loads(ok(run_cli("import", cwd=root)))
    assert {"debugger", "systematic-debugging"} <= {i["name"] for i in imported["items"]}
    assert ok(run_cli("validate", cwd=root)).startswith("0 error(s)")
    ok(run_cli("sync", cwd=root))
    assert "Our debugger." in (root / ".claude/agents/debugger.md").read_text()
    assert "# Ours" in (root / ".claude/skills/systematic-debugging/SKILL.md").read_text()


def test_import_from_codex_brings_agent_skills_and_agents_md(git_repo: Path):
    skill = git_repo / ".agents/skills/lint-fix"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: lint-fix\ndescription: Fix lint errors with ruff. Use when ruff "
        "reports errors.\n---\n# Lint fix\n\n## Steps\n1. Run ruff.\n"
    )
    (git_repo / "AGENTS.md").write_text("# Codex notes\n\nUse ruff.\n")
    ok(run_cli("init", "--minimal", cwd=git_repo))
    report = json.loads(ok(run_cli("import", "--from", "codex", cwd=git_repo)))
    assert set(report["targets_added"]) == {"agent-skills", "agents-md"}
    assert report["round_trip"]["differs"] == 0
    ok(run_cli("sync", cwd=git_repo))
    assert (git_repo / "AGENTS.md").read_text() == "# Codex notes\n\nUse ruff.\n"  # no roster appended
    result = subprocess.run(
        [str(AGENTSKILLS), "validate", str(skill)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert ok(run_cli("sync", "--check", cwd=git_repo)).strip() == "in sync"


def test_import_without_a_workspace_says_what_to_run(git_repo: Path):
    result = run_cli("import", "--root", str(git_repo), cwd=git_repo)
    assert result.returncode == 2
    assert "orkestra init" in result.stderr


# --- targets ------------------------------------------------------------------------------


@pytest.fixture
def all_targets(git_repo: Path) -> Path:
    root = python_package(git_repo)
    ok(run_cli("init", cwd=root))
    (root / "registries/instructions").mkdir()
    (root / "registries/instructions/project.md").write_text("# Flaskish\n\nRun `python -m pytest`.\n")
    (root / "registries/instructions/typing.md").write_text(
        "---\ndescription: Typing rules\nglobs: ['src/**/*.py']\n---\nAnnotate every public function.\n"
    )
    config = root / "orkestra.yaml"
    config.write_text(config.read_text().replace("targets: [claude]", ALL_TARGETS))
    ok(run_cli("sync", cwd=root))
    return root


def test_every_target_parses_as_its_runtime_expects(all_targets: Path):
    root = all_targets
    claude_servers = json.loads((root / ".mcp.json").read_text())["mcpServers"]
    assert set(json.loads((root / ".cursor/mcp.json").read_text())["mcpServers"]) == set(claude_servers)
    vscode = json.loads((root / ".vscode/mcp.json").read_text())["servers"]
    assert set(vscode) == set(claude_servers)
    assert all("type" in s for s in vscode.values())
    codex = tomllib.loads((root / ".codex/config.toml").read_text())["mcp_servers"]
    assert set(codex) == set(claude_servers)
    assert all("type" not in s for s in codex.values())
    plugin_mcp = json.loads((root / "marketplace/plugins/flaskish/.mcp.json").read_text())
    assert set(plugin_mcp["mcpServers"]) == set(claude_servers)  # at user scope: its own launcher
    assert [s["args"][2:] for s in plugin_mcp["mcpServers"].values()] == [
        s["args"][2:] for s in claude_servers.values()
    ]
    agents_md = (root / "AGENTS.md").read_text()
    assert agents_md.startswith("# Flaskish")
    assert "`test-engineer`" in agents_md
    assert "## Registry commands" in agents_md
    assert (root / "CLAUDE.md").read_text().startswith("# Flaskish")
    rule = parse_markdown((root / ".claude/rules/typing.md").read_text())[0]
    assert rule == {"description": "Typing rules", "paths": ["src/**/*.py"]}
    mdc = parse_markdown((root / ".cursor/rules/typing.mdc").read_text())[0]
    assert mdc == {"description": "Typing rules", "globs": ["src/**/*.py"]}
    assert parse_markdown((root / ".cursor/rules/project.mdc").read_text())[0] == {"alwaysApply": True}
    assert (
        parse_markdown((root / ".github/instructions/typing.instructions.md").read_text())[0]["applyTo"]
        == "src/**/*.py"
    )
    assert (root / ".github/copilot-instructions.md").read_text().startswith("# Flaskish")
    copilot = parse_markdown((root / ".github/agents/code-reviewer.agent.md").read_text())
    assert copilot[0]["name"] == "code-reviewer"
    assert "maguyva/intelligent_search" in copilot[0]["tools"]
    assert "read" in copilot[0]["tools"]
    assert "## Values" in copilot[1]
    for skill in (root / ".claude/skills").iterdir():
        assert (root / ".agents/skills" / skill.name / "SKILL.md").read_bytes() == (
            skill / "SKILL.md"
        ).read_bytes()
    assert ok(run_cli("sync", "--check", cwd=root)).strip() == "in sync"


def test_a_server_added_to_the_tools_registry_reaches_every_target(all_targets: Path):
    root = all_targets
    tools = root / "registries/tools.yaml"
    tools.write_text(
        tools.read_text().replace(
            "mcp_servers:\n",
            "mcp_servers:\n  docs:\n    description: Docs.\n"
            "    transport: {type: http, url: 'https://docs.example/mcp'}\n",
            1,
        )
    )
    ok(run_cli("sync", cwd=root))
    assert json.loads((root / ".cursor/mcp.json").read_text())["mcpServers"]["docs"] == {
        "url": "https://docs.example/mcp"
    }
    assert json.loads((root / ".vscode/mcp.json").read_text())["servers"]["docs"]["type"] == "http"
    assert (
        tomllib.loads((root / ".codex/config.toml").read_text())["mcp_servers"]["docs"]["url"]
        == "https://docs.example/mcp"
    )
    assert "docs" in json.loads((root / "marketplace/plugins/flaskish/.mcp.json").read_text())["mcpServers"]


def test_dropping_a_target_prunes_its_files(all_targets: Path):
    root = all_targets
    config = root / "orkestra.yaml"
    config.write_text(config.read_text().replace(ALL_TARGETS, "targets: [claude]"))
    ok(run_cli("sync", cwd=root))
    assert not (root / "AGENTS.md").exists()
    assert not (root / ".cursor").exists()
    assert not (root / ".vscode").exists()
    assert not (root / ".github/agents").exists()
    assert (root / ".github/workflows/tests.yaml").exists()
    assert (root / ".claude/agents/orchestrator.md").exists()


def test_agent_skills_tree_passes_agentskills_validate(all_targets: Path):
    failures = []
    skills = sorted((all_targets / ".agents/skills").iterdir())
    for skill in skills:
        result = subprocess.run(
            [str(AGENTSKILLS), "validate", str(skill)], capture_output=True, text=True, check=False
        )
        if result.returncode != 0:
            failures.append(f"{skill.name}: {result.stdout}{result.stderr}")
    assert len(skills) == 5
    assert failures == []


# --- plugin: the real Claude Code client ----------------------------------------------------


@pytest.fixture(scope="module")
def claude() -> Path:
    binary, reason = npm_bin(CLAUDE_CODE, "claude")
    if binary is None:
        print(f"skipping: {reason}")
        pytest.skip(reason)
    return binary


@pytest.mark.external
def test_built_plugin_validates_installs_and_is_listed_enabled(claude: Path, git_repo: Path, tmp_path: Path):
    root = hand_written(python_package(git_repo))
    steps = json.loads(ok(run_cli("init", cwd=root)))["next_steps"]
    assert steps[0].startswith("orkestra import --dry-run")  # hand-written content found: import first
    ok(run_cli("import", cwd=root))
    out = tmp_path / "market"
    build = json.loads(ok(run_cli("plugin", "build", "--out", str(out), cwd=root)))
    assert build["plugin"] == "flaskish"
    assert build["version"] == "3.1.0"
    manifest = json.loads((out / "plugins/flaskish/.claude-plugin/plugin.json").read_text())
    assert manifest["version"] == "3.1.0"
    assert manifest["author"] == {"name": "Pallets"}
    listing = json.loads((out / ".claude-plugin/marketplace.json").read_text())
    assert listing["plugins"][0]["source"] == "./plugins/flaskish"
    env = {**os.environ, "HOME": str(tmp_path / "home"), "CLAUDE_CONFIG_DIR": str(tmp_path / "home/.claude")}
    (tmp_path / "home").mkdir()

    def cc(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(claude), "plugin", *args],
            capture_output=True,
            text=True,
            timeout=180,
            env=env,
            check=False,
            cwd=tmp_path,
        )

    config = root / "orkestra.yaml"  # the `plugin` target renders the same tree through sync
    config.write_text(config.read_text().replace("targets: [claude, ", "targets: [claude, plugin, "))
    ok(run_cli("sync", cwd=root))
    for folder in (
        out,
        out / "plugins/flaskish",
        root / "marketplace",
        root / "marketplace/plugins/flaskish",
    ):
        validated = cc("validate", "--json", str(folder))
        assert validated.returncode == 0, validated.stdout
        assert json.loads(validated.stdout)["success"] is True, validated.stdout
    provided = json.loads(cc("validate", "--json", str(out / "plugins/flaskish")).stdout)["provides"]
    assert {"flaskish:security-auditor", "flaskish:orchestrator"} <= set(provided["agents"])
    assert "flaskish:release-notes" in provided["skills"]
    assert "flaskish:ship" in provided["commands"]
    ok(cc("marketplace", "add", str(out)))
    ok(cc("install", f"flaskish@{build['marketplace_name']}"))
    listed = cc("list", "--json")
    assert listed.returncode == 0, listed.stderr
    entry = next(p for p in json.loads(listed.stdout) if p["id"] == f"flaskish@{build['marketplace_name']}")
    assert entry["enabled"] is True
    assert entry["version"] == "3.1.0"
    # a second build replaces the first; a folder that is not ours is refused
    ok(run_cli("plugin", "build", "--out", str(out), cwd=root))
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine/keep.txt").write_text("x")
    refused = run_cli("plugin", "build", "--out", str(tmp_path / "mine"), cwd=root)
    assert refused.returncode != 0
    assert (tmp_path / "mine/keep.txt").read_text() == "x"
    git(root, "status", "--porcelain")


@pytest.mark.external
def test_codex_reads_the_generated_mcp_servers(all_targets: Path, tmp_path: Path):
    """The real Codex CLI loads `.codex/config.toml` (as its CODEX_HOME config) with every server."""
    codex, reason = npm_bin("@openai/codex", "codex")
    if codex is None:
        print(f"skipping: {reason}")
        pytest.skip(reason)
    root = all_targets
    tools = root / "registries/tools.yaml"
    tools.write_text(
        tools.read_text().replace(
            "mcp_servers:\n",
            "mcp_servers:\n  docs:\n    description: Docs.\n"
            "    transport: {type: http, url: 'https://docs.example/mcp'}\n"
            "  local:\n    description: Local.\n    transport: {command: tool, "
            "args: [serve], env: {API_KEY: '${API_KEY}', MODE: fast}}\n",
            1,
        )
    )
    ok(run_cli("sync", cwd=root))
    home = tmp_path / "codex-home"
    home.mkdir()
    (home / "config.toml").write_bytes((root / ".codex/config.toml").read_bytes())
    listed = subprocess.run(
        [str(codex), "mcp", "list", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "CODEX_HOME": str(home)},
        check=False,
    )
    assert listed.returncode == 0, listed.stderr
    servers = {s["name"]: s["transport"] for s in json.loads(listed.stdout)}
    assert set(servers) == {"docs", "local", "maguyva", "orkestra"}
    assert servers["docs"]["url"] == "https://docs.example/mcp"
    assert servers["local"]["command"] == "tool"
    assert servers["local"]["env_vars"] == ["API_KEY"]
    assert servers["local"]["env"] == {"MODE": "fast"}
    assert servers["maguyva"]["args"][-2:] == [
        "code",
        "serve",
    ]
