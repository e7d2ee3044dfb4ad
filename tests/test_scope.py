"""One retrieval object over a scope of several stores: here two local SQLite indexes, no server."""

from __future__ import annotations

import anyio
import pytest
from maguyva_project import make_project
from mcp import Client
from test_team_server import make_repo

from maguyva.api import Maguyva
from maguyva.errors import MaguyvaError
from maguyva.index.pipeline import index_repository
from maguyva.scope import Scope, ScopedMaguyva
from maguyva.server.app import build_server


@pytest.fixture(scope="module")
def scoped(tmp_path_factory):
    base = tmp_path_factory.mktemp("scope")
    shop = make_project(base / "shop")
    billing = make_repo(
        base / "billing",
        {
            "billing.py": "def apply_discount(total):\n    return total * 0.9\n\n\ndef invoice(total):\n"
            "    return apply_discount(total)\n"
        },
    )
    repos = {}
    for root in (shop, billing):
        index_repository(root, root / "index.db", workers=1)
        repos[root.name] = Maguyva.open(root, str(root / "index.db"))
    api = ScopedMaguyva(Scope("local", repos))
    yield api
    api.close()


def test_a_scope_of_two_stores_answers_with_repository_qualified_citations(scoped):
    found = scoped.intelligent_search("def apply_discount")
    cited = {r.citation for r in found.results}
    assert {"shop:shop/pricing.py:8", "billing:billing.py:1"} <= cited
    assert sorted(found.repos) == ["billing", "shop"]
    symbols = scoped.find_symbol("apply_discount").dump()["symbols"]
    assert {s["repo"] for s in symbols} == {"shop", "billing"}
    only = scoped.search_text("apply_discount", path_prefix="billing:")
    assert only.results
    assert {r.repo for r in only.results} == {"billing"}
    lines = scoped.get_file("billing:billing.py", start_line=1, end_line=1)
    assert lines.citation == "billing:billing.py:1"
    assert lines.lines[0].text.startswith("def apply_discount")


def test_rankings_are_fused_by_rank_whatever_each_store_scores(scoped):
    found = scoped.intelligent_search("apply_discount", limit=20)
    own = {
        name: [r.path for r in api.intelligent_search("apply_discount", limit=20).results]
        for name, api in scoped.scope.repos.items()
    }
    ranks = [own[r.repo].index(r.path) for r in found.results]
    assert ranks == sorted(ranks)  # each repository's rank r before any rank r + 1


def test_a_scope_refuses_names_outside_it_and_a_refresh_it_cannot_do(scoped):
    with pytest.raises(MaguyvaError, match="no repository 'vault' in scope 'local'"):
        scoped.search_text("x", path_prefix="vault:")
    with pytest.raises(MaguyvaError, match=r"in several repositories|no file"):
        scoped.get_file("README.md")
    with pytest.raises(MaguyvaError, match="refresh each repository"):
        scoped.refresh_index()


def test_the_mcp_tools_serve_a_scope_with_the_same_answer_schemas(scoped):
    async def go():
        async with Client(build_server(lambda: scoped)) as client:
            search = await client.call_tool("intelligent_search", {"query": "apply_discount"})
            context = await client.call_tool(
                "gather_task_context", {"task": "apply a discount", "token_budget": 600}
            )
            overview = await client.call_tool("repo_overview", {})
            refs = await client.call_tool(
                "find_references", {"symbol_name": "apply_discount", "include_possible": True}
            )
            return search, context, overview, refs

    search, context, overview, refs = anyio.run(go)
    assert not search.is_error
    assert search.structured_content["results"][0]["citation"].split(":")[0] in (
        "shop",
        "billing",
    )
    assert context.structured_content["snippets"]
    assert context.structured_content["tokens_used"] <= 600
    assert overview.structured_content["workspace"] == "local"
    assert {r["repo"] for r in overview.structured_content["repositories"]} == {"shop", "billing"}
    assert "billing:billing.py:6" in {r["citation"] for r in refs.structured_content["references"]}
