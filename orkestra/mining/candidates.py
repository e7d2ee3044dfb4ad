"""Unprocessed commits, likely decisions first, and suggested classifications for review; pure but for reads."""

from __future__ import annotations

from orkestra.mining.config import MiningPaths
from orkestra.mining.index import load_index, read_state
from orkestra.mining.status import processed_view

LEDGER_DOMAINS = ("changelog", "decisions")
DECISION_REVIEW_SCORE = 4  # at or above: left for a person to extract; below: suggested skip


def find_candidates(
    paths: MiningPaths,
    limit: int | None = 50,
    full: bool = False,
    domain: str | None = None,
    ledger: str | None = None,
) -> dict:
    """Commits still unclassified in a ledger domain, highest decision score first, then oldest;
    merge commits last (their changes are listed by the commits they bring in).

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
        signals = commit["signals"]
        rows.append((signals["is_merge"], -signals["decision_score"], position, commit, pending))
    rows.sort(key=lambda r: r[:3])
    return {
        "pending": len(rows),
        "candidates": [_candidate(commit, pending, full) for *_, commit, pending in rows[:limit]],
    }


def _candidate(commit: dict, pending: list[str], full: bool) -> dict:
    result = {
        "sha": commit["sha"],
        "date": commit["date"][:10],
        "subject": commit["subject"],
        "signals": commit["signals"],
        "pending": pending,
    }
    if full:
        result |= {
            "description": commit["description"],
            "parts": commit.get("parts", []),
            "body": commit["body"],
            "footers": commit["footers"],
            "files_changed": commit["files_changed"],
            "stats": commit["stats"],
        }
    return result


def suggest_classifications(candidates: list[dict], paths: MiningPaths | None = None) -> list[dict]:
    """Suggested ``mine commit`` lines for review (never written to a ledger by this function).

    The changelog line is what ``mine auto`` would record (candidates read with ``full=True`` carry
    the embedded commits of squash bodies), except that a history without Conventional Commits gets
    releases guessed from the leading verb ("Fix …", "Add …"; :func:`plain_category`); commits with a low decision score get a decisions
    skip; high-scoring ones are left for a person to extract.
    """
    from orkestra.mining.auto import auto_line
    from orkestra.mining.sections import DEFAULT_VISIBLE, changelog_types, plain_category

    releasable = changelog_types(paths)[0] if paths else frozenset(DEFAULT_VISIBLE)
    keywords = paths.config.changelog.keyword_sections if paths else False
    lines = []
    for candidate in candidates:
        signals, sha = candidate["signals"], candidate["sha"]
        if "changelog" in candidate["pending"]:
            description = candidate.get("description") or (
                candidate["subject"].split(": ", 1)[-1] if signals["commit_type"] else candidate["subject"]
            )
            line = auto_line(candidate | {"description": description}, releasable, keywords)
            guess = (
                plain_category(candidate["subject"])
                if line["action"] == "skip" and not (signals["commit_type"] or signals["is_merge"])
                else None
            )
            lines.append(
                line
                if guess is None
                else {
                    "sha": sha,
                    "domain": "changelog",
                    "action": "release",
                    "category": guess,
                    "summary": candidate["subject"],
                }
            )
        if "decisions" in candidate["pending"] and signals["decision_score"] < DECISION_REVIEW_SCORE:
            lines.append(
                {
                    "sha": sha,
                    "domain": "decisions",
                    "action": "skip",
                    "reason": f"no architectural signal (decision score {signals['decision_score']})",
                }
            )
    return lines
