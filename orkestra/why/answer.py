"""``why``: the decisions, ground truths and changelog entries behind a path, line range or symbol.

Collected from three joins:

* decisions whose ``files`` list the path (or a former name of it, or a folder holding it) — *direct*;
  decisions whose ``source_commits``, or the mined ``decisions`` ledger, name a commit that touched it
  (``git log --follow`` of the path, ``git log -L`` of a line range) — *history*;
* ground truths whose ``evidence`` cites the path (``path`` or ``path::Symbol``) — *direct*;
* changelog entries (``release_notes.jsonl``) of the commits that shaped it — *history*.

Ranked: direct before history, then active/current before proposed/tentative before
superseded/deprecated, then newest first; kinds tie-break decision, truth, changelog. Every result
carries its citation (``DEC-…``, ``GT-…`` or a commit sha) and date, and decisions and truths their
do/avoid guidance. The answer is cut to ``limit`` results and about ``max_tokens`` tokens, saying so.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from orkestra.why.history import CommitRef, path_history, shaped_by
from orkestra.why.target import Target, index_lookup_for, present, resolve_target

STATUS_RANK = {"active": 0, "current": 0, "proposed": 1, "tentative": 1, "superseded": 2, "deprecated": 2}
KIND_RANK = {"decision": 0, "truth": 1, "changelog": 2}
DEFAULT_LIMIT = 20
DEFAULT_TOKENS = 4_000
MAX_COMMITS_SHOWN = 10


def covers(entry: str, names: tuple[str, ...]) -> bool:
    """True when a registry path entry (file, folder, or ``path::Symbol``) names one of ``names``.

    A folder entry (``maguyva/retrieve/`` or ``maguyva/retrieve``) covers every path below it; a folder
    target is covered by entries below it.
    """
    entry = entry.split("::", 1)[0].strip().rstrip("/")
    if not entry or "://" in entry:
        return False
    for name in names:
        name = name.rstrip("/")
        if entry == name or name.startswith(entry + "/") or entry.startswith(name + "/"):
            return True
    return False


def _date(value: str | None) -> str:
    return (value or "")[:10]


def decision_date(decision: dict) -> str:
    dates = [_date(c.get("date")) for c in decision.get("source_commits") or [] if c.get("date")]
    return max([*dates, _date(decision.get("created"))])


def _guidance(record: dict) -> dict:
    guidance = record.get("agent_guidance") or {}
    return {"do": list(guidance.get("do") or []), "avoid": list(guidance.get("avoid") or [])}


def _sha_match(sha: str, shas: dict[str, CommitRef]) -> CommitRef | None:
    sha = sha.lower()
    if sha in shas:
        return shas[sha]
    if len(sha) >= 7:
        return next((ref for full, ref in shas.items() if full.startswith(sha)), None)
    return None


def collect(
    target: Target,
    names: tuple[str, ...],
    commits: tuple[CommitRef, ...],
    decisions: list[dict],
    truths: list[dict],
    ledger: list[dict],
    notes: list[dict],
) -> list[dict]:
    """Every result for ``target`` (pure): ranked, not yet cut."""
    by_sha = {c.sha: c for c in commits}
    mined: dict[str, list[str]] = {}  # decision id -> shas the ledger extracted into it
    for record in ledger:
        if (
            record.get("domain") == "decisions"
            and record.get("action") == "extract"
            and record.get("sha") in by_sha
        ):
            mined.setdefault(str(record.get("decision_id")), []).append(record["sha"])
    results = []
    for decision in decisions:
        files = [f for f in decision.get("files") or [] if covers(f, names)]
        via = {
            c.sha for s in decision.get("source_commits") or [] if (c := _sha_match(s.get("sha", ""), by_sha))
        }
        via |= set(mined.get(decision["id"], []))
        if not files and not via:
            continue
        shaped = sorted((by_sha[s] for s in via), key=lambda c: c.date, reverse=True)
        results.append(
            {
                "kind": "decision",
                "id": decision["id"],
                "citation": decision["id"],
                "title": decision["title"],
                "status": decision["status"],
                "match": "direct" if files else "history",
                "date": decision_date(decision),
                "matched_files": files,
                "commits": [c.to_dict() for c in shaped[:MAX_COMMITS_SHOWN]],
                **_guidance(decision),
                "source": decision.get("path", ""),
            }
        )
    for truth in truths:
        evidence = [
            e for e in truth.get("evidence") or [] if covers(e, names) or covers(_in_package(e, truth), names)
        ]
        if not evidence:
            continue
        symbol_hit = bool(target.symbol) and any(
            e.endswith("::" + target.symbol.rsplit(".", 1)[-1]) for e in evidence
        )
        results.append(
            {
                "kind": "truth",
                "id": truth["id"],
                "citation": truth["id"],
                "title": truth["statement"],
                "status": truth["status"],
                "match": "direct",
                "date": _date(truth.get("last_verified")),
                "matched_evidence": evidence,
                "symbol_match": symbol_hit,
                **_guidance(truth),
                "source": truth.get("path", ""),
            }
        )
    for note in notes:
        ref = by_sha.get(note.get("sha", ""))
        if ref is None:
            continue
        results.append(
            {
                "kind": "changelog",
                "id": ref.sha[:12],
                "citation": ref.sha[:12],
                "title": note.get("summary") or ref.subject,
                "status": "active",
                "match": "history",
                "date": _date(note.get("date")) or _date(ref.date),
                "category": note.get("category"),
                "scope": note.get("scope"),
                "breaking": bool(note.get("breaking")),
                "sha": ref.sha,
                "subject": ref.subject,
            }
        )
    return rank(results)


def rank(results: list[dict]) -> list[dict]:
    """Direct before history, a symbol's own evidence first, live before retired, newest first, then kind
    and id (three stable sorts, last key first)."""
    ordered = sorted(results, key=lambda r: (KIND_RANK[r["kind"]], r["id"]))
    ordered.sort(key=lambda r: r["date"] or "", reverse=True)
    ordered.sort(
        key=lambda r: (
            r["match"] != "direct",
            not r.get("symbol_match", False),
            STATUS_RANK.get(r["status"], 3),
        )
    )
    return ordered


def _in_package(evidence: str, truth: dict) -> str:
    package = truth.get("package") or "."
    return evidence if package in (".", "") else f"{package.rstrip('/')}/{evidence}"


def bound(answer: dict, max_tokens: int) -> dict:
    """Drop trailing results until the JSON answer is within ~``max_tokens`` (4 characters a token)."""
    budget = max(200, max_tokens) * 4
    results = answer["results"]
    if len(json.dumps(answer)) <= budget:
        return answer
    kept = list(results)
    while kept and len(json.dumps({**answer, "results": kept})) > budget:
        kept.pop()
    return {
        **answer,
        "results": kept,
        "truncated": True,
        "truncation_note": f"{len(results) - len(kept)} more result(s) omitted to stay within {max_tokens} "
        "tokens; raise max_tokens or ask for a line range",
    }


def why(
    root: str | Path | None,
    target: str,
    *,
    limit: int = DEFAULT_LIMIT,
    max_tokens: int = DEFAULT_TOKENS,
    index_lookup: Callable | bool | None = True,
) -> dict[str, Any]:
    """Answer "why is this code like this" for ``target`` in the workspace at ``root``.

    :param index_lookup: True to resolve symbols through Maguyva's index when present, False never, or a
        callable ``(symbol, path) -> [(path, line, end_line, qualified_name)] | None`` (tests).
    """
    from orkestra.inspect.api import open_sections
    from orkestra.mining.config import load_mining_paths
    from orkestra.mining.ledger import ledger_files, read_records, skipped_lines
    from orkestra.why.history import is_git_repo
    from orkestra.workspace.root import find_root

    root = find_root(root, must_exist=True)
    lookup = index_lookup_for(root) if index_lookup is True else (index_lookup or None)
    git = is_git_repo(root)
    resolved = resolve_target(root, target, lambda rel: _known(root, rel, git), lookup)
    history = path_history(root, resolved.path, resolved.start, resolved.end) if git else None
    names = history.names if history else (resolved.path,)
    commits = history.commits if history else ()
    pull_requests: list[dict] = []
    blamed: list[dict] = []
    if git:  # the commits and pull requests that shaped it: an answer even where no record covers it
        commits, pull_requests, blamed = shaped_by(root, resolved.path, commits, resolved.start, resolved.end)
    sections = open_sections(root, ("decisions", "truths"))
    mining_paths = load_mining_paths(root)
    processed, release_notes = ledger_files(mining_paths)
    results = collect(
        resolved,
        names,
        commits,
        sections["decisions"],
        sections["truths"],
        read_records(processed),
        read_records(release_notes),
    )
    notes = list(resolved.notes) + skipped_lines(mining_paths)
    if not git:
        notes.append("not a git repository: history joins (commits, changelog) skipped")
    answer = {
        **resolved.to_dict(),
        "former_names": list(names[1:]),
        "count": len(results),
        "results": results[:limit],
        "commits": [c.to_dict() for c in commits[:MAX_COMMITS_SHOWN]],
        "commit_count": len(commits),
        "pull_requests": pull_requests,
        "notes": notes,
    }
    if resolved.start is not None:
        answer["blame"] = blamed
    if len(results) > limit:
        answer["truncated"] = True
        answer["truncation_note"] = f"{len(results) - limit} more result(s) beyond limit {limit}"
    return bound(answer, max_tokens)


def _known(root: Path, rel: str, git: bool) -> bool:
    """A path that exists now, or that git history knows."""
    if not rel:
        return False
    if present(root, rel):
        return True
    if not git:
        return False
    from orkestra.why.history import _git

    return bool(_git(root, "log", "-n1", "--format=%H", "--", rel).strip())


def format_why(answer: dict) -> str:
    """The people-facing text of ``orkestra why --format table``."""
    where = answer["path"] + (f":{answer['lines'][0]}-{answer['lines'][1]}" if answer.get("lines") else "")
    head = f"why {answer['target']}" + (
        f"  ({answer['symbol']} at {where})"
        if answer.get("symbol")
        else f"  ({where})"
        if where != answer["target"]
        else ""
    )
    lines = [head]
    if answer["former_names"]:
        lines.append(f"  formerly: {', '.join(answer['former_names'])}")
    if not answer["results"]:
        lines.append(
            "  no decision, ground truth or changelog entry covers it"
            + ("; the history that shaped it:" if answer.get("commit_count") else "")
        )
    for r in answer["results"]:
        lines.append(
            f"- {r['citation']} [{r['kind']}, {r['status']}, {r['match']}, {r['date'] or 'undated'}] "
            f"{' '.join(r['title'].split())[:160]}"
        )
        for word in ("do", "avoid"):
            for item in r.get(word, [])[:3]:
                lines.append(f"    {word}: {item}")
        for c in r.get("commits", [])[:3]:
            lines.append(f"    commit {c['sha'][:12]} {c['date']} {c['subject']}")
    lines.extend(_history_lines(answer))
    for note in answer["notes"]:
        lines.append(f"note: {note}")
    if answer.get("truncation_note"):
        lines.append(f"note: {answer['truncation_note']}")
    return "\n".join(lines) + "\n"


def _history_lines(answer: dict) -> list[str]:
    """The pull requests, commits and (for a line range) blamed commits behind the target."""
    count = answer.get("commit_count") or 0
    if not count:
        return []
    prs = answer.get("pull_requests") or []
    lines = [f"history: {count} commit(s)" + ("; pull requests, newest first:" if prs else "")]
    for pr in prs[:5]:
        lines.append(f"  PR #{pr['number']} {pr['date']} {' '.join(pr['title'].split())[:120]}")
    for c in answer["commits"][:5]:
        tag = f" (PR #{c['pr']})" if c.get("pr") and f"#{c['pr']}" not in c["subject"] else ""
        lines.append(f"  commit {c['sha'][:12]} {c['date']} {' '.join(c['subject'].split())[:120]}{tag}")
    for b in (answer.get("blame") or [])[:5]:
        lines.append(f"  lines: {b['lines']} now from {b['sha'][:12]} {b['date']} {b['subject'][:100]}")
    return lines
