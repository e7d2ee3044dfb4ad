"""Pure views over catalog sections: the status report, filtered listings, single records.

Every function takes plain catalog records (lists of dicts) and returns a JSON-ready dict
whose shape is documented in docs/cli.md. Unknown ids raise NotFoundError with close matches.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

AGENT_ROW = ("name", "category", "model", "description", "scopes", "domains")
SKILL_ROW = ("name", "tier", "type", "source", "scope", "description")
DECISION_ROW = ("id", "title", "domain", "status", "created")
TRUTH_ROW = ("id", "status", "scope", "statement", "tags", "package")


def status_report(counts: dict[str, int], health: dict[str, Any], index: dict[str, Any]) -> dict[str, Any]:
    """Level 1: counts, health details and one verdict: no errors, in sync, no stale index."""
    index_ok = not index["present"] or index["fresh"]
    healthy = health["validation"]["errors"] == 0 and health["sync"]["in_sync"] and index_ok
    return {**counts, "health": {**health, "index": index}, "healthy": healthy}


def agent_row(agent: dict) -> dict[str, Any]:
    """The listing row of a full agent record (``skills`` becomes how many it loads)."""
    return {**pick(agent, AGENT_ROW), "skills": len(agent["skills"])}


def agent_rows(
    rows: list[dict], category: str | None = None, model: str | None = None, scope: str | None = None
) -> dict[str, Any]:
    """Filter listing rows (the catalog keeps them apart from the full records, to load fast)."""
    selected = [
        r
        for r in rows
        if (category is None or r["category"] == category)
        and (model is None or r["model"] == model)
        and (scope is None or scope in r["scopes"])
    ]
    return {"count": len(selected), "agents": selected}


def skill_rows(
    skills: list[dict],
    tier: str | None = None,
    type: str | None = None,
    scope: str | None = None,
    source: str | None = None,
) -> dict[str, Any]:
    rows = [
        pick(s, SKILL_ROW)
        for s in skills
        if (tier is None or s["tier"] == tier.upper())
        and (type is None or s["type"] == type)
        and (scope is None or scope in s["scopes"])
        and (source is None or s["source"] == source)
    ]
    return {"count": len(rows), "skills": rows}


def decision_rows(
    decisions: list[dict], limit: int | None = None, domain: str | None = None, status: str | None = None
) -> dict[str, Any]:
    """Newest first (by ``created``, then id)."""
    selected = [
        d
        for d in reversed(decisions)
        if (domain is None or d["domain"] == domain) and (status is None or d["status"] == status)
    ]
    rows = [pick(d, DECISION_ROW) for d in (selected if limit is None else selected[:limit])]
    return {"count": len(rows), "total": len(selected), "decisions": rows}


def truth_rows(
    truths: list[dict], status: str | None = None, tag: str | None = None, scope: str | None = None
) -> dict[str, Any]:
    rows = [pick(t, TRUTH_ROW) for t in truths_matching(truths, status, tag, scope)]
    return {"count": len(rows), "truths": rows}


def record(records: list[dict], kind: str, key: str, field: str) -> dict[str, Any]:
    """The record whose ``field`` equals ``key`` (case-insensitive), else NotFoundError."""
    from orkestra.errors import NotFoundError  # difflib only when something is missing

    wanted = key.lower()
    for item in records:
        if item[field].lower() == wanted:
            return item
    raise NotFoundError(kind, key, [item[field] for item in records])


def truths_matching(
    truths: Iterable[dict], status: str | None, tag: str | None, scope: str | None
) -> list[dict]:
    return [
        t
        for t in truths
        if (status is None or t["status"] == status)
        and (tag is None or tag in t["tags"])
        and (scope is None or t["scope"] == scope)
    ]


def pick(item: dict, keys: tuple[str, ...]) -> dict[str, Any]:
    return {key: item[key] for key in keys}
