"""Issue 14 item 8: a hostile regex cannot hang search_text, nor the tool call after it."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import anyio
import pytest
from conftest import git

from maguyva.api import Maguyva
from maguyva.errors import MaguyvaError
from maguyva.index.pipeline import index_repository

# each of these takes Python's backtracking engine exponential (or worse than quadratic) time on LINES
HOSTILE = ["(a+)+$", "(a|aa)+$", "(a*)*b", "^(a|a?)+$", "(x+x+)+y", "(.*a){12}$", "(\\w+\\s?)+$", "(a|a)*c"]
LINES = ["a" * 4000 + "!", "x" * 4000, "ab " * 2000 + "!"]


@pytest.fixture(scope="module")
def indexed(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("regex")
    root = base / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "app.py").write_text("def target_function():\n    return 'needle'\n")
    (root / "bait.txt").write_text("\n".join(LINES) + "\n")
    store = base / "index.db"
    index_repository(root, store, full=True, workers=1)
    return root, store


def test_hostile_patterns_answer_and_the_next_call_is_not_slowed(indexed):
    """Through a real stdio MCP session: each hostile search answers, and find_symbol right after it
    is about as fast as before (a ratio, measured in the same run)."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    root, store = indexed
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "orkestra", "code", "serve", "--repo", str(root), "--store", str(store)],
        env={**os.environ},
    )

    async def timed(session, tool, args):
        started = time.perf_counter()
        with anyio.fail_after(120):  # a hung server fails the test instead of hanging it
            result = await session.call_tool(tool, args)
        return result, time.perf_counter() - started

    async def go():
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            baseline = []
            for _ in range(3):
                await timed(session, "search_text", {"pattern": "need.e", "regex": True})
                baseline.append((await timed(session, "find_symbol", {"symbol_name": "target_function"}))[1])
            benign = min(
                [
                    (await timed(session, "search_text", {"pattern": "a+!", "regex": True}))[1]
                    for _ in range(3)
                ]
            )
            hostile, after = [], []
            for pattern in HOSTILE:
                result, seconds = await timed(session, "search_text", {"pattern": pattern, "regex": True})
                hostile.append((pattern, result, seconds))
                found, seconds = await timed(session, "find_symbol", {"symbol_name": "target_function"})
                assert found.structured_content["count"] == 1
                after.append(seconds)
            return min(baseline), benign, hostile, after

    base, benign, hostile, after = anyio.run(go)
    for pattern, result, seconds in hostile:
        assert not result.is_error, (pattern, result.content)
        assert seconds < max(benign * 50, 5.0), (pattern, seconds, benign)
    assert max(after) < max(base * 50, 5.0), (after, base)


def test_patterns_the_safe_engine_cannot_run_get_an_actionable_error(indexed):
    root, store = indexed
    api = Maguyva.open(root, str(store))
    try:
        for pattern in ("(a+)\\1", "(?=a)a", "(?<!b)a", "((a{100}){100}){100}", "a" * 20_000, "(" * 5000):
            with pytest.raises(MaguyvaError) as caught:
                api.search_text(pattern, regex=True)
            assert "regular expression" in str(caught.value)
        assert api.search_text("NEEDLE", regex=True, case_sensitive=False)["count"] == 1
        assert api.search_text("NEEDLE", regex=True, case_sensitive=True)["count"] == 0
    finally:
        api.close()


def test_a_regex_scan_stops_at_its_time_budget_and_says_so(indexed, monkeypatch):
    from maguyva.retrieve import text

    root, store = indexed
    monkeypatch.setattr(text, "REGEX_BUDGET_S", 0.0)
    api = Maguyva.open(root, str(store))
    try:
        answer = api.search_text("[a-z]+", regex=True)
    finally:
        api.close()
    assert answer["truncated"] is True
    assert "time budget" in answer["truncation_note"]


@pytest.mark.postgres
def test_hostile_patterns_on_a_postgres_store_answer_too(indexed, postgres_url):
    root, _ = indexed
    store = f"{postgres_url}?workspace=regex&repo=bait"
    index_repository(root, store, full=True, workers=1)
    api = Maguyva.open(root, store)
    try:
        started = time.perf_counter()
        api.search_text("need.e", regex=True)
        benign = time.perf_counter() - started
        for pattern in HOSTILE:
            started = time.perf_counter()
            assert "count" in api.search_text(pattern, regex=True)
            assert time.perf_counter() - started < max(benign * 50, 5.0), pattern
        assert api.search_structure(name="*a*a*a*a*a*a*a*a*a*a*a*a*b")["count"] == 0
        with pytest.raises(MaguyvaError):
            api.search_text("(a+)\\1", regex=True)
    finally:
        api.close()


def test_a_long_periodic_literal_is_searched_in_linear_time(tmp_path):
    """`abab…` against `abab…` is quadratic for a naive or backtracking substring search and for a
    long FTS5 phrase; the literal path must stay close to a short literal's cost (a ratio)."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "blob.py").write_text('DATA = "' + "ab" * 50_000 + '"\n')
    (root / "other.py").write_text("X = 1\n")
    store = tmp_path / "index.db"
    index_repository(root, store, full=True, workers=1)
    api = Maguyva.open(root, str(store))
    try:
        started = time.perf_counter()
        assert api.search_text("abab")["count"] == 1
        short = time.perf_counter() - started
        started = time.perf_counter()
        assert api.search_text("ab" * 20_000)["count"] == 1
        assert api.search_text("ab" * 20_000 + "x")["count"] == 0
        long = time.perf_counter() - started
    finally:
        api.close()
    assert long < max(short * 200, 5.0), (long, short)
