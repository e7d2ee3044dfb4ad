"""The Maguyva MCP server: every tool in-process, over a stdio subprocess and over HTTP on loopback."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import anyio
import pytest
from local_http import free_port, serve_http, wait_for_port
from maguyva_project import index_project, make_project
from mcp import Client

from maguyva.api import Maguyva
from maguyva.server.app import Repository, build_server

TOOLS = {
    "intelligent_search",
    "find_symbol",
    "find_references",
    "analyze_dependencies",
    "get_file",
    "search_text",
    "search_structure",
    "repo_overview",
    "gather_task_context",
    "index_status",
    "refresh_index",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("shop")
    root = make_project(base / "repo")
    store = base / "index.db"
    index_project(root, store)
    return root, store


@pytest.fixture
def server(project):
    root, store = project
    repo = Repository(root, str(store))
    yield build_server(repo)
    repo.close()


def call(server, tool: str, args: dict | None = None):
    async def go():
        async with Client(server) as client:
            return await client.call_tool(tool, args or {})

    return anyio.run(go)


def test_lists_exactly_the_eleven_tools_within_the_schema_budget(server):
    async def go():
        async with Client(server) as client:
            return (await client.list_tools()).tools

    tools = anyio.run(go)
    assert {t.name for t in tools} == TOOLS
    assert all(
        t.output_schema and t.output_schema["type"] == "object" for t in tools
    )  # counted in the budget
    size = sum(len(json.dumps(t.model_dump(mode="json", exclude_none=True))) for t in tools)
    assert size / 4 <= 2500, f"tool schemas (input and output) cost ~{size // 4} tokens"
    for tool in tools:
        assert tool.description
        assert len(tool.description) < 200


def test_intelligent_search_reports_routing_and_cites_lines(server):
    result = call(server, "intelligent_search", {"query": "def apply_discount"}).structured_content
    assert (result["intent"], result["fusion_strategy"], result["modalities_used"]) == (
        "find_definition",
        "direct",
        ["structure"],
    )
    assert result["results"][0]["citation"] == "shop/pricing.py:8"
    fused = call(server, "intelligent_search", {"query": "how are payments charged"}).structured_content
    assert fused["fusion_strategy"] == "ranked"
    assert len(fused["modalities_used"]) >= 2
    assert any("semantic" in note for note in fused["notes"])  # no embeddings here: said, not hidden


def test_vendor_copies_are_demoted_below_the_real_code(server):
    result = call(server, "intelligent_search", {"query": "apply_discount percent", "preset": "thorough"})
    paths = [r["path"] for r in result.structured_content["results"]]
    assert paths.index("shop/pricing.py") < paths.index("vendor/legacy/pricing_copy.py")


def test_find_symbol_is_exact_by_default_and_fuzzy_only_on_request(server):
    assert call(server, "find_symbol", {"symbol_name": "apply_discnt"}).structured_content["count"] == 0
    similar = call(
        server, "find_symbol", {"symbol_name": "apply_discnt", "find_similar": True}
    ).structured_content
    assert similar["match"] == "similar"
    assert similar["symbols"][0]["symbol"].endswith("apply_discount")
    strict = call(
        server, "find_symbol", {"symbol_name": "apply_discnt", "find_similar": True, "exact_match": True}
    )
    assert strict.structured_content["count"] == 0
    qualified = call(server, "find_symbol", {"symbol_name": "DigitalProduct.download_url"}).structured_content
    assert [s["citation"] for s in qualified["symbols"]] == ["shop/models.py:15"]


def test_references_and_dependencies_follow_the_graph(server):
    refs = call(server, "find_references", {"symbol_name": "apply_discount"}).structured_content
    cited = {r["citation"] for r in refs["references"]}
    assert {"shop/checkout.py:13", "shop/pricing.py:14"} <= cited
    impact = call(server, "analyze_dependencies", {"target": "apply_discount", "direction": "impact"})
    impacted = {e["symbol"] for e in impact.structured_content["entries"]}
    assert {"shop.checkout.cart_total", "shop.pricing.price_with_tax", "shop.checkout.receipt"} <= impacted
    callees = call(server, "analyze_dependencies", {"target": "shop/checkout.py", "direction": "callees"})
    assert any(e.get("citation") == "shop/pricing.py:8" for e in callees.structured_content["entries"])


def test_get_file_reads_ranges_and_refuses_to_leave_the_repository(server):
    result = call(
        server,
        "get_file",
        {"path": "shop/pricing.py", "start_line": 8, "end_line": 9, "include_metadata": True},
    ).structured_content
    assert [line["line"] for line in result["lines"]] == [8, 9]
    assert result["lines"][0]["text"].startswith("def apply_discount")
    assert result["metadata"]["language"] == "python"
    assert not result["metadata"]["stale"]
    for bad in ("../outside.txt", "/etc/passwd", ".git/config", "shop/../../x"):
        outcome = call(server, "get_file", {"path": bad})
        assert outcome.is_error, bad
        assert "outside the repository" in outcome.content[0].text or ".git" in outcome.content[0].text


def test_search_text_literal_regex_and_structure(server):
    literal = call(server, "search_text", {"pattern": "ECONNREFUSED"}).structured_content
    assert [r["citation"] for r in literal["results"]] == ["shop/checkout.py:23"]
    regex = call(server, "search_text", {"pattern": r"def \w+_with_\w+", "regex": True}).structured_content
    assert {r["citation"] for r in regex["results"]} == {"shop/pricing.py:13", "shop/checkout.py:16"}
    classes = call(server, "search_structure", {"kind": "class", "name": "*Product"}).structured_content
    assert [r["symbol"] for r in classes["results"]] == [
        "shop.models.Product",
        "shop.models.DigitalProduct",
    ] or {r["symbol"] for r in classes["results"]} == {"shop.models.Product", "shop.models.DigitalProduct"}


def test_overview_context_status_and_refresh(server, project):
    overview = call(server, "repo_overview").structured_content
    assert {entry["language"] for entry in overview["languages"]} >= {"python", "markdown"}
    context = call(
        server, "gather_task_context", {"task": "retry payments with backoff", "token_budget": 600}
    ).structured_content
    assert context["tokens_used"] <= 600
    assert context["snippets"]
    assert all(":" in s["citation"] for s in context["snippets"])
    status = call(server, "index_status").structured_content
    assert status["snapshot"]["commit"]
    assert status["not_in_map_count"] == 0
    refreshed = call(server, "refresh_index").structured_content
    assert refreshed["mode"] == "incremental"
    assert refreshed["changed"] == 0


def test_the_answer_is_sent_once_as_structured_content_with_a_one_line_summary(server):
    result = call(server, "find_symbol", {"symbol_name": "cart_total"})
    assert result.structured_content["symbols"][0]["citation"] == "shop/checkout.py:12"
    (text,) = result.content
    assert text.text == "1 exact definition(s) of 'cart_total'"  # a summary, not a second copy of the JSON
    search = call(server, "intelligent_search", {"query": "def apply_discount"})
    assert len(search.content) == 1
    assert "shop/pricing.py:8" in search.content[0].text
    assert len(search.content[0].text) < 200


def test_answers_are_bounded_with_a_truncation_note(server):
    result = call(server, "search_text", {"pattern": "price", "max_tokens": 200}).structured_content
    assert result["truncated"] is True
    assert "omitted" in result["truncation_note"]


def test_index_status_reports_files_changed_since_the_snapshot(tmp_path):
    root = make_project(tmp_path / "repo")
    store = tmp_path / "index.db"
    index_project(root, store)
    (root / "shop" / "pricing.py").write_text("VAT = 0.1\n")
    api = Maguyva.open(root, str(store))
    try:
        status = api.index_status().dump()
        assert {"path": "shop/pricing.py", "state": "modified"} in status["not_in_map"]
        assert "shop/pricing.py" in status["uncommitted"]
    finally:
        api.close()


def test_stdio_subprocess_session(project):
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    root, store = project
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "orkestra", "code", "serve", "--repo", str(root), "--store", str(store)],
        env={**os.environ},
    )

    async def go():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            tools = await session.list_tools()
            found = await session.call_tool("find_symbol", {"symbol_name": "cart_total"})
            return tools, found

    tools, found = anyio.run(go)
    assert {t.name for t in tools.tools} == TOOLS
    assert found.structured_content["symbols"][0]["citation"] == "shop/checkout.py:12"


def test_http_subprocess_session(project):
    root, store = project
    port = free_port()
    process = serve_http(port, "--repo", str(root), "--store", str(store))
    try:
        assert wait_for_port(port, process, 30), f"nothing listens on {port} (exit code {process.poll()})"

        async def go():
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                tools = await client.list_tools()
                found = await client.call_tool("intelligent_search", {"query": '"ECONNREFUSED"'})
                return tools, found

        tools, found = anyio.run(go)
        assert {t.name for t in tools.tools} == TOOLS
        assert found.structured_content["results"][0]["citation"] == "shop/checkout.py:23"
    finally:
        process.terminate()
        process.wait(timeout=10)
