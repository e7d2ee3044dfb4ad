"""A file of one long method chain (``x.f().f()…``) must not stall the index.

A chain of n calls has n receivers, each the chain so far. Kept whole, they cost O(n²) bytes, and
the value pass parsed each into nested tuples whose hashes are O(depth): O(n³) time. tree-sitter's
query also slows with depth × matches. Measured on the old code: 1,000 calls (5 KB of Python)
took 12 s, 2,000 took 80 s, and 20,000 (80 KB) ran out of time with 3.4 GB of memory, for
Python, JavaScript and TypeScript alike. A cloned repository could hold such a file and stall
``maguyva index``, or the server's refresh.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from conftest import git

from maguyva.index.extract import MAX_MATCH_DEPTH, extract_source
from maguyva.index.pipeline import index_repository
from maguyva.index.values import MAX_TEXT, UNKNOWN

CALLS = 400  # 800 levels deep: every call within MAX_MATCH_DEPTH
TIMED_CALLS = 1_000


def chain(language: str, calls: int) -> bytes:
    body = "x" + ".f()" * calls
    return {
        "python": f"q = {body}\n",
        "javascript": f"const q = {body};\n",
        "typescript": f"const q = {body};\n",
    }[language].encode()


def flat(language: str, calls: int) -> bytes:
    """As many calls, one per statement: the same work without the chain."""
    end = "" if language == "python" else ";"
    return "".join(f"q{i} = x.f(){end}\n" for i in range(calls)).encode()


@pytest.mark.parametrize("language", ["python", "javascript", "typescript"])
def test_a_chain_stores_bounded_receivers(language: str):
    extraction = extract_source("chain.x", language, chain(language, CALLS))
    calls = [r for r in extraction.references if r.kind == "call"]
    assert len(calls) == CALLS
    assert max(len(r.qualifier) for r in calls) <= MAX_TEXT  # the first ones as written, then "?"
    assert sum(r.qualifier == UNKNOWN for r in calls) >= CALLS - MAX_TEXT // 4
    assert [r.qualifier for r in calls[:3]] == ["x", "x.f()", "x.f().f()"]


def test_a_chain_deeper_than_the_match_depth_is_cut_not_stalled():
    extraction = extract_source("deep.py", "python", chain("python", 20_000))
    calls = [r for r in extraction.references if r.kind == "call"]
    assert 0 < len(calls) <= MAX_MATCH_DEPTH  # matches start no deeper than MAX_MATCH_DEPTH


def _index_seconds(tmp_path: Path, name: str, source: bytes) -> float:
    repo = tmp_path / name
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / "m.py").write_bytes(source)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "feat: one file")
    started = time.perf_counter()
    summary = index_repository(repo)
    assert not summary.errors
    assert summary.files == 1
    return time.perf_counter() - started


def test_indexing_a_chain_costs_about_what_the_same_calls_cost_flat(tmp_path: Path):
    _index_seconds(tmp_path, "warm", flat("python", 10))  # imports and grammar loading out of the ratio
    chained = _index_seconds(tmp_path, "chain", chain("python", TIMED_CALLS))
    flat_seconds = _index_seconds(tmp_path, "flat", flat("python", TIMED_CALLS))
    assert chained < 5 * flat_seconds + 0.5, (chained, flat_seconds)  # the old code: ~40×


def test_a_local_used_only_inside_a_long_callback_is_still_a_fact():
    """Receivers kept in normal form lose their callbacks' text; its words still count as uses."""
    callback = " ".join(f"const v{i} = digits + {i};" for i in range(30))  # well past MAX_TEXT
    source = (
        "function frame(lines) {\n"
        "  const digits = String(lines.length).length;\n"
        f"  return lines.map((line) => {{ {callback} return line; }}).join('\\n');\n"
        "}\n"
    ).encode()
    extraction = extract_source("frame.js", "javascript", source)
    join = next(r for r in extraction.references if r.kind == "call" and r.name == "join")
    assert join.qualifier == UNKNOWN  # 1.2 KB as written, its callback's braces left in by normalize
    binds = {r.name for r in extraction.references if r.kind == "bind"}
    assert "digits" in binds
