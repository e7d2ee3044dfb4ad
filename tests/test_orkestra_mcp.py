"""The `orkestra` MCP server: six tools in-process, within the schema budget, over stdio and over HTTP."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import anyio
import pytest
from conftest import git
from local_http import free_port, wait_for_port
from mcp import Client
from memory_repo import make_memory_repo, mine_rules

from orkestra.server.app import build_server

TOOLS = {"search_registry", "get_decision", "get_truth", "why", "list_agents_skills", "propose_decision"}


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    repo = tmp_path_factory.mktemp("orkestra-mcp") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    shas = make_memory_repo(repo)
    mine_rules(repo, shas["rules"])
    return repo, shas


def call(server, tool: str, args: dict | None = None):
    async def go():
        async with Client(server) as client:
            return await client.call_tool(tool, args or {})

    return anyio.run(go)


def test_six_tools_within_1200_schema_tokens(shop):
    async def go():
        async with Client(build_server(shop[0])) as client:
            return (await client.list_tools()).tools

    tools = anyio.run(go)
    assert {t.name for t in tools} == TOOLS
    size = sum(len(json.dumps(t.model_dump(mode="json", exclude_none=True))) for t in tools)
    assert size / 4 <= 1200, f"tool schemas cost ~{size // 4} tokens"
    assert all(t.description and len(t.description) < 200 for t in tools)


def test_why_search_and_records_are_cited(shop):
    repo, shas = shop
    server = build_server(repo)
    answer = call(server, "why", {"target": "src/shop/pricing.py"}).structured_content
    assert [r["citation"] for r in answer["results"]][:2] == ["GT-SHOP-001", "DEC-PR-001"]
    hits = call(
        server, "search_registry", {"query": "rounded cents", "kinds": ["decision"]}
    ).structured_content
    assert hits["hits"][0]["id"] == "DEC-PR-001"
    decision = call(server, "get_decision", {"decision_id": "dec-pr-001"}).structured_content
    assert decision["citation"].startswith(
        "DEC-PR-001 (ai_assets/reference/decisions/records/DEC-PR-001.yaml"
    )
    assert decision["source_commits"][0]["sha"] == shas["rules"]
    truth = call(server, "get_truth", {"truth_id": "GT-SHOP-002"}).structured_content
    assert truth["evidence"] == ["src/shop/notes.py"]
    listed = call(server, "list_agents_skills").structured_content
    assert "orchestrator" in [a["name"] for a in listed["agents"]]
    assert listed["skills"]
    assert all(len(item["description"]) <= 140 for item in listed["agents"] + listed["skills"])


def test_errors_the_model_can_fix_are_tool_errors(shop):
    server = build_server(shop[0])
    unknown = call(server, "get_decision", {"decision_id": "DEC-PR-009"})
    assert unknown.is_error
    assert "did you mean" in unknown.content[0].text
    outside = call(server, "why", {"target": "../../etc/passwd"})
    assert outside.is_error
    assert "not a path inside the repository" in outside.content[0].text
    bounded = call(server, "why", {"target": "src/shop", "limit": 1}).structured_content
    assert len(bounded["results"]) == 1
    assert bounded["truncated"]


def test_propose_decision_writes_a_draft_only(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    shas = make_memory_repo(repo)
    server = build_server(repo)
    result = call(
        server,
        "propose_decision",
        {
            "domain": "pricing",
            "title": "Rebates are fixed amounts",
            "summary": "apply_rebate takes money, not %.",
            "do": ["Pass an amount in the price's currency."],
            "files": ["src/shop/pricing.py"],
            "commits": [shas["rebate"][:10]],
        },
    ).structured_content
    assert (result["id"], result["status"]) == ("DEC-PR-004", "proposed")
    import yaml

    record = yaml.safe_load((repo / result["path"]).read_text())
    assert record["status"] == "proposed"
    assert record["files"] == ["src/shop/pricing.py"]
    assert record["source_commits"][0]["sha"] == shas["rebate"]
    from orkestra.validation import validate_workspace
    from orkestra.workspace import Workspace

    errors = [
        d for d in validate_workspace(Workspace.load(repo), symbol_lookup=False) if d.severity == "error"
    ]
    assert not errors, errors
    for bad, expected in (
        ({"files": ["../x.py"]}, "not a path inside"),
        ({"commits": ["deadbeef00"]}, "not a commit"),
        ({"domain": "nope"}, "unknown decision domain"),
        ({"title": ""}, "title is required"),
    ):
        args = {"domain": "pricing", "title": "t", "summary": "s", **bad}
        outcome = call(server, "propose_decision", args)
        assert outcome.is_error, outcome.content[0].text
        assert expected in outcome.content[0].text, outcome.content[0].text
    assert (
        max(p.name for p in (repo / "ai_assets/reference/decisions/records").glob("*.yaml"))
        == "DEC-PR-004.yaml"
    )  # no partial record left by the refused calls


def test_stdio_subprocess_session(shop):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    repo, _ = shop
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "orkestra", "serve", "--root", str(repo)], env={**os.environ}
    )

    async def go():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            return await session.list_tools(), await session.call_tool("why", {"target": "src/shop/notes.py"})

    tools, found = anyio.run(go)
    assert {t.name for t in tools.tools} == TOOLS
    assert [r["citation"] for r in found.structured_content["results"]] == ["GT-SHOP-002", "DEC-PR-002"]


def test_http_subprocess_session(shop):
    repo, _ = shop
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "orkestra", "serve", "--http", "--port", str(port), "--root", str(repo)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        assert wait_for_port(port, process, 30), f"nothing listens on {port} (exit code {process.poll()})"

        async def go():
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                return await client.list_tools(), await client.call_tool(
                    "get_truth", {"truth_id": "GT-SHOP-001"}
                )

        tools, truth = anyio.run(go)
        assert {t.name for t in tools.tools} == TOOLS
        assert truth.structured_content["id"] == "GT-SHOP-001"
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_the_tools_registry_declares_exactly_the_served_tools():
    from conftest import REPO

    from orkestra.workspace import Workspace

    declared = Workspace.load(REPO).tools.mcp_servers["orkestra"]
    assert set(declared.tools) == TOOLS
    assert (declared.transport.command, declared.transport.args) == (
        "orkestra",
        ["serve", "--root", "${CLAUDE_PROJECT_DIR:-.}"],
    )
    rendered = json.loads((REPO / ".mcp.json").read_text())["mcpServers"]
    assert rendered["orkestra"]["args"][-3:] == ["serve", "--root", "${CLAUDE_PROJECT_DIR:-.}"]
    assert "maguyva" in rendered
    agent = (REPO / ".claude" / "agents" / "search-relevance-engineer.md").read_text()
    # the tool guide reaches the agents listing it
    assert "### orkestra" in agent
    assert "`why(target)`" in agent


def test_mcp_config_prints_the_orkestra_server_for_every_client(tmp_path):
    from clirun import run_cli

    claude = run_cli("mcp", "config", "--client", "claude", "--server", "orkestra", cwd=tmp_path)
    entry = json.loads(claude.stdout)["mcpServers"]["orkestra"]
    assert entry["command"] == "sh"
    assert entry["args"][2:] == [  # the launcher (orkestra.launcher)
        "orkestra",
        "${CLAUDE_PROJECT_DIR:-.}",
        "serve",
        "--root",
        "${CLAUDE_PROJECT_DIR:-.}",
    ]
    codex = run_cli("mcp", "config", "--client", "codex", "--server", "orkestra", cwd=tmp_path)
    assert tomllib.loads(codex.stdout)["mcp_servers"]["orkestra"]["args"][-2:] == ["--root", str(tmp_path)]
    bad = run_cli("mcp", "config", "--client", "claude", "--server", "nope", cwd=tmp_path)
    assert bad.returncode == 2
    assert "unknown server" in bad.stderr


def test_read_only_drops_the_writing_tool_and_remote_http_requires_it(shop):
    from clirun import run_cli

    async def go():
        async with Client(build_server(shop[0], read_only=True)) as client:
            return (await client.list_tools()).tools

    assert {t.name for t in anyio.run(go)} == TOOLS - {"propose_decision"}
    refused = run_cli("serve", "--http", "--host", "0.0.0.0", "--root", str(shop[0]), cwd=shop[0])
    assert refused.returncode == 2
    assert "--read-only" in refused.stderr


def test_the_catalog_listing_is_bounded():
    from orkestra.server.tools import MAX_CATALOG_CHARS, _bounded_catalog

    many = [{"name": f"skill-{n}", "description": "x" * 140} for n in range(1_000)]
    answer = _bounded_catalog([{"name": "a", "description": "d"}], many)
    assert answer["agents"]
    assert 0 < len(answer["skills"]) < 1_000
    assert answer["skill_count"] == 1_000
    assert answer["truncated"]
    assert "search_registry" in answer["truncation_note"]
    assert len(json.dumps(answer)) <= MAX_CATALOG_CHARS * 1.1
    small = _bounded_catalog([], many[:3])
    assert "truncated" not in small
    assert len(small["skills"]) == 3


def test_a_new_workspace_wires_the_orkestra_server(git_repo):
    from clirun import run_cli

    assert run_cli("init", str(git_repo), cwd=git_repo).returncode == 0
    assert run_cli("sync", cwd=git_repo).returncode == 0
    servers = json.loads((git_repo / ".mcp.json").read_text())["mcpServers"]
    from orkestra.launcher import PROJECT_LAUNCHER

    assert servers["orkestra"] == {
        "type": "stdio",
        "command": "sh",
        "args": ["-c", PROJECT_LAUNCHER, "orkestra", "${CLAUDE_PROJECT_DIR:-.}", "serve"],
    }
    orchestrator = (git_repo / ".claude" / "agents" / "orchestrator.md").read_text()
    assert "mcp__orkestra__why" in orchestrator
    assert "### orkestra" in orchestrator
    answer = call(build_server(git_repo), "list_agents_skills").structured_content
    assert "orchestrator" in [a["name"] for a in answer["agents"]]
