"""The only git runner of mining: discovery, plumbing, and one streamed ``git log``.

Discovery and plumbing go through GitPython; the log is streamed from ``git log`` with a
fixed format (record separator ``\\x1e`` before each commit, NUL between fields, ``-z``
for file names), so a 10k-commit history is one process and one pass over its output.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from orkestra.errors import OrkestraError

LOG_FORMAT = "%x1e%H%x00%P%x00%cI%x00%aI%x00%an%x00%B%x00"


@dataclass(frozen=True, slots=True)
class RawCommit:
    sha: str
    parents: tuple[str, ...]
    date: str  # committer date, ISO 8601
    author_date: str
    author: str
    message: str
    files: tuple[str, ...]
    # (insertions, deletions) per file when read with --numstat; None without stats
    numstat: tuple[tuple[int, int], ...] | None


class Git:
    """A repository found from any directory inside it."""

    def __init__(self, start: Path):
        import git

        try:
            self.repo = git.Repo(start, search_parent_directories=True)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError) as exc:
            raise OrkestraError(f"{start}: not inside a git repository") from exc
        self.root = Path(self.repo.working_tree_dir).resolve()

    def head(self) -> str | None:
        """The sha of HEAD, or None in a repository without commits."""
        import git

        try:
            return self.repo.git.rev_parse("--verify", "-q", "HEAD^{commit}")
        except git.GitCommandError:  # an unborn HEAD
            return None

    def is_ancestor(self, sha: str, of: str) -> bool:
        """True when ``sha`` exists and is reachable from ``of`` (history was not rewritten)."""
        import git

        try:
            self.repo.git.merge_base("--is-ancestor", sha, of)
        except git.GitCommandError:
            return False
        return True

    def log(self, revision: str, stats: bool = False) -> Iterator[RawCommit]:
        """Stream commits of ``revision`` (``HEAD`` or ``a..b``), newest first."""
        diff = ["--numstat"] if stats else ["--name-only"]
        args = ["git", "log", f"--format={LOG_FORMAT}", "-z", "--no-renames", "--diff-merges=first-parent",
                "--no-color", *diff, revision, "--"]
        with subprocess.Popen(args, cwd=self.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
            yield from _records(proc.stdout, stats)
            stderr = proc.stderr.read().decode("utf-8", "replace")
        if proc.returncode:
            raise OrkestraError(f"git log {revision} failed: {stderr.strip()}")

    def tags(self) -> list[tuple[str, str, str]]:
        """Every tag as (name, peeled commit sha, creator date YYYY-MM-DD)."""
        out = self.repo.git.for_each_ref(
            "refs/tags", "--format=%(refname:short)%00%(objectname)%00%(*objectname)%00%(creatordate:short)")
        tags = []
        for line in out.splitlines():
            name, obj, peeled, date = line.split("\0")
            tags.append((name, peeled or obj, date))
        return tags

    def existing_commits(self, shas: list[str]) -> set[str]:
        """Which of ``shas`` name commits in this repository (one ``cat-file --batch-check``)."""
        if not shas:
            return set()
        proc = subprocess.run(["git", "cat-file", "--batch-check=%(objectname) %(objecttype)"], cwd=self.root,
                              input="\n".join(shas) + "\n", capture_output=True, text=True, check=True)
        found = set()
        for asked, answer in zip(shas, proc.stdout.splitlines()):
            parts = answer.split()
            if len(parts) == 2 and parts[1] == "commit":
                found.add(asked)
        return found


def _records(stream, stats: bool) -> Iterator[RawCommit]:
    buffer = b""
    while chunk := stream.read(1 << 16):
        buffer += chunk
        *complete, buffer = buffer.split(b"\x1e")
        for record in complete:
            if record:
                yield _parse_record(record, stats)
    if buffer:
        yield _parse_record(buffer, stats)


def _parse_record(record: bytes, stats: bool) -> RawCommit:
    fields = record.decode("utf-8", "replace").split("\0")
    sha, parents, date, author_date, author, message = fields[:6]
    names = [f.lstrip("\n") for f in fields[6:]]
    names = [n for n in names if n]
    numstat = None
    if stats:
        rows = [n.split("\t", 2) for n in names]
        names = [r[2] for r in rows if len(r) == 3]
        numstat = tuple((_count(r[0]), _count(r[1])) for r in rows if len(r) == 3)
    return RawCommit(sha, tuple(parents.split()), date, author_date, author, message, tuple(names), numstat)


def _count(value: str) -> int:
    return int(value) if value.isdigit() else 0  # "-" for binary files
