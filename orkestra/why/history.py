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
    pr: int | None = None  # the pull request it came in by (its own ``(#N)``, or the merge that brought it)

    def to_dict(self) -> dict:
        data = {"sha": self.sha, "date": self.date[:10], "subject": self.subject}
        if self.pr is not None:
            data["pr"] = self.pr
        return data


@dataclass(frozen=True, slots=True)
class PathHistory:
    commits: tuple[CommitRef, ...]  # newest first
    names: tuple[str, ...]  # every name the path had, the current one first


def _git(root: Path, *args: str, timeout: float = 30) -> str:
    """stdout of one git command ('' when git fails: no repository, unknown path, …)."""
    return git.output(root, *args, timeout=timeout)


def is_git_repo(root: Path) -> bool:
    return (root / ".git").exists()


def is_folder(root: Path, path: str) -> bool:
    """``path`` is a folder now, or (gone) the files history knows under it were below it."""
    try:
        if (root / path).is_dir():
            return True
        if (root / path).exists():
            return False
    except OSError:
        return False
    out = _git(root, "log", "-n1", "--format=", "--name-only", "-z", "--", path)
    return any(name.strip("\n").startswith(path.rstrip("/") + "/") for name in out.split("\x00"))


def path_history(root: Path, path: str, start: int | None = None, end: int | None = None) -> PathHistory:
    """Commits that shaped ``path`` (a file: following renames), or only lines ``start..end`` of it
    (``git log -L``). A folder has no former names: ``--follow`` follows one file, and the names git
    lists for a folder are the files changed below it, not names it had."""
    folder = start is None and is_folder(root, path)
    follow = () if folder else ("--follow", "--name-only")
    out = _git(root, "log", f"--format={_FORMAT}", *follow, "-z", f"-n{MAX_COMMITS}", "--", path)
    commits, names = [], [path]
    for record in out.split("\x1e"):
        fields = [f.strip("\n") for f in record.split("\x00")]
        if len(fields) < 3 or not fields[0]:
            continue
        commits.append(CommitRef(fields[0], fields[1], fields[2]))
        for name in fields[3:] if not folder else ():
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
class PullRequest:
    number: int
    title: str
    merge: str | None  # the merge commit (None for a squash commit, which is the PR itself)
    date: str

    def to_dict(self) -> dict:
        return {"number": self.number, "title": self.title, "merge": self.merge, "date": self.date[:10]}


def pull_requests(root: Path, commits: tuple[CommitRef, ...]) -> dict[str, PullRequest]:
    """sha → the pull request each of ``commits`` came in by: its own subject's ``(#N)`` (a squash or a
    merge titled so), else the nearest pull-request merge that brought it in (two git commands: the
    parents of every commit and the merges' messages; :func:`orkestra.mining.plain.pull_request_owners`)."""
    from orkestra.mining.plain import PR_SUFFIX_RE, pull_request, pull_request_owners

    found: dict[str, PullRequest] = {}
    for ref in commits:
        own = PR_SUFFIX_RE.search(ref.subject)
        if own:
            found[ref.sha] = PullRequest(
                int(own["number"]), ref.subject[: own.start()].strip(), None, ref.date
            )
    wanted = {c.sha for c in commits} - set(found)
    if not wanted:
        return found
    from concurrent.futures import ThreadPoolExecutor

    merges: dict[str, dict] = {}
    with ThreadPoolExecutor(max_workers=1) as pool:  # the two gits at once: ~0.3 s less on flask's 5.5k
        listing = pool.submit(_git, root, "rev-list", "--parents", "HEAD", timeout=60)
        out = _git(root, "log", "--merges", "--format=%x1e%H%x00%cI%x00%P%x00%s%x00%b", "HEAD", timeout=60)
        parents_text = listing.result()
    for record in out.split("\x1e"):
        fields = record.split("\x00")
        if len(fields) < 5 or not fields[0]:
            continue
        sha, date, parents, subject, body = fields[0], fields[1], fields[2].split(), fields[3], fields[4]
        merges[sha] = {
            "sha": sha,
            "date": date,
            "parents": parents,
            "subject": subject,
            "body": body,
            "signals": {"is_merge": True},
        }
    if not any(pull_request(m)[0] == "pr-merge" for m in merges.values()):
        return found
    graph: dict[str, list[str]] = {}
    for line in reversed(parents_text.splitlines()):
        sha, *parents = line.split()
        graph[sha] = parents
    owners = pull_request_owners(graph, merges)
    for sha in wanted:
        merge = merges.get(owners.get(sha, "")) or (merges.get(sha) if sha in merges else None)
        if merge is None:
            continue
        kind, number, title = pull_request(merge)
        if kind == "pr-merge":
            found[sha] = PullRequest(number, title, merge["sha"], merge["date"])
    return found


def blame(root: Path, path: str, start: int, end: int) -> list[tuple[str, int]]:
    """(sha, lines it last changed) for lines ``start..end`` of ``path`` at HEAD, most lines first."""
    out = _git(root, "blame", "--porcelain", f"-L{start},{end}", "HEAD", "--", path)
    counts: dict[str, int] = {}
    for line in out.splitlines():
        parts = line.split(" ")
        if len(parts) >= 3 and len(parts[0]) in (40, 64) and parts[1].isdigit() and parts[2].isdigit():
            counts[parts[0]] = counts.get(parts[0], 0) + 1
    return sorted(counts.items(), key=lambda item: -item[1])


MAX_PULL_REQUESTS = 10


def shaped_by(
    root: Path, path: str, commits: tuple[CommitRef, ...], start: int | None = None, end: int | None = None
) -> tuple[tuple[CommitRef, ...], list[dict], list[dict]]:
    """The history side of a ``why`` answer: (``commits`` with their pull requests, the pull requests
    newest first with how many of the commits each brought, and for a line range the commits that last
    changed its current lines, ``git blame``, most lines first)."""
    from dataclasses import replace

    prs = pull_requests(root, commits)
    commits = tuple(replace(c, pr=prs[c.sha].number) if c.sha in prs else c for c in commits)
    grouped: dict[int, dict] = {}
    for ref in commits:
        pr = prs.get(ref.sha)
        if pr is not None:
            entry = grouped.setdefault(pr.number, pr.to_dict() | {"commits": 0})
            entry["commits"] += 1
    ordered = sorted(grouped.values(), key=lambda p: (p["date"], p["number"]), reverse=True)
    lines: list[dict] = []
    if start is not None:
        known = {c.sha: c for c in commits}
        owned = blame(root, path, start, end or start)
        missing = [sha for sha, _ in owned if sha not in known]
        if missing:
            out = _git(root, "show", "-s", f"--format={_FORMAT}", *missing)
            for record in out.split("\x1e"):
                fields = record.strip("\n").split("\x00")
                if len(fields) >= 3 and fields[0]:
                    known[fields[0]] = CommitRef(fields[0], fields[1], fields[2].split("\n", 1)[0])
        for sha, count in owned:
            ref = known.get(sha)
            if ref is not None:
                lines.append(ref.to_dict() | {"lines": count})
    return commits, ordered[:MAX_PULL_REQUESTS], lines


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
