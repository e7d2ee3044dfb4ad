"""Searching the catalog: records → search entries (tokenised once), per-kind and unified results."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import Any

from orkestra.inspect.views import DECISION_ROW, SKILL_ROW, TRUTH_ROW, agent_row, pick, truths_matching
from orkestra.search import KINDS, Entry, SearchIndex

# kind -> (catalog section, key field, the listing row of a record: per-kind search rows are these + score)
SECTION = {
    "agent": ("agents", "name", agent_row),
    "skill": ("skills", "name", partial(pick, keys=SKILL_ROW)),
    "decision": ("decisions", "id", partial(pick, keys=DECISION_ROW)),
    "truth": ("truths", "id", partial(pick, keys=TRUTH_ROW)),
    "package": ("packages", "name", dict),
}


def _join(values: Iterable[Any]) -> str:
    return " ".join(str(v) for v in values if v)


def _guidance(item: dict) -> str:
    guidance = item.get("agent_guidance") or {}
    return _join([*guidance.get("do", []), *guidance.get("avoid", []), item.get("notes", "")])


def agent_entry(a: dict) -> Entry:
    persona = [i["name"] for i in a["identity"]] + [a["mindset"]["name"], a["style"]["name"]]
    return Entry(
        "agent",
        a["name"],
        a["description"],
        {
            "id": a["name"],
            "description": a["description"],
            "category": a["category"],
            "domains": _join(a["domains"]),
            "scopes": _join(a["scopes"]),
            "persona": _join(persona),
            "skills": _join(s["name"] for s in a["skills"]),
        },
    )


def skill_entry(s: dict) -> Entry:
    return Entry(
        "skill",
        s["name"],
        s["description"],
        {
            "id": s["name"],
            "description": s["description"],
            "tags": _join(s["tags"]),
            "scope": _join([s["scope"], *s["scopes"]]),
            "facets": _join([s["type"], s["tier"], s["semantic_folder"], s["provider"]]),
        },
    )


def decision_entry(d: dict) -> Entry:
    return Entry(
        "decision",
        d["id"],
        d["title"],
        {
            "id": d["id"],
            "title": d["title"],
            "summary": d["summary"],
            "tags": _join([d["domain"], *d["tags"]]),
            "rationale": _join(d["rationale"]),
            "context": d["context"],
            "files": _join(d["files"]),
            "guidance": _guidance(d),
        },
    )


def truth_entry(t: dict) -> Entry:
    return Entry(
        "truth",
        t["id"],
        t["statement"],
        {
            "id": t["id"],
            "statement": t["statement"],
            "rationale": t["rationale"],
            "tags": _join(t["tags"]),
            "evidence": _join(t["evidence"]),
            "guidance": _guidance(t),
        },
    )


def package_entry(p: dict) -> Entry:
    return Entry(
        "package",
        p["name"],
        p["description"] or p["path"],
        {"id": p["name"], "path": p["path"], "description": p["description"]},
    )


BUILDERS = {
    "agent": agent_entry,
    "skill": skill_entry,
    "decision": decision_entry,
    "truth": truth_entry,
    "package": package_entry,
}


def build_index(sections: dict[str, list[dict]], kinds: Iterable[str] = KINDS) -> SearchIndex:
    """One index over the given kinds' records (each kind's section must be in ``sections``)."""
    return SearchIndex.build(BUILDERS[kind](item) for kind in kinds for item in sections[SECTION[kind][0]])


def search_all(
    index: SearchIndex,
    query: str,
    kinds: Iterable[str] | None = None,
    limit: int | None = None,
    summary: bool = False,
) -> dict[str, Any]:
    """Unified search: ranked hits, or with ``summary`` only the counts per kind."""
    hits = index.search(query, kinds=kinds)
    if summary:
        counts = {SECTION[kind][0]: 0 for kind in KINDS}
        for hit in hits:
            counts[SECTION[hit.kind][0]] += 1
        return {"query": query, "total": len(hits), "counts": counts}
    shown = hits if limit is None else hits[:limit]
    return {"query": query, "total": len(hits), "hits": [hit.to_dict() for hit in shown]}


def search_kind(records: list[dict], kind: str, query: str, limit: int | None = None) -> dict[str, Any]:
    """Search one registry kind; rows are that kind's list rows plus ``score``."""
    section, key, row = SECTION[kind]
    by_key = {item[key]: item for item in records}
    hits = SearchIndex.build(BUILDERS[kind](item) for item in records).search(query, limit=limit)
    rows = [{**row(by_key[hit.id]), "score": round(hit.score, 3)} for hit in hits]
    return {"query": query, "count": len(rows), section: rows}


def search_truths(
    truths: list[dict], query: str | None, tag: str | None = None, limit: int | None = None
) -> dict[str, Any]:
    """Truths by query, by tag, or both (the tag filters first); without a query, in id order."""
    selected = truths_matching(truths, None, tag, None)
    if query:
        return {**search_kind(selected, "truth", query, limit), "tag": tag}
    rows = [{**pick(t, TRUTH_ROW), "score": None} for t in selected[:limit]]
    return {"query": None, "count": len(rows), "truths": rows, "tag": tag}
