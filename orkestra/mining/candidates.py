"""Unprocessed commits, likely decisions first, and suggested classifications for review; pure but for reads."""

from __future__ import annotations

from orkestra.mining.config import MiningPaths
from orkestra.mining.index import load_index, read_state
from orkestra.mining.status import processed_view

LEDGER_DOMAINS = ("changelog", "decisions")
DECISION_REVIEW_SCORE = 4  # at or above: left for a person to extract; below: suggested skip


def find_candidates(paths: MiningPaths, limit: int | None = 50, full: bool = False, domain: str | None = None,
                    ledger: str | None = None) -> dict:
    """Commits still unclassified in a ledger domain, highest decision score first, then oldest.

    Returns ``{"pending": <count before the limit>, "candidates": [...]}``.

    :param domain: only commits affecting this knowledge domain (``signals.domains_affected``).
    :param ledger: only commits pending in this ledger domain (``changelog`` or ``decisions``).
    """
    read_state(paths, required=True)
    view = processed_view(paths)
    wanted = (ledger,) if ledger else LEDGER_DOMAINS
    rows = []
    for position, (sha, commit) in enumerate(load_index(paths).items()):
        pending = [d for d in wanted if (sha, d) not in view]
        if not pending or (domain and domain not in commit["signals"]["domains_affected"]):
            continue
        rows.append((-commit["signals"]["decision_score"], position, commit, pending))
    rows.sort(key=lambda r: r[:2])
    return {"pending": len(rows),
            "candidates": [_candidate(commit, pending, full) for _, _, commit, pending in rows[:limit]]}


def _candidate(commit: dict, pending: list[str], full: bool) -> dict:
    result = {"sha": commit["sha"], "date": commit["date"][:10], "subject": commit["subject"],
              "signals": commit["signals"], "pending": pending}
    if full:
        result |= {"body": commit["body"], "footers": commit["footers"], "files_changed": commit["files_changed"],
                   "stats": commit["stats"]}
    return result


def suggest_category(signals: dict, description: str) -> str:
    """A Keep a Changelog category guessed from the commit type and wording."""
    words = description.lower()
    if signals["commit_type"] == "security" or "security" in words or "vulnerab" in words:
        return "security"
    if "deprecat" in words:
        return "deprecated"
    if words.startswith(("remove", "drop", "delete")):
        return "removed"
    return {"feat": "added", "fix": "fixed"}.get(signals["commit_type"] or "", "changed")


def suggest_classifications(candidates: list[dict]) -> list[dict]:
    """Suggested ``mine commit`` lines for review (never written to a ledger by this function).

    Releasable commits get a changelog release, others a changelog skip; commits with a low
    decision score get a decisions skip; high-scoring ones are left for a person to extract.
    """
    lines = []
    for candidate in candidates:
        signals, sha = candidate["signals"], candidate["sha"]
        description = candidate["subject"].split(": ", 1)[-1] if signals["commit_type"] else candidate["subject"]
        if "changelog" in candidate["pending"]:
            if signals["is_releasable_type"] and not signals["is_merge"]:
                lines.append({"sha": sha, "domain": "changelog", "action": "release",
                              "category": suggest_category(signals, description), "summary": description})
            else:
                kind = signals["commit_type"] or ("merge" if signals["is_merge"] else "non-conventional")
                lines.append({"sha": sha, "domain": "changelog", "action": "skip",
                              "reason": f"{kind}: not a releasable change"})
        if "decisions" in candidate["pending"] and signals["decision_score"] < DECISION_REVIEW_SCORE:
            lines.append({"sha": sha, "domain": "decisions", "action": "skip",
                          "reason": f"no architectural signal (decision score {signals['decision_score']})"})
    return lines
