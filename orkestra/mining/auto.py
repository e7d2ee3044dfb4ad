"""``mine auto``: sync → classify every pending commit by its type → record → render, in one idempotent step.

Only commits with no changelog classification yet are touched, so a second run records nothing
and a person's (or an LLM's) classification is never overwritten; theirs replace automatic ones
(see :mod:`orkestra.mining.classify`). The decisions ledger is left to people.
"""

from __future__ import annotations

from orkestra.mining.classify import Classification, record_classifications
from orkestra.mining.config import MiningPaths
from orkestra.mining.sections import category_for, changelog_types, releasable_entries

SOURCE = "<mine auto>"


def auto_line(commit: dict, releasable: frozenset[str], keyword_sections: bool = False) -> dict:
    """The changelog classification a commit gets from its type alone (a ``mine commit`` line).

    ``commit`` needs ``sha``, ``signals``, ``description`` and (optionally) ``parts`` as in the index.
    """
    signals = commit["signals"]
    entries = releasable_entries(commit, releasable)
    if entries:
        head = entries[0]
        return {"sha": commit["sha"], "domain": "changelog", "action": "release",
                "category": category_for(head["type"], head["description"], keyword_sections),
                "summary": head["description"]}
    kind = signals["commit_type"] or ("merge" if signals["is_merge"] else "non-conventional")
    return {"sha": commit["sha"], "domain": "changelog", "action": "skip", "reason": f"{kind}: not a releasable change"}


def run_auto(paths: MiningPaths, dry_run: bool = False) -> dict:
    """Sync, classify pending commits, record them and render the changelogs the config asks for.

    Returns ``{"sync", "recorded", "released", "skipped", "entries"?, "files", "warnings"}``; with
    ``dry_run`` nothing is written (the index is still brought up to date) and ``entries`` lists the
    lines that would be recorded.
    """
    from orkestra.mining.changelog_files import render_changelogs
    from orkestra.mining.git import Git
    from orkestra.mining.index import load_index, sync_index
    from orkestra.mining.status import processed_view

    git = Git(paths.root)
    synced = sync_index(paths, git=git)
    view = processed_view(paths)
    releasable, _ = changelog_types(paths)
    keywords = paths.config.changelog.keyword_sections
    lines = [auto_line(c, releasable, keywords) for sha, c in load_index(paths).items()
             if (sha, "changelog") not in view]
    released = sum(line["action"] == "release" for line in lines)
    result = {"sync": {"mode": synced.mode, "new_commits": synced.new_commits, "total_commits": synced.total_commits},
              "recorded": len(lines), "released": released, "skipped": len(lines) - released}
    if dry_run:
        rendered = render_changelogs(paths, check=True, git=git, extra=lines)
        return result | {"dry_run": True, "entries": lines, "files": rendered["files"],
                         "warnings": rendered["warnings"]}
    if lines:
        items = [(n, Classification.model_validate(line | {"by": "auto"})) for n, line in enumerate(lines, 1)]
        record_classifications(paths, items, SOURCE)
    rendered = render_changelogs(paths, git=git)
    return result | {"dry_run": False, "files": rendered["files"], "warnings": rendered["warnings"]}
