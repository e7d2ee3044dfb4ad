"""Draft decision records proposed by an agent (the ``propose_decision`` MCP tool): never active.

The record gets the next free id of its domain, ``status: proposed`` and today's date; files must
exist in the repository and commits must name commits of it. The file is created exclusively
(an existing record is never overwritten) through a temp file and a hard link, so a crash leaves
either no record or a whole one.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

from orkestra.errors import OrkestraError

MAX_TITLE = 200
MAX_TEXT = 4_000
MAX_ITEMS = 30
MAX_ITEM = 500
SHA_RE = re.compile(r"^[0-9a-fA-F]{7,40}$")


def _text(value: str, name: str, limit: int, required: bool = False) -> str:
    value = " ".join(str(value or "").split()) if limit <= MAX_TITLE else str(value or "").strip()
    if required and not value:
        raise OrkestraError(f"{name} is required")
    if len(value) > limit:
        raise OrkestraError(f"{name} is {len(value)} characters; at most {limit}")
    if "\x00" in value:
        raise OrkestraError(f"{name} contains a NUL character")
    return value


def _items(values: list[str] | None, name: str) -> list[str]:
    values = [_text(v, name, MAX_ITEM) for v in values or []]
    if len(values) > MAX_ITEMS:
        raise OrkestraError(f"{name}: at most {MAX_ITEMS} items")
    return [v for v in values if v]


def propose_decision(
    root: str | Path | None,
    domain: str,
    title: str,
    summary: str,
    *,
    context: str = "",
    rationale: list[str] | None = None,
    do: list[str] | None = None,
    avoid: list[str] | None = None,
    files: list[str] | None = None,
    commits: list[str] | None = None,
    today: dt.date | None = None,
) -> dict[str, Any]:
    """Write a ``proposed`` decision record; return its id, path and what a person does next."""
    import yaml

    from orkestra.inspect.api import find_root
    from orkestra.mining.decisions import next_decision_id
    from orkestra.why.history import _git
    from orkestra.why.target import clean_path, present
    from orkestra.workspace import Workspace

    root = find_root(root)
    title, summary = _text(title, "title", MAX_TITLE, True), _text(summary, "summary", MAX_TEXT, True)
    context = _text(context, "context", MAX_TEXT)
    rel_files = []
    for raw in _items(files, "files"):
        rel = clean_path(root, raw)
        if not present(root, rel):
            raise OrkestraError(f"files: {raw!r} does not exist in the repository")
        rel_files.append(rel)
    sources = []
    for sha in _items(commits, "commits"):
        if not SHA_RE.match(sha):
            raise OrkestraError(f"commits: {sha!r} is not a commit sha")
        line = _git(root, "log", "-n1", "--format=%H%x00%cI%x00%s", f"{sha}^{{commit}}", "--").strip()
        if not line:
            raise OrkestraError(f"commits: {sha!r} is not a commit of this repository")
        full, date, subject = line.split("\x00", 2)
        sources.append({"sha": full, "message": subject, "date": date[:10], "role": "primary"})
    ws = Workspace.load(root)
    decision_id = next_decision_id(ws, domain)
    code = decision_id.split("-")[1]
    domain_name = next(name for name, entry in ws.decision_registry.domains.items() if entry.code == code)
    record = {
        "id": decision_id,
        "title": title,
        "domain": domain_name,
        "status": "proposed",
        "created": (today or dt.date.today()).isoformat(),
        "summary": summary,
        "context": context,
        "rationale": _items(rationale, "rationale"),
        "impact": {"positive": [], "negative": []},
        "agent_guidance": {"do": _items(do, "do"), "avoid": _items(avoid, "avoid")},
        "source_commits": sources,
        "files": sorted(set(rel_files)),
        "related": [],
    }
    header = (
        "# Draft proposed through the orkestra MCP server (propose_decision); review it, then set status.\n"
    )
    text = header + yaml.safe_dump(record, sort_keys=False, allow_unicode=True, width=100)
    rel = f"{ws.config.paths.decisions}/records/{decision_id}.yaml"
    _create_exclusive(root / rel, text)
    return {
        "id": decision_id,
        "path": rel,
        "status": "proposed",
        "domain": domain_name,
        "next": f"a person reviews {rel}, completes it and sets status: active; then `orkestra validate` "
        "and `orkestra sync`",
    }


def _create_exclusive(target: Path, text: str) -> None:
    from orkestra.atomic import create_new

    if not create_new(target, text):  # the record appeared meanwhile: never overwrite
        raise OrkestraError(f"{target.name} already exists; propose again for the next id")
