"""Recording classifications: ``mine classify`` (one) and ``mine commit`` (a JSONL batch).

Every line is validated first — shape, sha known to the index, decision id usable, not
already classified in that domain (unless ``"correction": true``), no repeat inside the
batch — and only then is anything written: all or nothing.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left
from dataclasses import dataclass
from pathlib import Path

from orkestra.errors import Diagnostic, UsageError, WorkspaceError
from orkestra.mining.config import MiningPaths
from orkestra.mining.decisions import DecisionCatalog, upsert_decision_record
from orkestra.mining.index import INDEX_FILE, load_index, read_state
from orkestra.mining.index_files import committed_bytes
from orkestra.mining.ledger import append_lines, ledger_files, ledger_lock, read_lines
from orkestra.mining.records import Classification, split_lines, validate_line
from orkestra.mining.sections import changelog_types

LEDGERS = ("changelog", "decisions")
SHA_RE = re.compile(r"^[0-9a-f]{7,40}\Z")
SCAN_LIMIT = 8  # above this many shas, load the index once instead of scanning it per sha


@dataclass(frozen=True, slots=True)
class CommitOutcome:
    recorded: int
    released: int
    extracted: int
    skipped: int
    decision_records: list[str]

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__slots__}


def parse_classifications(text: str, source: str) -> list[tuple[int, Classification]]:
    """Parse a JSONL batch into (line number, classification); every bad line is reported before raising."""
    items, problems = [], []
    for number, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        record, found = validate_line(Classification, line, source, number)
        if record is None:
            problems.extend(found)
        else:
            items.append((number, Classification.model_validate(record)))
    if problems:
        raise WorkspaceError(problems)
    return items


def classify_commit(
    paths: MiningPaths,
    sha: str,
    *,
    changelog: str | None = None,
    summary: str | None = None,
    decision: str | None = None,
    role: str = "primary",
    skip: bool = False,
    reason: str | None = None,
    only: str | None = None,
    correct: bool = False,
) -> CommitOutcome:
    """``mine classify``: exactly one of a changelog category, a decision id, or a skip (both ledgers
    unless ``only`` names one)."""
    if (changelog is not None) + (decision is not None) + skip != 1:
        raise UsageError("give exactly one of --changelog CATEGORY, --decision ID, --skip --reason TEXT")
    if changelog is not None:
        lines = [{"domain": "changelog", "action": "release", "category": changelog, "summary": summary}]
    elif decision is not None:
        lines = [{"domain": "decisions", "action": "extract", "decision_id": decision, "role": role}]
    else:
        lines = [{"domain": d, "action": "skip", "reason": reason} for d in ([only] if only else LEDGERS)]
    text = "\n".join(json.dumps({"sha": sha, **line, "correction": correct}) for line in lines)
    source = "<command line>"
    return record_classifications(paths, parse_classifications(text, source), source)


def commit_classifications(paths: MiningPaths, input_path: Path | str) -> CommitOutcome:
    """``mine commit --input FILE.jsonl``: validate every line, then record them all (or none).

    ``-`` (and ``/dev/stdin``) read standard input.
    """
    text, source = read_input(input_path)
    return record_classifications(paths, parse_classifications(text, source), source)


def read_input(input_path: Path | str) -> tuple[str, str]:
    """(text, name for diagnostics) of a JSONL input: a file, or standard input for ``-``."""
    import sys

    if str(input_path) == "-":
        return sys.stdin.read(), "<stdin>"
    path = Path(input_path)
    try:
        with path.open(encoding="utf-8") as handle:  # a pipe (/dev/stdin) reads like a file; no resolve()
            return handle.read(), str(path)
    except OSError as exc:
        raise UsageError(f"{path}: cannot read input ({exc.strerror or exc})") from exc
    except UnicodeDecodeError as exc:
        raise UsageError(f"{path}: input is not UTF-8 ({exc.reason} at byte {exc.start})") from exc


def record_classifications(
    paths: MiningPaths, items: list[tuple[int, Classification]], source: str = "<input>"
) -> CommitOutcome:
    """Validate every (line number, classification) against the index, ledgers and decisions, then
    write them all."""
    commits = _find_commits(paths, [c.sha.lower() for _, c in items])
    catalog = DecisionCatalog.read(paths.decisions_dir, paths)
    problems: list[Diagnostic] = []
    resolved: list[tuple[int, Classification, dict]] = []
    for number, item in items:
        found = commits.get(item.sha.lower())
        if not isinstance(found, dict):
            problems.append(
                Diagnostic(
                    source,
                    number,
                    1,
                    "sha",
                    found or f"unknown commit {item.sha!r} (not in the index; run `orkestra mine sync`)",
                    code="unknown-sha",
                )
            )
            continue
        if item.decision_id and (why := catalog.problem(item.decision_id)):
            problems.append(Diagnostic(source, number, 1, "decision_id", why, code="unknown-decision"))
            continue
        resolved.append((number, item, found))
    real = _in_repository(paths, [c["sha"] for _, _, c in resolved])
    for number, _item, found in resolved:
        if found["sha"] not in real:
            problems.append(
                Diagnostic(
                    source,
                    number,
                    1,
                    "sha",
                    f"{found['sha'][:12]} is in the index but not a "
                    "commit of this repository (run `orkestra mine sync --full`)",
                    code="unknown-sha",
                )
            )
    if problems:
        raise WorkspaceError(problems)

    processed_path, notes_path = ledger_files(paths)
    with ledger_lock(paths):
        resolved = _check_repeats(processed_path, resolved, source)
        written = [
            str(upsert_decision_record(catalog, i.decision_id, c, i.role or "primary", paths.root))
            for _, i, c in resolved
            if i.action == "extract"
        ]
        types = changelog_types(paths)[0]
        notes = [(i, release_note(paths, i, c, types)) for _, i, c in resolved if i.action == "release"]
        # the release notes first, the classifications last: a run killed in between left notes that
        # no classification owns, which this run's notes replace (or repeat, and are dropped)
        append_lines(paths.root, notes_path, _settled_notes(notes_path, notes))
        append_lines(paths.root, processed_path, [_processed(i, c) for _, i, c in resolved])
    actions = [i.action for _, i, _ in resolved]
    return CommitOutcome(
        len(resolved),
        actions.count("release"),
        actions.count("extract"),
        actions.count("skip"),
        sorted(set(written)),
    )


def _settled_notes(notes_path: Path, notes: list[tuple[Classification, dict]]) -> list[dict]:
    """The notes to append, given the notes ledger. ``notes`` are for commits whose changelog
    classification is new or a correction (``_check_repeats``). So a note already there for one that is
    not a correction has no classification: a killed run wrote it and never its classification. The
    same note again is dropped; a different one replaces it, as a correction."""
    data = notes_path.read_bytes() if notes and notes_path.is_file() else b""
    wanted = {note["sha"] for item, note in notes if not item.correction and note["sha"].encode() in data}
    if not wanted:
        return [note for _, note in notes]
    orphans = {r["sha"]: r for _, r, _ in read_lines(notes_path) if r and r.get("sha") in wanted}
    settled = []
    for item, note in notes:
        orphan = orphans.get(note["sha"])
        if orphan is None or item.correction:
            settled.append(note)
        elif orphan != json.loads(json.dumps(note)):  # as the ledger holds it
            settled.append({**note, "correction": True})
    return settled


def _in_repository(paths: MiningPaths, shas: list[str]) -> set[str]:
    """The shas that name commits in the repository: the index is derived state and never trusted alone."""
    from orkestra.mining.git import existing_commits

    return existing_commits(paths.root, sorted(set(shas)))


def _processed(item: Classification, commit: dict) -> dict:
    record = {"sha": commit["sha"], "domain": item.domain, "action": item.action}
    extra = {
        "category": item.category,
        "decision_id": item.decision_id,
        "role": (item.role or "primary") if item.action == "extract" else None,
        "reason": item.reason,
        "correction": item.correction or None,
        "by": item.by,
    }
    return record | {k: v for k, v in extra.items() if v is not None}


def release_note(
    paths: MiningPaths, item: Classification, commit: dict, releasable: frozenset[str] | None = None
) -> dict:
    """The rendered entry: the header (or, when only its body holds releasable commits, the first of them),
    with the other embedded commits as ``parts`` (``releasable``: :func:`changelog_types`, read once
    per batch)."""
    from orkestra.mining.sections import category_for, changelog_types, header_type, releasable_entries

    releasable = changelog_types(paths)[0] if releasable is None else releasable
    keyword_sections = paths.config.changelog.keyword_sections
    signals = commit["signals"]
    entries = releasable_entries(commit, releasable)
    head = (
        entries[0]
        if entries
        else {
            "type": header_type(commit, releasable),
            "scope": signals["scope"],
            "description": commit["description"],
            "breaking": signals["breaking"],
        }
    )
    note = {
        "sha": commit["sha"],
        "date": commit["date"][:10],
        "category": item.category,
        "summary": item.summary or head["description"],
        "scope": head["scope"],
        "breaking": head["breaking"],
        "packages": signals["packages"],
        "type": head["type"],
    }
    parts = [
        {
            "type": e["type"],
            "scope": e["scope"],
            "summary": e["description"],
            "breaking": e["breaking"],
            "category": category_for(e["type"], e["description"], keyword_sections),
        }
        for e in entries[1:]
    ]
    extra = {"parts": parts or None, "correction": item.correction or None, "by": item.by}
    return note | {k: v for k, v in extra.items() if v is not None}


def _check_repeats(
    processed_path: Path, resolved: list[tuple[int, Classification, dict]], source: str
) -> list[tuple[int, Classification, dict]]:
    """Refuse a (sha, domain) already in the ledger or earlier in the batch, unless it is a correction.

    A classification written by ``mine auto`` is always replaced by a person's or an LLM's (recorded
    as a correction); an automatic one never replaces anything.
    """
    data = processed_path.read_bytes() if processed_path.is_file() else b""
    wanted = {c["sha"] for _, _, c in resolved if c["sha"].encode() in data}
    existing = (
        {
            (r.get("sha"), r.get("domain")): r.get("by")
            for _, r, _ in read_lines(processed_path)
            if r and r.get("sha") in wanted
        }
        if wanted
        else {}
    )
    problems, checked = [], []
    for number, item, commit in resolved:
        key = (commit["sha"], item.domain)
        if key in existing and not item.correction:
            if existing[key] == "auto" and item.by != "auto":
                item = item.model_copy(update={"correction": True})
            else:
                problems.append(
                    Diagnostic(
                        source,
                        number,
                        1,
                        "sha",
                        f"{commit['sha'][:12]} is already classified "
                        f'for {item.domain}; add "correction": true (--correct) to replace it',
                        code="duplicate",
                    )
                )
        existing[key] = item.by
        checked.append((number, item, commit))
    if problems:
        raise WorkspaceError(problems)
    return checked


def _find_commits(paths: MiningPaths, shas: list[str]) -> dict[str, dict | str]:
    """Index records for full or abbreviated shas (an error string when unknown or ambiguous).

    A few shas (``mine classify``) are found by a byte scan that parses only their lines; a
    batch loads the index once.
    """
    found: dict[str, dict | str] = {s: f"{s!r} is not a commit sha" for s in shas if not SHA_RE.match(s)}
    wanted = [s for s in shas if s not in found]
    if len(wanted) > SCAN_LIMIT:
        index = load_index(paths)
        full = sorted(index)
        for sha in wanted:
            matches = full[bisect_left(full, sha) : bisect_left(full, sha + "g")]
            if len(matches) == 1:
                found[sha] = index[matches[0]]
            elif matches:
                found[sha] = f"{sha!r} is ambiguous ({len(matches)} commits)"
        return found
    data = committed_bytes(paths.index_dir, INDEX_FILE, read_state(paths))
    text = b"\n" + data
    for sha in wanted:
        hits: dict[bytes, int] = {}
        needle = b'\n{"sha":"' + sha.encode()
        at = text.find(needle)
        while at >= 0:  # ``at`` in text is the line's start in data; the last line for a sha wins
            hits[data[at + 8 : at + 48]] = at
            at = text.find(needle, at + 1)
        if len(hits) > 1:
            found[sha] = f"{sha!r} is ambiguous ({len(hits)} commits)"
        elif hits:
            start = next(iter(hits.values()))
            found[sha] = json.loads(data[start : data.index(b"\n", start)])
    return found
