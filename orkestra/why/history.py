"""Git history of one path or line range, and the renames and deletions of the whole history.

Every call is one ``git`` process with a fixed, NUL-separated format; paths are passed after
``--`` so a path can never be read as an option. Nothing here writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from orkestra import git

MAX_COMMITS = 500  # the history of one path is capped: why answers need the newest ones
_FORMAT = "%x1e%H%x00%cI%x00%s"


@dataclass(frozen=True, slots=True)
class CommitRef:
    sha: str
    date: str  # committer date, ISO 8601
    subject: str

    def to_dict(self) -> dict:
        return {"sha": self.sha, "date": self.date[:10], "subject": self.subject}


@dataclass(frozen=True, slots=True)
class PathHistory:
    commits: tuple[CommitRef, ...]  # newest first
    names: tuple[str, ...]  # every name the path had, the current one first


def _git(root: Path, *args: str, timeout: float = 30) -> str:
    """stdout of one git command ('' when git fails: no repository, unknown path, …)."""
    return git.output(root, *args, timeout=timeout)


def is_git_repo(root: Path) -> bool:
    return (root / ".git").exists()


def path_history(root: Path, path: str, start: int | None = None, end: int | None = None) -> PathHistory:
    """Commits that shaped ``path`` (following renames), or only lines ``start..end`` of it (``git log -L``)."""
    out = _git(
        root, "log", f"--format={_FORMAT}", "--follow", "--name-only", "-z", f"-n{MAX_COMMITS}", "--", path
    )
    commits, names = [], [path]
    for record in out.split("\x1e"):
        fields = [f.strip("\n") for f in record.split("\x00")]
        if len(fields) < 3 or not fields[0]:
            continue
        commits.append(CommitRef(fields[0], fields[1], fields[2]))
        for name in fields[3:]:
            if name and name not in names:
                names.append(name)
    if start is not None:
        out = _git(
            root, "log", f"--format={_FORMAT}", "-s", f"-n{MAX_COMMITS}", f"-L{start},{end or start}:{path}"
        )
        commits = []
        for record in out.split("\x1e"):
            fields = record.split("\x00")
            if len(fields) >= 3 and fields[0]:
                commits.append(CommitRef(fields[0].strip(), fields[1], fields[2].split("\n", 1)[0]))
    return PathHistory(tuple(commits), tuple(names))


@dataclass(frozen=True, slots=True)
class Move:
    """What happened to a path that is gone: renamed (``to``) or deleted (``to`` is None), and when."""

    to: str | None
    sha: str
    date: str


def moves(root: Path) -> dict[str, Move]:
    """Every path ever renamed or deleted, its latest such change, from one ``git log -M`` pass."""
    out = _git(
        root, "log", "--format=%x1e%H%x00%cI", "-M", "--name-status", "--diff-filter=DR", "-z", timeout=60
    )
    found: dict[str, Move] = {}
    for record in out.split("\x1e"):
        fields = record.split("\x00")
        if len(fields) < 2 or not fields[0]:
            continue
        sha, date, rest = fields[0], fields[1].strip(), [f.strip("\n") for f in fields[2:]]
        i = 0
        while i < len(rest):
            status = rest[i]
            if status.startswith("R") and i + 2 < len(rest):
                found.setdefault(rest[i + 1], Move(rest[i + 2], sha, date))  # newest first: keep the latest
                i += 3
            elif status.startswith("D") and i + 1 < len(rest):
                found.setdefault(rest[i + 1], Move(None, sha, date))
                i += 2
            else:
                i += 1
    return found


def follow_move(path: str, found: dict[str, Move], exists) -> tuple[str | None, Move | None]:
    """The path's current name (following rename chains; None when deleted) and the move that ended it."""
    seen, current, last = {path}, path, None
    while current in found:
        move = found[current]
        last = move
        if move.to is None:
            return None, last
        current = move.to
        if exists(current) or current in seen:
            return current, last
        seen.add(current)
    return (current if exists(current) else None), last


@dataclass(frozen=True, slots=True)
class Change:
    sha: str
    date: str
    subject: str
    files: dict[str, int]  # path -> lines inserted + deleted


def changes_since(root: Path, since: str) -> list[Change]:
    """Commits from day ``since`` (YYYY-MM-DD) on, newest first, with churn per file (one ``--numstat`` pass)."""
    out = _git(
        root,
        "log",
        f"--since={since}T00:00:00",
        f"--format={_FORMAT}",
        "--numstat",
        "--no-renames",
        "-z",
        "--no-merges",
        timeout=60,
    )
    changes = []
    for record in out.split("\x1e"):
        fields = record.split("\x00")
        if len(fields) < 3 or not fields[0]:
            continue
        sha, date = fields[0], fields[1]
        subject, _, first = fields[2].partition("\n")
        files: dict[str, int] = {}
        for row in [first, *fields[3:]]:
            parts = row.strip("\n").split("\t")
            if len(parts) == 3 and parts[2]:
                files[parts[2]] = _count(parts[0]) + _count(parts[1])
        changes.append(Change(sha, date, subject, files))
    return changes


def _count(value: str) -> int:
    return int(value) if value.isdigit() else 0
