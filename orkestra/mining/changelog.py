"""Release notes → Keep a Changelog Markdown, one release per tag; pure.

Releases come from tags: ``<package>@1.2.3`` for a package (its directory name or path),
``v1.2.3`` / ``1.2.3`` for the root package and for packages that have no scoped tags.
A commit belongs to the oldest release tag it is reachable from; commits reachable from no
release tag are Unreleased. Output is deterministic (no "generated at" date).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CATEGORY_TITLES = {"added": "Added", "changed": "Changed", "deprecated": "Deprecated", "removed": "Removed",
                   "fixed": "Fixed", "security": "Security"}
PLAIN_TAG_RE = re.compile(r"^v?(?P<version>\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?)$")
SCOPED_TAG_RE = re.compile(r"^(?P<package>.+)@v?(?P<version>\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?)$")
HEADER = """# Changelog

All notable changes to {name} are documented in this file.

The format is based on [Keep a Changelog](https://keepachangelog.com/en/1.1.0/),
and this project adheres to [Semantic Versioning](https://semver.org/spec/v2.0.0.html).
"""


@dataclass(frozen=True, slots=True)
class Release:
    tag: str | None  # None for Unreleased
    version: str
    date: str
    entries: tuple[dict, ...]


def release_tags(tags: list[tuple[str, str, str]], package: str, name: str) -> list[tuple[str, str, str, str]]:
    """(tag, version, sha, date) of the tags that cut releases of ``package`` (path) named ``name``."""
    scoped = []
    for tag, sha, date in tags:
        match = SCOPED_TAG_RE.match(tag)
        if match and match["package"] in (name, package) and package != ".":
            scoped.append((tag, match["version"], sha, date))
    if scoped:
        return scoped
    return [(tag, m["version"], sha, date) for tag, sha, date in tags if (m := PLAIN_TAG_RE.match(tag))]


def assign_releases(commits: dict[str, list[str]], tags: list[tuple[str, str, str, str]]) -> dict[str, str]:
    """sha -> release tag, walking parents (``commits``: sha -> parents, oldest first) from each tag, oldest tag first; untagged commits are absent."""
    position = {sha: i for i, sha in enumerate(commits)}
    ordered = sorted((t for t in tags if t[2] in position), key=lambda t: (position[t[2]], t[3], t[0]))
    owner: dict[str, str] = {}
    for tag, _, sha, _ in ordered:
        stack = [sha]
        while stack:
            current = stack.pop()
            if current in owner or current not in position:
                continue
            owner[current] = tag
            stack.extend(commits[current])
    return owner


def build_releases(notes: list[dict], commits: dict[str, list[str]], tags: list[tuple[str, str, str, str]]) -> list[Release]:
    """Unreleased first, then releases newest first, each with its notes newest first."""
    owner = assign_releases(commits, tags)
    position = {sha: i for i, sha in enumerate(commits)}
    grouped: dict[str | None, list[dict]] = {}
    for note in sorted(notes, key=lambda n: -position[n["sha"]]):
        grouped.setdefault(owner.get(note["sha"]), []).append(note)
    releases = [Release(None, "Unreleased", "", tuple(grouped.get(None, ())))]
    for tag, version, sha, date in sorted(tags, key=lambda t: (position.get(t[2], -1), t[3], t[0]), reverse=True):
        if sha in position:
            releases.append(Release(tag, version, date, tuple(grouped.get(tag, ()))))
    return releases


def render_changelog(name: str, releases: list[Release]) -> str:
    """The whole CHANGELOG.md text."""
    parts = [HEADER.format(name=name)]
    for release in releases:
        title = "[Unreleased]" if release.tag is None else f"[{release.version}] - {release.date}"
        parts.append(f"## {title}\n")
        breaking = [n for n in release.entries if n["breaking"]]
        if breaking:
            parts.append("### BREAKING CHANGES\n\n" + "".join(_item(n, True) for n in breaking))
        for category, heading in CATEGORY_TITLES.items():
            items = [n for n in release.entries if n["category"] == category and not n["breaking"]]
            if items:
                parts.append(f"### {heading}\n\n" + "".join(_item(n, False) for n in items))
        if not release.entries and release.tag is not None:
            parts.append("_No notable changes._\n")
    return "\n".join(parts)


def _item(note: dict, with_category: bool) -> str:
    scope = f"**{note['scope']}:** " if note.get("scope") else ""
    category = f"{CATEGORY_TITLES[note['category']]}: " if with_category else ""
    summary = " ".join(note["summary"].split())
    return f"- {category}{scope}{summary} ({note['sha'][:7]})\n"
