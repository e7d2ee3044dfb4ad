"""``mine auto``: sync → classify every pending commit → record → render, in one idempotent step.

A history of Conventional Commits is classified by commit type. A commit off the first-parent line,
brought in by a merge whose own message is a Conventional Commit (``Merge pull request #12`` +
``fix: …``), is skipped: the merge is the entry, as the release tools list a pull request once.

A history that mostly is not (``mining.changelog.history``: ``auto`` decides by the share of
Conventional Commits) is read as it is (:mod:`orkestra.mining.plain`): every pull-request merge or
squash commit is one entry carrying its PR number, the commits a PR merge brought in are its entry,
plain subjects are classified by what they say and touch, and readings below
``mining.changelog.min_confidence`` are left unclassified for ``mine candidates``. Conventional
Commits in such a history keep their type. Only commits with no changelog classification yet are touched, so a second run records nothing
and a person's (or an LLM's) classification is never overwritten; theirs replace automatic ones
(see :mod:`orkestra.mining.classify`). The decisions ledger is left to people.
"""

from __future__ import annotations

from orkestra.mining.classify import record_classifications
from orkestra.mining.config import MiningPaths
from orkestra.mining.records import Classification
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


def plain_line(
    commit: dict,
    releasable: frozenset[str],
    keyword_sections: bool = False,
    owner: dict | None = None,
    min_confidence: float = 0.7,
    pull_requests: bool = False,
    branch: tuple[dict, ...] = (),
) -> dict | None:
    """The changelog classification of a commit in an ordinary history, or None when its reading is
    below ``min_confidence`` (left for a person or an agent: ``mine candidates``).

    ``owner`` is the pull-request merge that brought the commit in (:func:`plain.pull_request_owners`);
    ``pull_requests``: the history lands its changes through pull requests (:func:`plain.uses_pull_requests`);
    ``branch``: for a pull-request merge, the commits it brought in (:func:`plain.branches`)."""
    from orkestra.mining.conventional import PART_TYPES
    from orkestra.mining.plain import pull_request, read_commit

    sha = commit["sha"]
    if owner is not None:
        number = pull_request(owner)[1]
        return {
            "sha": sha,
            "domain": "changelog",
            "action": "skip",
            "reason": f"brought in by pull request #{number} (merge {owner['sha'][:12]}), whose entry it is",
        }
    if commit["signals"]["commit_type"] in PART_TYPES or releasable_entries(commit, releasable):
        line = auto_line(commit, releasable, keyword_sections)  # a Conventional Commit keeps its type
        number = pull_request(commit)[1]
        if line["action"] == "release" and number is not None and f"#{number}" not in line["summary"]:
            line["summary"] += f" (#{number})"
        return line
    reading = read_commit(commit, pull_requests, branch)  # plain, or "area: text" of an unknown type
    if reading.confidence < min_confidence:
        return None
    if not reading.release:
        return {
            "sha": sha,
            "domain": "changelog",
            "action": "skip",
            "reason": f"{reading.type}: {reading.why} (confidence {reading.confidence:.2f})",
        }
    category = reading.category
    if keyword_sections and (by_words := category_for(None, reading.title, True)) != "changed":
        category = by_words
    return {
        "sha": sha,
        "domain": "changelog",
        "action": "release",
        "category": category,
        "summary": reading.summary(),
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
    from orkestra.mining.plain import branches, history_style, pull_request_owners, uses_pull_requests
    from orkestra.mining.status import processed_view

    git = Git(paths.root)
    synced = sync_index(paths, git=git)
    view = processed_view(paths)
    releasable, _ = changelog_types(paths)
    keywords = paths.config.changelog.keyword_sections
    settings = paths.config.changelog
    index = load_index(paths)
    style = history_style(index, settings.history)
    graph = load_graph(paths)
    owner = pull_request_owners(graph, index) if style == "plain" else merged_by(graph, synced.head)
    prs = style == "plain" and uses_pull_requests(index)
    brought = branches(owner, index) if style == "plain" else {}
    lines = []
    review = 0
    for sha, commit in index.items():
        before = view.get((sha, "changelog"))
        if before is not None and not (redo and before.get("by") == "auto"):
            continue
        merge = index.get(owner.get(sha, ""))
        if style == "plain":
            line = plain_line(
                commit, releasable, keywords, merge, settings.min_confidence, prs, brought.get(sha, ())
            )
            if line is None:
                review += 1
                continue
        else:
            line = auto_line(commit, releasable, keywords, merge)
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
        "history": style,
        "recorded": len(lines),
        "released": released,
        "skipped": len(lines) - released,
        "for_review": review,
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
