"""Coverage: how much of the indexed history each ledger domain has classified; pure but for reads."""

from __future__ import annotations

from orkestra.mining.config import MiningPaths
from orkestra.mining.index import load_index, read_state
from orkestra.mining.ledger import latest, ledger_files, read_records, skipped_lines

OUTCOMES = {"decisions": ("extract", "extracted"), "changelog": ("release", "released")}
NO_DOMAIN = "(none)"


def _pct(part: int, whole: int) -> float:
    return round(100.0 * part / whole, 1) if whole else 0.0


def processed_view(paths: MiningPaths) -> dict[tuple[str, str], dict]:
    """The last-wins classification of every (sha, domain) in ``commits_processed.jsonl``."""
    processed_path, _ = ledger_files(paths)
    return latest(read_records(processed_path))


def mining_status(paths: MiningPaths) -> dict:
    """Counts and percentages of all indexed commits, per ledger domain and per knowledge domain."""
    head = read_state(paths, required=True).get("head")
    commits = load_index(paths)
    view = processed_view(paths)
    total = len(commits)
    result: dict = {
        "total_commits": total,
        "head": head,
        "orphaned_entries": sum(1 for sha, _ in view if sha not in commits),
        "warnings": skipped_lines(paths),
    }
    for domain, (action, label) in OUTCOMES.items():
        actions = [view[(sha, domain)]["action"] for sha in commits if (sha, domain) in view]
        kept = actions.count(action)
        result[domain] = {
            "coverage": _pct(len(actions), total),
            "processed": len(actions),
            label: kept,
            "skipped": len(actions) - kept,
            f"{label}_pct": _pct(kept, total),
            "skipped_pct": _pct(len(actions) - kept, total),
        }
    by_domain: dict[str, dict] = {}
    for sha, commit in commits.items():
        for name in commit["signals"]["domains_affected"] or [NO_DOMAIN]:
            row = by_domain.setdefault(
                name, {"commits": 0, "decisions_processed": 0, "changelog_processed": 0}
            )
            row["commits"] += 1
            row["decisions_processed"] += (sha, "decisions") in view
            row["changelog_processed"] += (sha, "changelog") in view
    for row in by_domain.values():
        row["decisions_coverage"] = _pct(row["decisions_processed"], row["commits"])
        row["changelog_coverage"] = _pct(row["changelog_processed"], row["commits"])
    result["by_domain"] = dict(sorted(by_domain.items()))
    return result


def format_status(status: dict) -> str:
    """The people-facing report of ``mine status --format text``."""
    total = status["total_commits"]
    lines = ["Mining Status", "=============", ""]
    for domain, (_, label) in OUTCOMES.items():
        row = status[domain]
        lines += [
            domain.capitalize(),
            "-" * len(domain),
            f"  Coverage:   {row['coverage']:>6.1f}%",
            f"    Processed: {row['processed']:>7}  (of {total})",
            f"    {label.capitalize() + ':':<10} {row[label]:>7}",
            f"    Skipped:   {row['skipped']:>7}",
            "",
        ]
    if status["by_domain"]:
        lines += ["By domain", "---------"]
        width = max(len(name) for name in status["by_domain"])
        for name, row in status["by_domain"].items():
            lines.append(
                f"  {name:<{width}}  {row['commits']:>6} commits  decisions {row['decisions_coverage']:>5.1f}%"
                f"  changelog {row['changelog_coverage']:>5.1f}%"
            )
    lines += ["", *(f"warning: {w}" for w in status.get("warnings", ()))]
    return "\n".join(lines).rstrip() + "\n"
