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

    Returns ``{"pending": <count before the limit>, "history": "conventional"|"plain", "candidates": [...]}``.
    In a plain history (:func:`orkestra.mining.plain.history_style`) each candidate pending in the
    changelog carries its ``reading`` (kind, PR number, guessed type and category, confidence, why):
    what ``mine auto`` left for review because it was not sure enough.

    :param domain: only commits affecting this knowledge domain (``signals.domains_affected``).
    :param ledger: only commits pending in this ledger domain (``changelog`` or ``decisions``).
    """
    from orkestra.mining.plain import branches, history_style, uses_pull_requests

    read_state(paths, required=True)
    view = processed_view(paths)
    wanted = (ledger,) if ledger else LEDGER_DOMAINS
    index = load_index(paths)
    style = history_style(index, paths.config.changelog.history)
    owners = _owners(paths, index) if style == "plain" else {}
    prs = style == "plain" and uses_pull_requests(index)
    brought = branches(owners, index)
    rows = []
    for position, (sha, commit) in enumerate(index.items()):
        pending = [d for d in wanted if (sha, d) not in view]
        if not pending or (domain and domain not in commit["signals"]["domains_affected"]):
            continue
        signals = commit["signals"]
        rows.append((signals["is_merge"], -signals["decision_score"], position, commit, pending))
    rows.sort(key=lambda r: r[:3])
    return {
        "pending": len(rows),
        "history": style,
        "candidates": [
            _candidate(
                commit,
                pending,
                full,
                style,
                index.get(owners.get(commit["sha"], "")),
                prs,
                brought.get(commit["sha"], ()),
            )
            for *_, commit, pending in rows[:limit]
        ],
    }


def _owners(paths: MiningPaths, index: dict[str, dict]) -> dict[str, str]:
    from orkestra.mining.index import load_graph
    from orkestra.mining.plain import pull_request_owners

    return pull_request_owners(load_graph(paths), index)


def _candidate(
    commit: dict,
    pending: list[str],
    full: bool,
    style: str,
    owner: dict | None,
    prs: bool = False,
    branch: tuple[dict, ...] = (),
) -> dict:
    result = {
        "sha": commit["sha"],
        "date": commit["date"][:10],
        "subject": commit["subject"],
        "signals": commit["signals"],
        "pending": pending,
    }
    if style == "plain" and "changelog" in pending:
        from orkestra.mining.plain import pull_request, read_commit

        reading = read_commit(commit, prs, branch).to_dict()
        if owner is not None:
            reading["brought_in_by"] = {"sha": owner["sha"], "pr": pull_request(owner)[1]}
        result["reading"] = reading
    if full:
        result |= {
            "description": commit["description"],
            "parents": commit.get("parents", []),
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
    the embedded commits of squash bodies), except that a commit that is not a Conventional Commit
    gets its plain reading (:func:`orkestra.mining.plain.read_commit`: "Fix …" → fixed, "Add …" →
    added, only docs → skip …) whatever its confidence, and a skip when the reading is unclear
    (below 0.5); commits with a low decision score get a decisions skip; high-scoring ones are left
    for a person to extract.
    """
    from orkestra.mining.auto import auto_line
    from orkestra.mining.conventional import PART_TYPES
    from orkestra.mining.plain import read_commit
    from orkestra.mining.sections import DEFAULT_VISIBLE, changelog_types

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
            if line["action"] == "skip" and not (
                signals["commit_type"] in PART_TYPES or candidate.get("parts")
            ):
                line = _plain_suggestion(candidate, read_commit(candidate)) or line
            lines.append(line)
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


SUGGEST_CONFIDENCE = 0.5  # below: the reading is a guess a reviewer would have to make anyway


def _plain_suggestion(candidate: dict, reading) -> dict | None:
    """The suggested changelog line for a commit read as plain history (None: keep ``auto_line``'s)."""
    owner = (candidate.get("reading") or {}).get("brought_in_by")
    if owner:
        return {
            "sha": candidate["sha"],
            "domain": "changelog",
            "action": "skip",
            "reason": f"brought in by pull request #{owner['pr']} (merge {owner['sha'][:12]}), whose entry it is",
        }
    if reading.kind == "merge" or reading.confidence < SUGGEST_CONFIDENCE:
        return None
    if reading.release:
        return {
            "sha": candidate["sha"],
            "domain": "changelog",
            "action": "release",
            "category": reading.category,
            "summary": reading.summary(),
        }
    return {
        "sha": candidate["sha"],
        "domain": "changelog",
        "action": "skip",
        "reason": f"{reading.type}: {reading.why} (confidence {reading.confidence:.2f})",
    }
