"""Mining's view of git: discovery, plumbing, and one streamed ``git log`` (run by ``orkestra.git``).

Discovery and plumbing are plain git commands; the log is streamed from ``git log -z`` with a
fixed format, one pass over its output (a long oldest-first log: two gits at once, :func:`split_log`).

The stream is NUL-delimited throughout and read positionally, so no byte of a message, author
or file name can start a record: git prints a message only up to its first NUL, each commit is
exactly six NUL-terminated header fields (sha, parents, committer date, author date, author,
message), then ``--name-status`` pairs (status token, path) or ``--numstat`` tokens
(``ins\\tdel\\tpath``). A new record starts only where a diff token may stand, and only with
a token that is a full hex sha; anything else is an error, never a guess.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from orkestra import git
from orkestra.errors import OrkestraError

LOG_FORMAT = "%H%x00%P%x00%cI%x00%aI%x00%an%x00%B%x00"
HEADER_FIELDS = 6
SHA_RE = re.compile(rb"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")
STATUS_RE = re.compile(rb"^[ACDMRTUXB][0-9]*$")


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
    """A repository found from any directory inside it (plain git plumbing: no GitPython import)."""

    def __init__(self, start: Path):
        done = _plumbing(start, "rev-parse", "--show-toplevel") if Path(start).is_dir() else None
        if done is None or done.returncode or not done.stdout.strip():
            raise OrkestraError(f"{start}: not inside a git repository")
        self.root = Path(done.stdout.strip()).resolve()

    @property
    def repo(self):
        """The GitPython repository, for callers that want its API (imported only when asked)."""
        import git

        return git.Repo(self.root)

    def head(self) -> str | None:
        """The sha of HEAD, or None in a repository without commits."""
        done = _plumbing(self.root, "rev-parse", "--verify", "-q", "HEAD^{commit}")
        return done.stdout.strip() or None if done.returncode == 0 else None  # None: an unborn HEAD

    def is_ancestor(self, sha: str, of: str) -> bool:
        """True when ``sha`` exists and is reachable from ``of`` (history was not rewritten)."""
        if not SHA_RE.match(sha.encode()):  # a planted state.json must not smuggle an option in
            return False
        return _plumbing(self.root, "merge-base", "--is-ancestor", sha, of).returncode == 0

    def tags(self) -> list[tuple[str, str, str]]:
        """Every tag as (name, peeled commit sha, creator date YYYY-MM-DD)."""
        done = _plumbing(
            self.root,
            "for-each-ref",
            "refs/tags",
            "--format=%(refname:short)%00%(objectname)%00%(*objectname)%00%(creatordate:short)",
        )
        if done.returncode:
            raise OrkestraError(f"git for-each-ref failed: {done.stderr.strip()}")
        tags = []
        for line in done.stdout.splitlines():
            name, obj, peeled, date = line.split("\0")
            tags.append((name, peeled or obj, date))
        return tags

    def existing_commits(self, shas: list[str]) -> set[str]:
        """Which of ``shas`` name commits in this repository (one ``cat-file --batch-check``)."""
        return existing_commits(self.root, shas)

    def log(self, revision: str, stats: bool = False, reverse: bool = False) -> Iterator[RawCommit]:
        """Stream commits of ``revision`` (``HEAD`` or ``a..b``), newest first (oldest first with ``reverse``).

        An oldest-first log of at least :data:`SPLIT_MIN_COMMITS` commits on a machine with more than
        one core runs as two ``git log`` processes at once (:func:`split_log`): same records, same order."""
        if reverse and (os.cpu_count() or 1) > 1:
            yield from split_log(self.root, revision, stats)
            return
        with git.stream(self.root, *log_args(revision, stats, reverse)[1:]) as proc:
            yield from _records(proc.stdout, stats)
            stderr = proc.stderr.read().decode("utf-8", "replace")
        if proc.returncode:
            raise OrkestraError(f"git log {revision} failed: {stderr.strip()}")


def _plumbing(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """One short git plumbing command (never the log: that is :meth:`Git.log`)."""
    return git.run(cwd, *args)


def log_args(revision: str, stats: bool = False, reverse: bool = False) -> list[str]:
    """The one ``git log`` command mining runs (bench/bench_mine_scale.py times it alone as the floor)."""
    diff = ["--numstat"] if stats else ["--name-status"]
    order = ["--reverse"] if reverse else []
    # git's delta-base cache defaults to 96 MB and its pack windows to 1 GiB: 8 MB of cache (16 MB for the two
    # gits of a split log) and at most 8 MiB of 1 MiB windows keep a 30k-commit half at ~72 MB RSS instead of
    # ~160 MB, at no measurable cost in time (bench/bench_mine_scale.py)
    return [
        "git",
        "-c",
        "core.deltaBaseCacheLimit=8m",
        "-c",
        "core.packedGitWindowSize=1m",
        "-c",
        "core.packedGitLimit=8m",
        "log",
        f"--format={LOG_FORMAT}",
        "-z",
        "--no-renames",
        "--diff-merges=first-parent",
        "--no-color",
        *order,
        *diff,
        revision,
        "--",
    ]


def log_stdin_args(stats: bool = False) -> list[str]:
    """:func:`log_args` for the commits listed on stdin, shown in the order given (``--no-walk=unsorted``)."""
    return [*log_args("--no-walk=unsorted", stats)[:-1], "--stdin", "--"]


SPLIT_MIN_COMMITS = 4096  # below this, a second git process costs more than it saves


def split_log(root: Path, revision: str, stats: bool = False) -> Iterator[RawCommit]:
    """The commits of ``revision`` oldest first, their tree diffs computed by two ``git log`` at once.

    ``git rev-list --reverse`` lists the commits in the very order ``git log --reverse`` shows them
    (same walk); each half goes to its own ``git log --no-walk=unsorted --stdin``, which shows the
    given commits in the given order, each diffed against its first parent as before, so the
    concatenated output is byte for byte the single log's. The first half streams through a pipe;
    the second writes to an unnamed temporary file meanwhile and is read after, so memory stays
    bounded whatever the history length (on disk: the sha list and about 0.4 KiB of log per commit)."""
    # ``revs`` and ``first`` unbuffered: the gits move their file offsets, which a read buffer would rewind on close
    with (
        tempfile.TemporaryFile(buffering=0) as revs,
        tempfile.TemporaryFile(buffering=0) as first,
        tempfile.TemporaryFile() as later,
        tempfile.TemporaryFile() as errors,
    ):
        listing = git.popen(root, "rev-list", "--reverse", revision, "--", stdout=revs, stderr=errors)
        if listing.wait():
            errors.seek(0)
            raise OrkestraError(f"git rev-list {revision} failed: {_text(errors.read()).strip()}")
        size = os.fstat(revs.fileno()).st_size
        revs.seek(0)
        width = len(revs.readline())  # every line is one full sha: 41 or 65 bytes
        count = size // width if width else 0
        if not count:  # an empty range: ``git log --stdin`` given nothing would show HEAD
            return
        half = count // 2 * width if count >= SPLIT_MIN_COMMITS else size
        revs.seek(0)
        while (left := half - first.tell()) > 0 and (chunk := revs.read(min(left, 1 << 20))):
            first.write(chunk)  # the first half to its own file, in 1 MiB steps
        first.seek(0)  # the file offsets the two gits inherit
        revs.seek(half)
        procs = [
            git.popen(root, *log_stdin_args(stats)[1:], stdin=first, stdout=subprocess.PIPE, stderr=errors)
        ]
        if half < size:
            procs.append(git.popen(root, *log_stdin_args(stats)[1:], stdin=revs, stdout=later, stderr=errors))
        try:
            yield from _records(procs[0].stdout, stats)
            for proc in procs:
                proc.wait()
            if any(proc.returncode for proc in procs):
                errors.seek(0)
                raise OrkestraError(f"git log {revision} failed: {_text(errors.read()).strip()}")
            if len(procs) > 1:
                later.seek(0)
                yield from _records(later, stats)
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.kill()
                proc.wait()
            procs[0].stdout.close()


def existing_commits(root: Path, shas: list[str]) -> set[str]:
    """Which of ``shas`` name commits in the repository at ``root`` (one ``git cat-file --batch-check``).

    Only full hex shas are asked (anything else, say a planted ``"<sha>\\nHEAD"``, would shift the answers)."""
    shas = [s for s in shas if isinstance(s, str) and SHA_RE.match(s.encode())]
    if not shas:
        return set()
    proc = git.run(
        root,
        "cat-file",
        "--batch-check=%(objectname) %(objecttype)",
        input="\n".join(shas) + "\n",
        check=True,
    )
    found = set()
    for asked, answer in zip(shas, proc.stdout.splitlines()):
        parts = answer.split()
        if len(parts) == 2 and parts[1] == "commit":
            found.add(asked)
    return found


REMOTE_RE = re.compile(
    r"^(?:https?://(?:[^@/]+@)?|ssh://(?:[^@/]+@)?|[^@/:]+@)(?P<host>[^/:]+)(?::\d+)?[:/]"
    r"(?P<path>[^\s]+?)(?:\.git)?/?$"
)


def origin_url(root: Path) -> str | None:
    """The web address of the ``origin`` remote (``https://host/owner/repo``), or None for a local path."""
    out = git.output(root, "config", "--get", "remote.origin.url", timeout=10).strip()
    match = REMOTE_RE.match(out)
    return f"https://{match['host']}/{match['path']}" if match else None


def _tokens(stream) -> Iterator[bytes]:
    """NUL-terminated tokens of a stream, read in 64 KiB chunks."""
    buffer = b""
    while chunk := stream.read(1 << 16):
        buffer += chunk
        *complete, buffer = buffer.split(b"\0")
        yield from complete
    if buffer:
        yield buffer


def _records(stream, stats: bool) -> Iterator[RawCommit]:
    """Commits of a ``git log -z`` stream in :data:`LOG_FORMAT`, read positionally."""
    tokens = _tokens(stream)
    header: list[bytes] | None = None
    names: list[str] = []
    counts: list[tuple[int, int]] = []
    for token in tokens:
        if header is not None and len(header) < HEADER_FIELDS:
            header.append(token)
            continue
        item = token.lstrip(b"\n")
        if not item:
            continue
        if header is None and not SHA_RE.match(item):
            raise OrkestraError(f"unexpected git log output before the first commit: {item[:60]!r}")
        if not stats and len(item) < 5 and STATUS_RE.match(item):  # the common case first
            path = next(tokens, None)
            if path is None:
                raise OrkestraError("git log output ended inside a file entry")
            names.append(_text(path))
        elif SHA_RE.match(item):  # only here can a commit start
            if header is not None:
                yield _commit(header, names, counts, stats)
            header, names, counts = [item], [], []
        elif stats and item.count(b"\t") >= 2:
            added, deleted, path = item.split(b"\t", 2)
            names.append(_text(path))
            counts.append((_count(added), _count(deleted)))
        else:
            raise OrkestraError(f"unexpected git log output after {header[0][:12].decode()}: {item[:60]!r}")
    if header is not None:
        if len(header) < HEADER_FIELDS:
            raise OrkestraError(f"git log output ended inside the record of {header[0][:12].decode()}")
        yield _commit(header, names, counts, stats)


def _text(value: bytes) -> str:
    return value.decode("utf-8", "replace")


def _commit(header: list[bytes], names: list[str], counts: list[tuple[int, int]], stats: bool) -> RawCommit:
    sha, parents, date, author_date, author, message = map(_text, header)
    return RawCommit(
        sha,
        tuple(parents.split()),
        date,
        author_date,
        author,
        message,
        tuple(names),
        tuple(counts) if stats else None,
    )


def _count(value: bytes) -> int:
    return int(value) if value.isdigit() else 0  # "-" for binary files
