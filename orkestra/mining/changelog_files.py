"""``registry changelog render``: ledgers + index + tags → each package's CHANGELOG.md.

The root package (``.``) writes the repository's ``CHANGELOG.md``; a package writes
``<package dir>/CHANGELOG.md``. ``check`` compares without writing (drift is an error).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from orkestra.errors import NotFoundError
from orkestra.mining.changelog import build_releases, release_tags, render_changelog
from orkestra.mining.config import MiningPaths
from orkestra.mining.git import Git
from orkestra.mining.index import load_graph, read_state, sync_index
from orkestra.mining.ledger import latest, ledger_files, read_records
from orkestra.mining.signals import ROOT_PACKAGE
from orkestra.mining.status import processed_view


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


def render_changelogs(paths: MiningPaths, package: str | None = None, every: bool = False,
                      check: bool = False) -> dict:
    """Render (or with ``check`` compare) CHANGELOG.md files; ``{"ok", "files", "warnings"}``."""
    git = Git(paths.root)
    sync_index(paths, git=git)
    commits = load_graph(paths)
    known = read_state(paths).get("packages", [])
    notes = released_notes(paths)
    warnings = [f"release note for {sha[:12]} is not in HEAD's history; left out"
                for sha in sorted(notes) if sha not in commits]
    tags = git.tags()
    files = []
    for path in resolve_packages(known, package, every):
        name = paths.project if path == ROOT_PACKAGE else Path(path).name
        mine = [n for sha, n in notes.items() if sha in commits and path in n["packages"]]
        text = render_changelog(name, build_releases(mine, commits, release_tags(tags, path, name)))
        target = paths.root / path / "CHANGELOG.md"
        files.append({"package": path, "path": target.relative_to(paths.root).as_posix(), "entries": len(mine),
                      "status": _apply(target, text, check)})
    ok = not (check and any(f["status"] != "unchanged" for f in files))
    return {"ok": ok, "files": files, "warnings": warnings}


def _apply(target: Path, text: str, check: bool) -> str:
    current = target.read_text(encoding="utf-8") if target.is_file() else None
    if current == text:
        return "unchanged"
    if check:
        return "missing" if current is None else "drift"
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".CHANGELOG.md.")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
    os.replace(tmp, target)
    return "created" if current is None else "updated"
