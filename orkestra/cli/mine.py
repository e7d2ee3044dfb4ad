"""`orkestra mine …`: git history → commit index → classified ledgers (changelog and decisions)."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Annotated

import typer

from maguyva.controls import visible
from orkestra.cli.options import DryRunOption, Format, FormatOption, GitRepoOption, group, pick_format
from orkestra.cli.output import emit_json, run, show_record, show_rows

app = group("Mine git history into changelog and decision ledgers.")


class Ledger(str, Enum):
    changelog = "changelog"
    decisions = "decisions"


class Category(str, Enum):
    added = "added"
    changed = "changed"
    deprecated = "deprecated"
    removed = "removed"
    fixed = "fixed"
    security = "security"


def _paths(root: Path | None):
    from orkestra.mining.config import open_mining

    return open_mining(root or Path.cwd())


@app.command("sync")
def sync(
    stats: Annotated[
        bool, typer.Option("--stats", help="Also record insertions/deletions (slower).")
    ] = False,
    full: Annotated[bool, typer.Option("--full", help="Rebuild the index from scratch.")] = False,
    repo: GitRepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Index the commits new since the last sync.

    Rebuilds the index when history was rewritten.

    \b
    Example:
      orkestra mine sync
      orkestra mine sync --stats | jq .new_commits
    """

    def action() -> None:
        from orkestra.mining.index import sync_index

        show_record(sync_index(_paths(repo), stats=stats, full=full).to_dict(), fmt, "mine sync")

    run(action)


@app.command("status")
def status(
    repo: GitRepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Coverage of the indexed history, overall and per domain.

    For the decisions and the changelog ledger.

    \b
    Example:
      orkestra mine status
      orkestra mine status | jq .changelog.coverage
    """

    def action() -> None:
        import sys

        from orkestra.mining.status import format_status, mining_status

        result = mining_status(_paths(repo))
        if pick_format(fmt, Format.text) is not Format.json:
            sys.stdout.write(visible(format_status(result)))
        else:
            emit_json(result)

    run(action)


@app.command("candidates")
def candidates(
    limit: Annotated[int, typer.Option("--limit", min=1, help="At most this many commits.")] = 50,
    full: Annotated[bool, typer.Option("--full", help="Include body, footers, files and stats.")] = False,
    domain: Annotated[
        str | None, typer.Option("--domain", help="Only commits affecting this domain.")
    ] = None,
    ledger: Annotated[Ledger | None, typer.Option("--ledger", help="Only commits pending in it.")] = None,
    suggest: Annotated[
        bool, typer.Option("--suggest", help="Print suggested classifications (JSONL).")
    ] = False,
    for_ledger: Annotated[
        Ledger | None,
        typer.Option(
            "--for",
            help="decisions: rank by the three-question test (hard to make, costly to change, "
            "system-wide) with reasons per commit.",
        ),
    ] = None,
    repo: GitRepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Unclassified commits, likely decisions first.

    In a history without Conventional Commits each changelog candidate carries its "reading" (kind,
    pr, type, category, confidence, why): after `mine auto`, `--ledger changelog` lists what it left
    for review. JSON: {"pending", "history", "candidates": [{"sha", "date", "subject", "reading"?, ...}]}. With --for decisions: {"for", "pending", "candidates": [{"sha", "date", "subject", "questions_yes",
    "score", "questions": {"hard_to_make", "costly_to_change", "system_wide"}, "domains", "files"}]}.

    \b
    Example:
      orkestra mine candidates --limit 50 --full
      orkestra mine candidates --ledger changelog --full   # what mine auto left for review
      orkestra mine candidates --for decisions --limit 10
      orkestra mine candidates --suggest > review.jsonl   # edit, then: mine commit --input review.jsonl
    """

    def action() -> None:
        import json
        import sys

        if for_ledger is Ledger.decisions and not suggest:
            from orkestra.mining.decision_candidates import decision_candidates

            found = decision_candidates(_paths(repo), limit=limit, domain=domain, full=full)
            show_rows(found, fmt, "candidates", ("sha", "score", "questions_yes", "subject"))
            return

        from orkestra.mining.candidates import find_candidates, suggest_classifications

        paths = _paths(repo)
        found = find_candidates(
            paths, limit=limit, full=full or suggest, domain=domain, ledger=ledger.value if ledger else None
        )
        if suggest:
            lines = suggest_classifications(found["candidates"], paths)
            sys.stdout.write("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines))
        else:
            show_rows(found, fmt, "candidates", ("sha", "date", "subject"))

    run(action)


@app.command("classify")
def classify(
    sha: Annotated[str, typer.Argument(help="Commit sha (full or unique prefix).")],
    changelog: Annotated[
        Category | None, typer.Option("--changelog", help="Release in this category.")
    ] = None,
    summary: Annotated[
        str | None, typer.Option("--summary", help="Changelog text (default: subject).")
    ] = None,
    decision: Annotated[str | None, typer.Option("--decision", help="Link to this decision id.")] = None,
    role: Annotated[str, typer.Option("--role", help="primary or supporting (with --decision).")] = "primary",
    skip: Annotated[bool, typer.Option("--skip", help="Mark processed without an entry.")] = False,
    reason: Annotated[str | None, typer.Option("--reason", help="Why it is skipped.")] = None,
    only: Annotated[
        Ledger | None, typer.Option("--only", help="With --skip: one ledger (default both).")
    ] = None,
    correct: Annotated[bool, typer.Option("--correct", help="Replace an earlier classification.")] = False,
    repo: GitRepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Classify one commit: a changelog entry, a decision, or a skip.

    \b
    Example:
      orkestra mine classify 9057178 --changelog added --summary "Add DuckDB runtime"
      orkestra mine classify 9057178 --decision DEC-PL-143
      orkestra mine classify 1a2b3c4 --skip --reason "Chore: dependency update"
    """

    def action() -> None:
        from orkestra.mining.classify import classify_commit

        outcome = classify_commit(
            _paths(repo),
            sha,
            changelog=changelog.value if changelog else None,
            summary=summary,
            decision=decision,
            role=role,
            skip=skip,
            reason=reason,
            only=only.value if only else None,
            correct=correct,
        )
        show_record(outcome.to_dict(), fmt, f"classify {sha}")

    run(action)


@app.command("commit")
def commit(
    input_path: Annotated[str, typer.Option("--input", help="JSONL file; '-' reads standard input.")],
    repo: GitRepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Record a batch of classifications: every line or none.

    Both ledgers in one pass.

    \b
    Lines:
      {"sha": "…", "domain": "changelog", "action": "release", "category": "added", "summary": "…"}
      {"sha": "…", "domain": "decisions", "action": "extract", "decision_id": "DEC-PL-142"}
      {"sha": "…", "domain": "changelog", "action": "skip", "reason": "Chore: dependency update"}
    Example:
      orkestra mine commit --input classifications.jsonl
      orkestra mine candidates --suggest | orkestra mine commit --input -
    """

    def action() -> None:
        from orkestra.mining.classify import commit_classifications

        show_record(commit_classifications(_paths(repo), input_path).to_dict(), fmt, "mine commit")

    run(action)


@app.command("auto")
def auto(
    dry_run: DryRunOption = False,
    redo: Annotated[
        bool, typer.Option("--redo", help="Also re-derive earlier automatic classifications.")
    ] = False,
    repo: GitRepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Sync, classify, record and render in one step.

    Classifies every pending commit by its Conventional Commits type, or, in a history without
    them, by what it is (PR merge, squash, revert) and what it says and touches, recording only
    readings of at least mining.changelog.min_confidence (the rest: `mine candidates`).

    \b
    Idempotent: only commits without a changelog classification are touched, and a person's or
    an LLM's classification always replaces an automatic one. Files and format come from
    mining.changelog in orkestra.yaml.
    Example:
      orkestra mine auto --dry-run | jq '.entries[] | select(.action == "release")'
      orkestra mine auto
      orkestra mine auto --redo        # after changing mining.changelog settings
    """

    def action() -> None:
        from orkestra.mining.auto import run_auto

        show_record(run_auto(_paths(repo), dry_run=dry_run, redo=redo), fmt, "mine auto")

    run(action)


@app.command("validate")
def validate(
    quick: Annotated[bool, typer.Option("--quick", help="Skip the check that SHAs exist in git.")] = False,
    repo: GitRepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Check the ledgers: SHAs, decision ids, duplicates, bad lines.

    Exit 1 on problems.

    \b
    Example:
      orkestra mine validate
      orkestra mine validate --quick
    """

    def action() -> int:
        import sys

        from orkestra.mining.validate import validate_ledgers

        result = validate_ledgers(_paths(repo), quick=quick)
        show_record(result, fmt, "mine validate")
        for diagnostic in result["diagnostics"]:
            sys.stderr.write(f"{diagnostic}\n")
        return 0 if result["ok"] else 1

    run(action)
