"""``mine auto``: sync → classify every pending commit by its type → record → render, in one idempotent step.

A commit off the first-parent line, brought in by a merge whose own message is a Conventional
Commit (``Merge pull request #12`` + ``fix: …``), is skipped: the merge is the entry, as the
release tools list a pull request once. Only commits with no changelog classification yet are touched, so a second run records nothing
and a person's (or an LLM's) classification is never overwritten; theirs replace automatic ones
(see :mod:`orkestra.mining.classify`). The decisions ledger is left to people.
"""

from __future__ import annotations

from orkestra.mining.classify import Classification, record_classifications
from orkestra.mining.config import MiningPaths
from orkestra.mining.sections import category_for, changelog_types, releasable_entries

SOURCE = "<mine auto>"


def merged_by(graph: dict[str, list[str]], head: str | None) -> dict[str, str]:
    """Commits off the first-parent line of ``head`` → the mainline merge that brought them in (pure).

    ``graph``: sha → parents, as :func:`orkestra.mining.index.load_graph` returns it.
    """
    mainline, current = [], head
    while current in graph:
        mainline.append(current)
        current = (graph[current] or [None])[0]
    on_line = set(mainline)
    owner: dict[str, str] = {}
    for merge in reversed(mainline):  # oldest merge first: a commit belongs to the first merge bringing it in
        stack = list(graph[merge][1:])
        while stack:
            sha = stack.pop()
            if sha in on_line or sha in owner or sha not in graph:
                continue
            owner[sha] = merge
            stack.extend(graph[sha])
    return owner


def speaks_for_its_branch(merge: dict) -> bool:
    """A merge whose subject or body is a Conventional Commit describes its pull request itself
    (``Merge pull request #12 …`` + ``fix: …``), as the release tools read it."""
    return merge["signals"]["commit_type"] is not None or bool(merge.get("parts"))


def auto_line(
    commit: dict, releasable: frozenset[str], keyword_sections: bool = False, merge: dict | None = None
) -> dict:
    """The changelog classification a commit gets from its type alone (a ``mine commit`` line).

    ``commit`` needs ``sha``, ``signals``, ``description`` and (optionally) ``parts`` as in the index;
    ``merge`` is the mainline merge that brought it in (:func:`merged_by`), if any.
    """
    signals = commit["signals"]
    if merge is not None and speaks_for_its_branch(merge):
        return {
            "sha": commit["sha"],
            "domain": "changelog",
            "action": "skip",
            "reason": f"brought in by merge {merge['sha'][:12]}, whose message describes the change",
        }
    entries = releasable_entries(commit, releasable)
    if entries:
        head = entries[0]
        return {
            "sha": commit["sha"],
            "domain": "changelog",
            "action": "release",
            "category": category_for(head["type"], head["description"], keyword_sections),
            "summary": head["description"],
        }
    kind = signals["commit_type"] or ("merge" if signals["is_merge"] else "non-conventional")
    return {
        "sha": commit["sha"],
        "domain": "changelog",
        "action": "skip",
        "reason": f"{kind}: not a releasable change",
    }


def run_auto(paths: MiningPaths, dry_run: bool = False, redo: bool = False) -> dict:
    """Sync, classify pending commits, record them and render the changelogs the config asks for.

    Returns ``{"sync", "recorded", "released", "skipped", "entries"?, "files", "warnings"}``; with
    ``dry_run`` nothing is written (the index is still brought up to date) and ``entries`` lists the
    lines that would be recorded. ``redo`` also re-derives earlier automatic classifications (after
    a change of ``mining.changelog`` settings) and records, as corrections, those that come out
    different; people's and LLMs' classifications are never touched.
    """
    from orkestra.mining.changelog_files import render_changelogs
    from orkestra.mining.git import Git
    from orkestra.mining.index import load_graph, load_index, sync_index
    from orkestra.mining.status import processed_view

    git = Git(paths.root)
    synced = sync_index(paths, git=git)
    view = processed_view(paths)
    releasable, _ = changelog_types(paths)
    keywords = paths.config.changelog.keyword_sections
    index = load_index(paths)
    owner = merged_by(load_graph(paths), synced.head)
    lines = []
    for sha, commit in index.items():
        before = view.get((sha, "changelog"))
        if before is not None and not (redo and before.get("by") == "auto"):
            continue
        line = auto_line(commit, releasable, keywords, index.get(owner.get(sha, "")))
        if before is None:
            lines.append(line)
        elif any(line.get(k) != before.get(k) for k in ("action", "category", "reason")):
            lines.append(line | {"correction": True})
    released = sum(line["action"] == "release" for line in lines)
    result = {
        "sync": {
            "mode": synced.mode,
            "new_commits": synced.new_commits,
            "total_commits": synced.total_commits,
        },
        "recorded": len(lines),
        "released": released,
        "skipped": len(lines) - released,
    }
    if dry_run:
        rendered = render_changelogs(paths, check=True, git=git, extra=lines)
        return result | {
            "dry_run": True,
            "entries": lines,
            "files": rendered["files"],
            "warnings": rendered["warnings"],
        }
    if lines:
        items = [(n, Classification.model_validate(line | {"by": "auto"})) for n, line in enumerate(lines, 1)]
        record_classifications(paths, items, SOURCE)
    rendered = render_changelogs(paths, git=git)
    return result | {"dry_run": False, "files": rendered["files"], "warnings": rendered["warnings"]}
