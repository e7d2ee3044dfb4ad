"""Draft decision records proposed by an agent (the ``propose_decision`` MCP tool): never active.

The record gets the next free id of its domain, ``status: proposed`` and today's date; files must
exist in the repository and commits must name commits of it. Proposals take turns under a file lock,
and the file is created exclusively (an existing record is never overwritten) through a temp file and
a hard link, so concurrent calls get consecutive ids and a crash leaves either no record or a whole one.
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
SHA_RE = re.compile(r"^[0-9a-fA-F]{7,40}\Z")
PROPOSE_LOCK = "propose_decision.lock"  # in the state folder (git-ignored)
LOCK_TIMEOUT_S = 60
MAX_ATTEMPTS = 50


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

    from orkestra.mining.decisions import next_decision_id
    from orkestra.why.history import _git
    from orkestra.why.target import clean_path, present
    from orkestra.workspace import Workspace
    from orkestra.workspace.root import find_root

    root = find_root(root, must_exist=True)
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
    code = next_decision_id(ws, domain).split("-")[1]  # NotFoundError for an unknown domain
    domain_name = next(name for name, entry in ws.decision_registry.domains.items() if entry.code == code)
    record = {
        "id": "",
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

    def render(decision_id: str) -> str:
        return header + yaml.safe_dump(
            {**record, "id": decision_id}, sort_keys=False, allow_unicode=True, width=100
        )

    decision_id, rel = claim_next_id(ws, domain, render)
    return {
        "id": decision_id,
        "path": rel,
        "status": "proposed",
        "domain": domain_name,
        "next": f"a person reviews {rel}, completes it and sets status: active; then `orkestra validate` "
        "and `orkestra sync`",
    }


def claim_next_id(ws: Any, domain: str, render: Any, create: Any = None) -> tuple[str, str]:
    """Write ``render(id)`` as the record of the next free id of ``domain``; (id, repo-relative path).

    ``create(path, text)`` writes a record only if it does not exist yet and says whether it did
    (default: ``orkestra.fs.atomic.create_new``); ``decisions new`` passes its link-checking writer.

    Concurrent proposals (several MCP sessions, one server's worker threads, ``decisions new``) take
    turns under a file lock in the state folder, so each gets the next id; the record is still created
    exclusively, and an id taken meanwhile by a writer that holds no lock (a person) moves on to the
    next one. A record is never overwritten.
    """
    from filelock import FileLock, Timeout

    from orkestra.mining import guarded
    from orkestra.mining.decisions import next_decision_id

    state = guarded.folder(ws.root, ws.root / ws.config.paths.state)
    lock = guarded.check(ws.root, state / PROPOSE_LOCK)
    try:
        with FileLock(str(lock), timeout=LOCK_TIMEOUT_S):
            taken: set[str] = set()
            for _ in range(MAX_ATTEMPTS):  # next_decision_id reads the records folder again each time
                decision_id = _next_free(next_decision_id(ws, domain), taken)
                rel = f"{ws.config.paths.decisions}/records/{decision_id}.yaml"
                if (create or _create_exclusive)(ws.root / rel, render(decision_id)):
                    return decision_id, rel
                taken.add(decision_id)
    except Timeout:
        raise OrkestraError(
            f"another propose_decision has held {lock.relative_to(ws.root)} for {LOCK_TIMEOUT_S} s; propose again"
        ) from None
    raise OrkestraError(f"no free decision id after {MAX_ATTEMPTS} attempts; propose again")


def _next_free(decision_id: str, taken: set[str]) -> str:
    """``decision_id``, or the first id after it that this attempt has not already found taken."""
    prefix, _, number = decision_id.rpartition("-")
    value = int(number)
    while f"{prefix}-{value:03d}" in taken:
        value += 1
    return f"{prefix}-{value:03d}"


def _create_exclusive(target: Path, text: str) -> bool:
    """Create ``target`` with ``text``; False when it already exists (never overwritten)."""
    from orkestra.fs.atomic import create_new

    return create_new(target, text)
