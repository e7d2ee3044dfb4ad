"""Issue 31 class 11: a NUL character in a tool argument on a PostgreSQL store gets a clear error.

PostgreSQL text cannot hold NUL. psycopg raised a ``DataError`` from deep in a query, and the MCP
client read only "Error executing tool search_text". Every connection Maguyva opens now refuses NUL in
any text it sends with a ``UsageError`` saying so (``catalog.refuse_nul_text``), so each tool answers an
error the model can act on. A throwaway cluster (tests/pg_server.py); skipped where PostgreSQL is missing.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import anyio
import pytest
from clirun import run_cli
from local_http import free_port, mcp_calls, serve_http, wait_for_port
from maguyva_project import make_project
from mcp import Client

from maguyva.errors import UsageError
from maguyva.index.pipeline import index_repository
from maguyva.server.app import Repository, build_server
from maguyva.workspace import TeamWorkspace

pytestmark = pytest.mark.postgres
RUN = uuid.uuid4().hex[:6]

CALLS = [
    ("search_text", {"pattern": "cart\x00total"}),
    ("find_symbol", {"symbol_name": "cart_total\x00"}),
    ("find_symbol", {"symbol_name": "\x00", "exact": False}),
    ("find_references", {"symbol_name": "apply\x00discount"}),
    ("search_structure", {"name": "cart\x00*"}),
    ("search_structure", {"signature_contains": "\x00"}),
    ("analyze_dependencies", {"target": "shop/checkout.py::cart\x00total"}),
]


@pytest.fixture(scope="module")
def store(tmp_path_factory, postgres_url) -> tuple[Path, str]:
    root = make_project(tmp_path_factory.mktemp("pgnul") / "shop")
    url = f"{postgres_url}?workspace=nul-{RUN}"
    index_repository(root, url, workers=1)
    return root, url


def _message(result) -> str:
    return " ".join(getattr(part, "text", "") for part in result.content)


def test_every_tool_answers_a_nul_with_a_message_in_a_real_session(store):
    """Before: `is_error` with the bare text "Error executing tool search_text" (no reason given)."""
    root, url = store
    repo = Repository(root, url)

    async def go():
        async with Client(build_server(repo)) as client:
            return [await client.call_tool(name, args) for name, args in CALLS], await client.call_tool(
                "search_text", {"pattern": "cart_total"}
            )

    try:
        refused, fine = anyio.run(go)
    finally:
        repo.close()
    for (name, args), result in zip(CALLS, refused, strict=True):
        message = _message(result)
        assert result.is_error, (name, args)
        assert "NUL character" in message or "no file name can" in message, (name, args, message)
    # the connection is still usable
    assert not fine.is_error
    assert fine.structured_content["count"] >= 1


def test_get_file_names_the_nul_in_a_path(store):
    root, url = store
    repo = Repository(root, url)

    async def go():
        async with Client(build_server(repo)) as client:
            return await client.call_tool("get_file", {"path": "shop/\x00checkout.py"})

    try:
        result = anyio.run(go)
    finally:
        repo.close()
    # before: "path is empty"
    assert result.is_error
    assert "NUL character" in _message(result)


def test_the_team_server_over_http_answers_the_same(store, tmp_path):
    _, url = store
    created = run_cli("code", "keys", "create", "ci", "--store", url, cwd=tmp_path)
    assert created.returncode == 0, created.stderr
    token = json.loads(created.stdout)["token"]
    port = free_port()
    server = serve_http(port, "--store", url, cwd=tmp_path)
    try:
        assert wait_for_port(port, server), server.stderr.read().decode() if server.stderr else ""
        grep, symbol, fine = mcp_calls(
            f"http://127.0.0.1:{port}/mcp",
            token,
            [
                ("search_text", {"pattern": "a\x00b"}),
                ("find_symbol", {"symbol_name": "cart_total\x00"}),
                ("search_text", {"pattern": "cart_total"}),
            ],
        )
    finally:
        server.terminate()
        server.communicate(timeout=20)
    for result in (grep, symbol):
        assert result.is_error, _message(result)
        assert "NUL character" in _message(result), _message(result)
    assert not fine.is_error


def test_the_library_raises_a_usage_error(store):
    _, url = store
    workspace = TeamWorkspace(url)
    try:
        with pytest.raises(UsageError, match="NUL character"):
            workspace.search_text("x\x00")
        assert workspace.search_text("cart_total")["count"] >= 1
    finally:
        workspace.close()
