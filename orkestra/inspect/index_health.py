"""Maguyva index freshness, read live (never cached): is there an index, and is it at HEAD?

The index is a SQLite file (``MAGUYVA_STORE``, else ``maguyva.store`` in orkestra.yaml, else
``<git dir>/maguyva/index.db``). Its ``snapshots`` table is read defensively with stdlib
``sqlite3``: whatever columns it has are reported, and the commit column (``commit_sha``,
``commit``, ``sha`` or ``head``) is compared with the repository's HEAD commit.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from orkestra.inspect.cache import raw_config

COMMIT_COLUMNS = ("commit_sha", "commit", "sha", "head", "head_sha")


def index_health(root: Path) -> dict[str, Any]:
    """``{"present": false}`` without an index, else its path, latest snapshot and freshness."""
    git_dir = find_git_dir(root)
    path = index_path(root, git_dir)
    if path is None or not path.is_file():
        return {"present": False}
    snapshot, problem = _latest_snapshot(path)
    head = head_commit(git_dir) if git_dir else None
    commit = next((snapshot[c] for c in COMMIT_COLUMNS if snapshot and snapshot.get(c)), None)
    report: dict[str, Any] = {"present": True, "path": str(path), "snapshot": snapshot, "head": head,
                              "fresh": bool(commit and head and str(commit) == head)}
    if problem:
        report["problem"] = problem
    return report


def index_path(root: Path, git_dir: Path | None) -> Path | None:
    configured = os.environ.get("MAGUYVA_STORE")
    if not configured and "store" in _config_text(root):  # yaml is imported only when it may be set
        section = raw_config(root).get("maguyva")
        configured = section.get("store") if isinstance(section, dict) else None
    if configured:
        return root / configured  # an absolute path stays absolute
    return git_dir / "maguyva" / "index.db" if git_dir else None


def _config_text(root: Path) -> str:
    try:
        return (root / "orkestra.yaml").read_text(encoding="utf-8")
    except OSError:
        return ""


def _latest_snapshot(path: Path) -> tuple[dict[str, Any] | None, str]:
    import sqlite3
    from contextlib import closing

    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
            cursor = conn.execute("SELECT * FROM snapshots ORDER BY rowid DESC LIMIT 1")
            row = cursor.fetchone()
            columns = [d[0] for d in cursor.description]
    except sqlite3.Error as exc:
        return None, f"cannot read snapshots: {exc}"
    if row is None:
        return None, "the index has no snapshot yet"
    return dict(zip(columns, row)), ""


def find_git_dir(root: Path) -> Path | None:
    """The real git directory of ``root`` (follows a worktree's ``.git`` file)."""
    dot_git = root / ".git"
    if dot_git.is_dir():
        return dot_git
    if dot_git.is_file():
        text = dot_git.read_text(encoding="utf-8").strip()
        if text.startswith("gitdir:"):
            target = Path(text.split(":", 1)[1].strip())
            return target if target.is_absolute() else (root / target).resolve()
    return None


def head_commit(git_dir: Path) -> str | None:
    """The commit HEAD points at, read from the git directory's files (no git process)."""
    try:
        head = (git_dir / "HEAD").read_text(encoding="utf-8").strip()
    except OSError:
        return None
    if not head.startswith("ref:"):
        return head or None
    ref = head.split(":", 1)[1].strip()
    common = git_dir
    if (git_dir / "commondir").is_file():
        common = (git_dir / (git_dir / "commondir").read_text(encoding="utf-8").strip()).resolve()
    for base in (git_dir, common):
        if (base / ref).is_file():
            return (base / ref).read_text(encoding="utf-8").strip()
    packed = common / "packed-refs"
    if packed.is_file():
        for line in packed.read_text(encoding="utf-8").splitlines():
            sha, _, name = line.partition(" ")
            if name == ref:
                return sha
    return None
