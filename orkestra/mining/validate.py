"""``mine validate``: every problem in the ledgers, as located diagnostics.

Checks: corrupt or truncated JSON lines, line schema, full 40-hex SHAs, SHAs that exist in
the repository (skipped by ``quick``), decision-id format, referenced decision records exist,
and no repeated (sha, domain) unless the later line is a ``"correction": true``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from orkestra.errors import Diagnostic
from orkestra.mining.classify import Classification
from orkestra.mining.config import MiningPaths
from orkestra.mining.decisions import DECISION_ID_RE, DecisionCatalog
from orkestra.mining.ledger import ledger_files, read_lines

FULL_SHA_RE = re.compile(r"^[0-9a-f]{40}$")


class NotePart(BaseModel):
    """A further entry of the same commit (a Conventional Commit embedded in a squash body)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: str | None = None
    scope: str | None = None
    summary: str
    breaking: bool = False
    category: Literal["added", "changed", "deprecated", "removed", "fixed", "security"]


class ReleaseNote(BaseModel):
    """One line of ``release_notes.jsonl``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    sha: str
    date: str
    category: Literal["added", "changed", "deprecated", "removed", "fixed", "security"]
    summary: str
    scope: str | None = None
    breaking: bool = False
    packages: list[str]
    correction: bool = False
    type: str | None = None
    parts: list[NotePart] | None = None
    by: Literal["auto"] | None = None


def validate_ledgers(paths: MiningPaths, quick: bool = False) -> dict:
    """All ledger problems; ``{"ok", "lines", "diagnostics"}``."""
    processed_path, notes_path = ledger_files(paths)
    catalog = DecisionCatalog.read(paths.decisions_dir)
    problems: list[Diagnostic] = []
    shas: dict[str, tuple[str, int]] = {}
    lines = 0
    for path, model, key in ((processed_path, Classification, "domain"), (notes_path, ReleaseNote, None)):
        rel = _rel(paths.root, path)
        first_seen: dict[tuple, int] = {}
        for number, record, _ in read_lines(path):
            lines += 1
            where = (rel, number)
            if record is None:
                problems.append(Diagnostic(rel, number, 1, "", "corrupt or truncated JSON line", code="json"))
                continue
            try:
                model.model_validate(record)
            except ValidationError as exc:
                problems.extend(
                    Diagnostic(rel, number, 1, ".".join(map(str, e["loc"])), e["msg"], code="schema")
                    for e in exc.errors()
                )
                continue
            sha = str(record["sha"])
            if not FULL_SHA_RE.match(sha):
                problems.append(
                    Diagnostic(
                        rel, number, 1, "sha", f"{sha!r} is not a full 40-hex lowercase SHA", code="bad-sha"
                    )
                )
                continue
            shas.setdefault(sha, where)
            ident = (sha, record.get(key) if key else "changelog")
            if ident in first_seen and not record.get("correction"):
                problems.append(
                    Diagnostic(
                        rel,
                        number,
                        1,
                        "sha",
                        f"duplicate entry for {sha[:12]} in {ident[1]} "
                        f"(first at line {first_seen[ident]}); mark a deliberate replacement "
                        'with "correction": true',
                        code="duplicate",
                    )
                )
            first_seen.setdefault(ident, number)
            problems.extend(_decision_problems(record, catalog, rel, number))
    if not quick and shas:
        from orkestra.mining.git import Git

        present = Git(paths.root).existing_commits(sorted(shas))
        problems.extend(
            Diagnostic(
                shas[s][0],
                shas[s][1],
                1,
                "sha",
                f"commit {s[:12]} is not in this repository",
                code="unknown-sha",
            )
            for s in sorted(shas)
            if s not in present
        )
    problems.sort(key=lambda d: (d.path, d.line, d.field))
    return {"ok": not problems, "lines": lines, "diagnostics": problems}


def _decision_problems(record: dict, catalog: DecisionCatalog, rel: str, number: int) -> list[Diagnostic]:
    decision_id = record.get("decision_id")
    if decision_id is None:
        return []
    if not DECISION_ID_RE.match(decision_id):
        return [
            Diagnostic(
                rel,
                number,
                1,
                "decision_id",
                f"{decision_id!r} is not a decision id like 'DEC-PL-142'",
                code="bad-decision-id",
            )
        ]
    if decision_id not in catalog.ids:
        return [
            Diagnostic(
                rel,
                number,
                1,
                "decision_id",
                f"decision {decision_id} has no record in {catalog.records_dir.name}/",
                code="unknown-decision",
            )
        ]
    return []


def _rel(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)
