"""What the model sees of the maguyva tools: every input and output schema, snapshotted.

The snapshot (tests/snapshots/mcp_tool_schemas.json) is the exact ``tools/list`` a client gets:
a change to a tool's arguments or to an answer model shows up here as a diff to review.
Regenerate it after an intended change with::

    MAGUYVA_UPDATE_SNAPSHOTS=1 python -m pytest tests/test_mcp_schemas.py
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import anyio
from mcp import Client

from maguyva.answers import SearchAnswer
from maguyva.server.app import build_server

SNAPSHOT = Path(__file__).parent / "snapshots" / "mcp_tool_schemas.json"


def listed_tools() -> dict:
    async def go():
        async with Client(build_server(lambda: None)) as client:  # listing never opens the index
            return (await client.list_tools()).tools

    return {t.name: t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in anyio.run(go)}


def test_tool_schemas_match_the_snapshot():
    tools = listed_tools()
    if os.environ.get("MAGUYVA_UPDATE_SNAPSHOTS"):
        SNAPSHOT.write_text(json.dumps(tools, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    recorded = json.loads(SNAPSHOT.read_text())
    assert sorted(tools) == sorted(recorded), (
        "tools added or removed: regenerate the snapshot (see module doc)"
    )
    for name, tool in tools.items():
        assert tool == recorded[name], (
            f"{name}'s schemas drifted from {SNAPSHOT.name}; review the change and "
            f"regenerate with MAGUYVA_UPDATE_SNAPSHOTS=1"
        )


def test_every_tool_publishes_an_object_output_schema_naming_its_answer_keys():
    tools = listed_tools()
    for name, tool in tools.items():
        schema = tool["outputSchema"]
        assert schema["type"] == "object", name
        assert schema["properties"], name
        assert "title" not in json.dumps(tool["inputSchema"]), (
            name
        )  # generated titles cost tokens, say nothing
    search = tools["intelligent_search"]["outputSchema"]["properties"]
    assert set(search) == set(SearchAnswer.model_fields)
    assert search["results"] == {"type": "array"}
    assert search["confidence"] == {"type": "number"}


def test_answers_validate_against_their_model_and_keep_the_dict_shape():
    """A key that does not apply is absent (not null), as when answers were dicts."""
    answer = SearchAnswer.model_validate(
        {
            "query": "q",
            "intent": "explore",
            "confidence": 0.5,
            "fusion_strategy": "ranked",
            "modalities_used": [],
            "weights": {},
            "k": 40,
            "notes": [],
            "results": [
                {
                    "citation": "a.py:1",
                    "path": "a.py",
                    "line": 1,
                    "end_line": 2,
                    "symbol": None,
                    "kind": "file",
                    "snippet": "",
                    "score": 1.0,
                    "modality": "text",
                    "found_by": ["text"],
                    "demoted": False,
                }
            ],
        }
    )
    dumped = answer.model_dump(mode="json")
    assert "truncated" not in dumped
    assert "repos" not in dumped
    assert "more" not in dumped["results"][0]
    assert dumped["results"][0]["symbol"] is None  # a null that belongs to the shape stays
    assert answer["results"][0]["citation"] == "a.py:1"
    assert answer.get("truncated", "no") == "no"
    assert "results" in answer
    assert "truncated" not in answer


def test_the_refresh_answer_has_exactly_the_index_summary_fields():
    """RefreshAnswer mirrors IndexSummary field for field (answers.py must not import the indexer)."""
    from dataclasses import fields

    from maguyva.answers import RefreshAnswer
    from maguyva.index.pipeline import IndexSummary

    assert list(RefreshAnswer.model_fields) == [f.name for f in fields(IndexSummary)]
