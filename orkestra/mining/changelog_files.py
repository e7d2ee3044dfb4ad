"""``registry changelog render`` and ``mine auto``: ledgers + index + tags → changelog files.

Which files (``mining.changelog.packages``): ``per-package`` — the repository's changelog gets
the root package's commits and each package its own ``<package dir>/CHANGELOG.md``; ``root`` —
one changelog covering every package; ``both`` — the covering root file and the package files.
The root file is ``mining.changelog.path`` (default ``CHANGELOG.md``). A changelog is never
created beside an existing one of another name (``CHANGES.rst``, ``HISTORY.md``, ``NEWS``…)
unless ``mining.changelog.path`` names it: that file is reported ``skipped`` with a warning.
``check`` compares without writing (drift is an error).
"""

from __future__ import annotations

import os
from pathlib import Path

from orkestra.errors import NotFoundError
from orkestra.fs.atomic import write_atomic
from orkestra.mining import guarded
from orkestra.mining.changelog import build_releases, release_tags, render_changelog
from orkestra.mining.config import MiningPaths
from orkestra.mining.git import Git, origin_url
from orkestra.mining.index import load_graph, read_state, sync_index
from orkestra.mining.ledger import latest, ledger_files, read_records, skipped_lines
from orkestra.mining.sections import changelog_types
from orkestra.mining.signals import ROOT_PACKAGE
from orkestra.mining.status import processed_view

DEFAULT_FILE = "CHANGELOG.md"
OTHER_CHANGELOGS = frozenset(
    f"{stem}{ext}"
    for stem in ("changelog", "changes", "history", "news", "releases", "release-notes", "release_notes")
    for ext in ("", ".md", ".rst", ".txt", ".markdown", ".adoc")
)


def released_notes(paths: MiningPaths) -> dict[str, dict]:
    """Release notes (last wins per sha) whose commit's latest changelog classification is a release."""
    view = processed_view(paths)
    _, notes_path = ledger_files(paths)
    notes = latest(read_records(notes_path), key=lambda r: r.get("sha"))
    return {sha: n for sha, n in notes.items() if view.get((sha, "changelog"), {}).get("action") == "release"}


def resolve_packages(known: list[str], package: str | None, every: bool) -> list[str]:
    """Package paths to render: all of them, or the one named by path or directory name."""
    candidates = [ROOT_PACKAGE, *known]
    if every:
        return candidates
    for path in candidates:
        if package in (path, Path(path).name) or (package == "root" and path == ROOT_PACKAGE):
            return [path]
    raise NotFoundError("package", package or "", [Path(p).name for p in known] + ["root"])


def render_changelogs(
    paths: MiningPaths,
    package: str | None = None,
    every: bool = False,
    check: bool = False,
    git: Git | None = None,
    extra: list[dict] | None = None,
) -> dict:
    """Render (or with ``check`` compare) changelog files; ``{"ok", "files", "warnings"}``.

    Without ``package`` every file the config asks for is rendered. ``extra``: classification lines
    not recorded yet, rendered as if they were (``mine auto --dry-run``; use with ``check``).
    """
    settings = paths.config.changelog
    git = git or Git(paths.root)
    sync_index(paths, git=git)
    commits = load_graph(paths)
    known = read_state(paths).get("packages", [])
    notes = released_notes(paths) | _pending_notes(paths, extra or [])
    warnings = skipped_lines(paths) + [
        f"release note for {sha[:12]} is not in HEAD's history; left out"
        for sha in sorted(notes)
        if sha not in commits
    ]
    tags = git.tags()
    url = (settings.repository_url or origin_url(paths.root) or "").rstrip("/") or None
    covering = settings.packages in ("root", "both")
    titles = changelog_types(paths)[1]
    if package is None and not every:
        every = True
    selected = resolve_packages(known, package, every)
    if every and settings.packages == "root":
        selected = [ROOT_PACKAGE]
    files = []
    for path in selected:
        root_file = path == ROOT_PACKAGE
        name = paths.project if root_file else Path(path).name
        mine = [
            n
            for sha, n in notes.items()
            if sha in commits and (path in n["packages"] or (root_file and covering))
        ]
        text = render_changelog(
            name, build_releases(mine, commits, release_tags(tags, path, name)), settings.format, url, titles
        )
        target = (
            paths.root / (settings.path or DEFAULT_FILE) if root_file else paths.root / path / DEFAULT_FILE
        )
        rel = target.relative_to(paths.root).as_posix()
        other = None if (root_file and settings.path) else _other_changelog(target)
        if other is not None:
            warnings.append(
                f"{rel}: not written beside the existing {other}; set mining.changelog.path in "
                "orkestra.yaml to the file to generate (it is rewritten whole, so not a hand-kept one)"
            )
            status = "skipped"
        else:
            status = _apply(paths.root, target, text, check)
        files.append({"package": path, "path": rel, "entries": len(mine), "status": status})
    ok = not (check and any(f["status"] not in ("unchanged", "skipped") for f in files))
    return {"ok": ok, "files": files, "warnings": warnings}


def _pending_notes(paths: MiningPaths, lines: list[dict]) -> dict[str, dict]:
    """Release notes for classification lines not recorded yet (a dry run)."""
    if not any(line["action"] == "release" for line in lines):
        return {}
    from orkestra.mining.classify import release_note
    from orkestra.mining.index import load_index
    from orkestra.mining.records import Classification

    index = load_index(paths)
    types = changelog_types(paths)[0]
    return {
        line["sha"]: release_note(paths, Classification.model_validate(line), index[line["sha"]], types)
        for line in lines
        if line["action"] == "release" and line["sha"] in index
    }


def _other_changelog(target: Path) -> str | None:
    """The name of a changelog of another name in ``target``'s directory, when ``target`` does not exist."""
    if target.is_file() or not target.parent.is_dir():
        return None
    for entry in sorted(os.listdir(target.parent)):
        if entry != target.name and entry.lower() in OTHER_CHANGELOGS and (target.parent / entry).is_file():
            return entry
    return None


def _apply(root: Path, target: Path, text: str, check: bool) -> str:
    guarded.check(root, target)  # a package folder or CHANGELOG.md that is a symlink: refused
    current = target.read_text(encoding="utf-8") if target.is_file() else None
    if current == text:
        return "unchanged"
    if check:
        return "missing" if current is None else "drift"
    write_atomic(target, text)
    return "created" if current is None else "updated"
