"""Commit type → changelog entry: the documented mapping, in one place; pure.

A commit yields entries: its header (when its type is releasable, or it is breaking, or it is
git's ``Revert "<releasable subject>"``) and each releasable commit embedded in its body
(:func:`orkestra.mining.conventional.message_parts`). Sections follow the type:

| type | Keep a Changelog category | release-please section |
|---|---|---|
| feat, feature | added | Features |
| fix | fixed | Bug Fixes |
| perf | changed | Performance Improvements |
| revert (and git's `Revert "…"`) | changed | Reverts |
| deps | changed | Dependencies |
| security | security | Security |
| anything else | changed | the type's heading (docs → Documentation, …) |

Which types get entries: ``mining.releasable_types`` (default feat, fix, perf, revert; breaking
commits always), or with the release-please format release-please's own choice for the
repository (:func:`changelog_types`).

Keyword re-sectioning (``mining.changelog.keyword_sections: true``) additionally files
"deprecate…" under deprecated, "remove/drop/delete…" under removed and security wording under
security; it is off by default because the commit type is what the release tools follow.
"""

from __future__ import annotations

TYPE_CATEGORIES = {
    "feat": "added",
    "feature": "added",
    "fix": "fixed",
    "perf": "changed",
    "revert": "changed",
    "deps": "changed",
    "security": "security",
}
TYPE_SECTIONS = {
    "feat": "Features",
    "feature": "Features",
    "fix": "Bug Fixes",
    "perf": "Performance Improvements",
    "revert": "Reverts",
    "deps": "Dependencies",
    "security": "Security",
    "docs": "Documentation",
    "style": "Styles",
    "chore": "Miscellaneous Chores",
    "refactor": "Code Refactoring",
    "test": "Tests",
    "build": "Build System",
    "ci": "Continuous Integration",
}
CATEGORY_SECTIONS = {
    "added": "Features",
    "fixed": "Bug Fixes",
    "changed": "Changes",
    "deprecated": "Deprecated",
    "removed": "Removed",
    "security": "Security",
}
SECTION_ORDER = (
    "Features",
    "Bug Fixes",
    "Performance Improvements",
    "Reverts",
    "Dependencies",
    "Security",
    "Changes",
    "Deprecated",
    "Removed",
    "Documentation",
    "Styles",
    "Miscellaneous Chores",
    "Code Refactoring",
    "Tests",
    "Build System",
    "Continuous Integration",
)


def category_for(commit_type: str | None, description: str, keyword_sections: bool = False) -> str:
    """The Keep a Changelog category of an entry of this type (keywords only when opted in)."""
    if keyword_sections:
        words = description.lower()
        if commit_type == "security" or "security" in words or "vulnerab" in words:
            return "security"
        if "deprecat" in words:
            return "deprecated"
        if words.startswith(("remove", "drop", "delete")):
            return "removed"
    return TYPE_CATEGORIES.get(commit_type or "", "changed")


def section_for(entry: dict, titles: dict[str, str] | None = None) -> str:
    """The release-please section of a rendered entry: its type's, unless a person filed it elsewhere."""
    commit_type = entry.get("type")
    if commit_type and TYPE_CATEGORIES.get(commit_type, "changed") == entry["category"]:
        return (titles or TYPE_SECTIONS).get(commit_type, commit_type.capitalize())
    return CATEGORY_SECTIONS[entry["category"]]


def header_type(commit: dict, releasable: frozenset[str]) -> str | None:
    """The type the header counts as: its own, or ``revert`` for git's revert of a releasable subject."""
    signals = commit["signals"]
    if signals["commit_type"] is None and signals.get("reverted_type") in releasable:
        return "revert"
    return signals["commit_type"]


def releasable_entries(commit: dict, releasable: frozenset[str]) -> list[dict]:
    """The entries a commit contributes, header first: ``{"type", "scope", "description", "breaking"}``."""
    signals = commit["signals"]
    entries = []
    kind = header_type(commit, releasable)
    if signals["breaking"] or kind in releasable or (RELEASE_AS in releasable and signals.get("release_as")):
        entries.append(
            {
                "type": kind,
                "scope": signals["scope"],
                "description": commit["description"],
                "breaking": signals["breaking"],
            }
        )
    entries.extend(p for p in commit.get("parts", ()) if p["breaking"] or p["type"] in releasable)
    return entries


# release-please's visible sections per release type (its strategies' defaults); others use DEFAULT.
RELEASE_TYPE_EXTRA = {
    "python": ("deps", "docs"),
    "java": ("deps", "docs"),
    "r": ("deps", "docs"),
    "php": ("chore",),
    "go-yoshi": ("docs",),
    "ruby-yoshi": ("docs",),
    "php-yoshi": ("docs",),
}
DEFAULT_VISIBLE = ("feat", "feature", "fix", "perf", "revert")
RELEASE_AS = "release-as"  # in a releasable set: commits carrying a Release-As instruction get an entry too


def detect_release_type(root) -> str:
    """release-please's release type of a repository: its ``release-please-config.json``, else guessed from
    the manifests at the root (python, java, else node)."""
    config = read_release_please_config(root)
    declared = config.get("release-type") or (config.get("packages") or {}).get(".", {}).get("release-type")
    if isinstance(declared, str):
        return declared
    if (root / "package.json").is_file():
        return "node"
    if any((root / name).is_file() for name in ("pyproject.toml", "setup.py", "setup.cfg")):
        return "python"
    if (root / "pom.xml").is_file():
        return "java"
    return "node"


def read_release_please_config(root) -> dict:
    import json

    from orkestra.fs.links import read_regular
    from orkestra.project_files import MAX_PROJECT_FILE_BYTES

    path = root / "release-please-config.json"
    try:  # capped: a 3 GB sparse file is refused unread
        value = json.loads(read_regular(path, MAX_PROJECT_FILE_BYTES)) if path.is_file() else {}
    except (ValueError, UnicodeDecodeError, OSError):
        return {}
    return value if isinstance(value, dict) else {}


def changelog_types(paths) -> tuple[frozenset[str], dict[str, str]]:
    """(the types whose commits get entries, section titles by type) for this repository.

    ``mining.releasable_types`` when set in orkestra.yaml or with the Keep a Changelog format; with
    the release-please format, the ``changelog-sections`` of ``release-please-config.json`` or
    release-please's defaults for the repository's release type (python adds deps and docs, …);
    like release-please, a commit with a ``Release-As:`` instruction then gets an entry whatever its type.
    """
    config = paths.config
    titles = dict(TYPE_SECTIONS)
    if config.changelog.format != "release-please" or config.releasable_types is not None:
        return frozenset(t.lower() for t in config.releasable), titles
    sections = read_release_please_config(paths.root).get("changelog-sections")
    if isinstance(sections, list) and all(
        isinstance(s, dict) and isinstance(s.get("type"), str) for s in sections
    ):
        titles |= {s["type"]: str(s.get("section") or s["type"]) for s in sections}
        return frozenset((*(s["type"] for s in sections if not s.get("hidden")), RELEASE_AS)), titles
    release_type = config.changelog.release_type or detect_release_type(paths.root)
    return frozenset((*DEFAULT_VISIBLE, *RELEASE_TYPE_EXTRA.get(release_type, ()), RELEASE_AS)), titles
