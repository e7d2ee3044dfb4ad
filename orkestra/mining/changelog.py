"""Release notes → changelog Markdown, one release per tag; pure.

Releases come from tags: ``<package>@1.2.3`` or ``<package>-v1.2.3`` for a package (its
directory name or path), ``v1.2.3`` / ``1.2.3`` for the root package and for packages that have
no scoped tags. Versions are SemVer (``1.2.3-rc.1+build``) or PEP 440 (``2.0.0b1``, ``1.4``,
``1.2.3.post1``, ``3.0.0.dev0``). A commit belongs to the oldest release tag it is reachable
from; commits reachable from no release tag are Unreleased. Releases without entries are left
out. Output is deterministic (no "generated at" date).

Two formats: ``keep-a-changelog`` (categories, breaking changes first) and ``release-please``
(the conventional-changelog layout release-please writes: ``## [1.2.0](compare) (date)``,
``### ⚠ BREAKING CHANGES``, type sections, ``* **scope:** text ([sha](commit link))``), so a
team can switch tools without rewriting its history.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from maguyva.controls import visible

CATEGORY_TITLES = {
    "added": "Added",
    "changed": "Changed",
    "deprecated": "Deprecated",
    "removed": "Removed",
    "fixed": "Fixed",
    "security": "Security",
}
VERSION = (
    r"\d+(?:\.\d+){1,3}"  # 1.4, 1.2.3, 1.2.3.4
    r"(?:[-_.]?(?:a|b|c|rc|alpha|beta|pre|preview|dev|post)\.?\d*)*"  # PEP 440: 2.0.0b1, 1.0.post1, 3.0.0.dev0
    r"(?:[-+][0-9A-Za-z.+-]+)?"
)  # SemVer: -rc.1, +build.5
PLAIN_TAG_RE = re.compile(rf"^v?(?P<version>{VERSION})$")
SCOPED_TAG_RE = re.compile(rf"^(?P<package>.+?)(?:@v?|-v)(?P<version>{VERSION})$")
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
    entries: tuple[dict, ...]  # {"sha", "category", "summary", "scope", "breaking", "type"}, newest first
    previous: str | None = None  # the tag of the release before it (for compare links)


def release_tags(
    tags: list[tuple[str, str, str]], package: str, name: str
) -> list[tuple[str, str, str, str]]:
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


def note_entries(note: dict) -> list[dict]:
    """A release note as rendered entries: the note itself, then the commits embedded in its body."""
    head = {
        "sha": note["sha"],
        "category": note["category"],
        "summary": note["summary"],
        "scope": note.get("scope"),
        "breaking": bool(note.get("breaking")),
        "type": note.get("type"),
    }
    return [
        head,
        *(
            {
                "sha": note["sha"],
                "category": p["category"],
                "summary": p["summary"],
                "scope": p.get("scope"),
                "breaking": bool(p.get("breaking")),
                "type": p.get("type"),
            }
            for p in note.get("parts") or ()
        ),
    ]


def build_releases(
    notes: list[dict], commits: dict[str, list[str]], tags: list[tuple[str, str, str, str]]
) -> list[Release]:
    """Unreleased first, then releases newest first (those with entries), each with its entries newest first."""
    owner = assign_releases(commits, tags)
    position = {sha: i for i, sha in enumerate(commits)}
    grouped: dict[str | None, list[dict]] = {}
    for note in sorted(notes, key=lambda n: -position[n["sha"]]):
        grouped.setdefault(owner.get(note["sha"]), []).extend(note_entries(note))
    ordered = [
        t
        for t in sorted(tags, key=lambda t: (position.get(t[2], -1), t[3], t[0]), reverse=True)
        if t[2] in position
    ]
    releases = [
        Release(None, "Unreleased", "", tuple(grouped.get(None, ())), ordered[0][0] if ordered else None)
    ]
    for index, (tag, version, _, date) in enumerate(ordered):
        if grouped.get(tag):
            previous = ordered[index + 1][0] if index + 1 < len(ordered) else None
            releases.append(Release(tag, version, date, tuple(grouped[tag]), previous))
    return releases


def render_changelog(
    name: str,
    releases: list[Release],
    fmt: str = "keep-a-changelog",
    url: str | None = None,
    titles: dict[str, str] | None = None,
) -> str:
    """The whole CHANGELOG.md text in ``fmt`` (``url``: the repository's web address, for links;
    ``titles``: release-please section titles by commit type)."""
    if fmt == "release-please":
        return visible(render_release_please(releases, url, titles))
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
    return visible("\n".join(parts))  # a commit subject's ESC or CR is written as its escape, never obeyed


def render_release_please(
    releases: list[Release], url: str | None = None, titles: dict[str, str] | None = None
) -> str:
    """The layout release-please and conventional-changelog write (byte-compatible headings and items)."""
    from orkestra.mining.sections import SECTION_ORDER, section_for

    out = ["# Changelog\n"]
    for release in releases:
        if not release.entries:
            continue
        if release.tag is None:
            out.append("\n## Unreleased\n")
        else:
            version = release.version
            if url and release.previous:
                version = f"[{version}]({url}/compare/{release.previous}...{release.tag})"
            out.append(f"\n## {version} ({release.date})\n" if release.date else f"\n## {version}\n")
        breaking = [e for e in release.entries if e["breaking"]]
        groups: dict[str, list[dict]] = {}
        for entry in release.entries:
            groups.setdefault(section_for(entry, titles), []).append(entry)
        if breaking:  # as conventional-changelog writes notes: the text, no commit link
            out.append("\n\n### ⚠ BREAKING CHANGES\n\n" + "".join(_rp_item(e, None, False) for e in breaking))
        for heading, entries in sorted(
            groups.items(),
            key=lambda g: (SECTION_ORDER.index(g[0]) if g[0] in SECTION_ORDER else len(SECTION_ORDER), g[0]),
        ):
            out.append(f"\n\n### {inline(heading)}\n\n" + "".join(_rp_item(e, url) for e in entries))
    return "".join(out)


ISSUE_REF_RE = re.compile(r"\(#(\d+)\)")


# what would make an item's text a block of its own: a heading, a quote, a nested list, a fence, a rule
BLOCK_START_RE = re.compile(
    r"^(?:#{1,6}(?:\s|$)|>|[-+*](?:\s|$)|\d{1,9}[.)](?:\s|$)|`{3}|~{3}|(?:[-*_]\s*){3,}$)"
)


def inline(text: str) -> str:
    """Ledger text as one Markdown line: every line break and run of whitespace (``\\n``, ``\\r``, U+2028…)
    a single space, so a summary or scope can never start a ``## [9.9.9]`` heading of its own."""
    return " ".join(str(text).split())


def _item_text(text: str) -> str:
    """An item's text escaped where it begins like a block (``- ## [9.9.9]`` renders as a heading)."""
    match = BLOCK_START_RE.match(text)
    if match is None:
        return text
    if text[0].isdigit():  # "1. x": a backslash escapes the punctuation, not the digit
        cut = len(match[0].rstrip()) - 1
        return text[:cut] + "\\" + text[cut:]
    return "\\" + text


def _rp_item(entry: dict, url: str | None, link: bool = True) -> str:
    scope = f"**{inline(entry['scope'])}:** " if entry.get("scope") else ""
    summary = inline(entry["summary"])
    if url:
        summary = ISSUE_REF_RE.sub(lambda m: f"([#{m[1]}]({url}/issues/{m[1]}))", summary)
    if not link:
        return f"* {_item_text(scope + summary)}\n"
    sha = entry["sha"]
    reference = f"[{sha[:7]}]({url}/commit/{sha})" if url else sha[:7]
    return f"* {_item_text(scope + summary)} ({reference})\n"


def _item(note: dict, with_category: bool) -> str:
    scope = f"**{inline(note['scope'])}:** " if note.get("scope") else ""
    category = f"{CATEGORY_TITLES[note['category']]}: " if with_category else ""
    return f"- {_item_text(category + scope + inline(note['summary']))} ({note['sha'][:7]})\n"
