"""``mine validate``: every problem in the ledgers, as located diagnostics.

Checks: corrupt or truncated JSON lines, line schema, full 40-hex SHAs, SHAs that exist in
the repository (skipped by ``quick``), decision-id format, referenced decision records exist,
and no repeated (sha, domain) unless the later line is a ``"correction": true``.
"""

from __future__ import annotations

import re
from pathlib import Path

from orkestra.errors import Diagnostic
from orkestra.mining.config import MiningPaths
from orkestra.mining.decisions import DECISION_ID_RE, DecisionCatalog
from orkestra.mining.ledger import ledger_files
from orkestra.mining.records import read_ledger

FULL_SHA_RE = re.compile(r"^[0-9a-f]{40}\Z")


def validate_ledgers(paths: MiningPaths, quick: bool = False) -> dict:
    """All ledger problems; ``{"ok", "lines", "diagnostics"}``."""
    processed_path, notes_path = ledger_files(paths)
    catalog = DecisionCatalog.read(paths.decisions_dir)
    problems: list[Diagnostic] = []
    shas: dict[str, tuple[str, int]] = {}
    lines = 0
    for path, key in ((processed_path, "domain"), (notes_path, None)):
        rel = _rel(paths.root, path)
        first_seen: dict[tuple, int] = {}
        read = read_ledger(path, rel)  # each line decoded with bounds and validated into its typed record
        lines += read.total
        problems.extend(read.problems)
        for number, record in zip(read.lines, read.records, strict=True):
            where = (rel, number)
            sha = record["sha"]
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
