"""Mining's view of git: discovery, plumbing, and one streamed ``git log`` (run by ``orkestra.git``).

Discovery and plumbing are plain git commands; the log is streamed from ``git log -z`` with a
fixed format, one pass over its output; a long oldest-first log also comes as slices of
:func:`log_listing` (:func:`log_parts`, :class:`LogPart`) and as the newest commits alone
(:func:`log_newest`), which two processes read at once (``orkestra.mining.lanes``).

The stream is NUL-delimited throughout and read positionally, so no byte of a message, author
or file name can start a record: git prints a message only up to its first NUL, each commit is
exactly six NUL-terminated header fields (sha, parents, committer date, author date, author,
message), then ``--name-status`` pairs (status token, path) or ``--numstat`` tokens
(``ins\\tdel\\tpath``). A new record starts only where a diff token may stand, and only with
a token that is a full hex sha; anything else is an error, never a guess. No token is held longer
than 64 KiB (``orkestra.mining.log_tokens``): a longer message, author or path is kept as its head,
a marker and its tail, and the rest is skipped as it streams by.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import BinaryIO, NamedTuple

from orkestra import git
from orkestra.errors import OrkestraError
from orkestra.mining.log_tokens import token_lists

LOG_FORMAT = "%H%x00%P%x00%cI%x00%aI%x00%an%x00%B%x00"
HEADER_FIELDS = 6
SHA_RE = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64})\Z")  # \Z: `$` lets "sha\n" through
SHA_LENGTHS = (40, 64)
STATUS_RE = re.compile(r"^[ACDMRTUXB][0-9]*\Z")


class RawCommit(NamedTuple):
    """One commit as the log gives it (a named tuple: 60k of them are built in a full sync)."""

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
    """A repository found from any directory inside it (plain git plumbing)."""

    def __init__(self, start: Path):
        done = _plumbing(start, "rev-parse", "--show-toplevel") if Path(start).is_dir() else None
        if done is None or done.returncode or not done.stdout.strip():
            raise OrkestraError(f"{start}: not inside a git repository")
        self.root = Path(done.stdout.strip()).resolve()

    def head(self) -> str | None:
        """The sha of HEAD, or None in a repository without commits."""
        done = _plumbing(self.root, "rev-parse", "--verify", "-q", "HEAD^{commit}")
        return done.stdout.strip() or None if done.returncode == 0 else None  # None: an unborn HEAD

    def is_ancestor(self, sha: str, of: str) -> bool:
        """True when ``sha`` exists and is reachable from ``of`` (history was not rewritten)."""
        if not isinstance(sha, str) or not SHA_RE.match(
            sha
        ):  # a planted state.json must not smuggle an option in
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

    def log_parts(self, revision: str, stats: bool = False, parts: int = 2):
        """:func:`log_parts` here: ``revision``'s commits oldest first, as up to ``parts`` runs."""
        return log_parts(self.root, revision, stats, parts)

    def existing_commits(self, shas: list[str]) -> set[str]:
        """Which of ``shas`` name commits in this repository (one ``cat-file --batch-check``)."""
        return existing_commits(self.root, shas)

    def log(self, revision: str, stats: bool = False, reverse: bool = False) -> Iterator[RawCommit]:
        """Stream commits of ``revision`` (``HEAD`` or ``a..b``), newest first (oldest first with ``reverse``).

        One ``git log``; :meth:`log_parts` gives the same records as runs that can be read at once."""
        with git.stream(self.root, *log_args(revision, stats, reverse)[1:], env=log_env()) as proc:
            yield from _records(proc.stdout, stats)
            stderr = proc.stderr.read().decode("utf-8", "replace")
        if proc.returncode:
            raise OrkestraError(f"git log {revision} failed: {stderr.strip()}")


def _plumbing(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    """One short git plumbing command (never the log: that is :meth:`Git.log`)."""
    return git.run(cwd, *args)


# 8 MiB of pack mapped in 256 KiB windows, not 1 MiB ones: on a pack laid out newest first (a clone: sympy's
# 332 MB) the tree reads of a full log jump around, and each read outside the mapped windows unmaps one and
# faults the next in. 256 KiB windows halve those page faults (67k -> 32k) for the same RSS: 0.3 s less CPU
# per full log there (~12 %); on the bench's fast-import pack, read in order, it is the same within noise
MEMORY_LIMITS = (
    "-c",
    "core.deltaBaseCacheLimit=8m",
    "-c",
    "core.packedGitWindowSize=256k",
    "-c",
    "core.packedGitLimit=8m",
)


def log_env() -> dict[str, str]:
    """The environment of a log git: this one with ``GIT_FLUSH=0`` (git's documented switch).

    Writing to a pipe, git flushes its output after every commit unless told otherwise: one ``write`` per
    commit and as many wake-ups of the reader (60k of each for a 60k-commit log). Fully buffered, git writes
    the same bytes in 4 KiB blocks: 0.1-0.2 s less system time for git and as much for the reader there."""
    return {**os.environ, "GIT_FLUSH": "0"}


def log_args(revision: str, stats: bool = False, reverse: bool = False) -> list[str]:
    """The one ``git log`` command mining runs (bench/bench_mine_scale.py times it alone as the floor)."""
    diff = ["--numstat"] if stats else ["--name-status"]
    order = ["--reverse"] if reverse else []
    # git's delta-base cache defaults to 96 MB and its pack windows to 1 GiB: 8 MB of cache (16 MB for the two
    # gits of a split log) and at most 8 MiB of pack windows keep a 30k-commit half at ~72 MB RSS instead of
    # ~160 MB, at no measurable cost in time (bench/bench_mine_scale.py)
    return [
        "git",
        *MEMORY_LIMITS,
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
CHUNK_COMMITS = (
    10_000  # one git reads at most this many commits: its RSS grows ~1.2 KB per commit (~50 MB here)
)


@contextmanager
def log_listing(
    root: Path, revision: str, into: BinaryIO | None = None
) -> Iterator[tuple[BinaryIO, int, int]]:
    """``git rev-list --reverse`` of ``revision`` in an unnamed temporary file (or ``into``, an empty
    unbuffered one the caller made): (file, commits, line width).

    The list is in the very order ``git log --reverse`` shows the commits (same walk)."""
    with ExitStack() as files:
        revs = into if into is not None else files.enter_context(tempfile.TemporaryFile(buffering=0))
        errors = files.enter_context(tempfile.TemporaryFile())
        listing = git.popen(  # the pack limits: 41 MB of RSS instead of 103 MB for 60k commits, same time
            root, *MEMORY_LIMITS, "rev-list", "--reverse", revision, "--", stdout=revs, stderr=errors
        )
        if listing.wait():
            errors.seek(0)
            raise OrkestraError(f"git rev-list {revision} failed: {_text(errors.read()).strip()}")
        size = os.fstat(revs.fileno()).st_size
        revs.seek(0)
        width = len(revs.readline())  # every line is one full sha: 41 or 65 bytes
        yield revs, size // width if width else 0, width


@contextmanager
def log_parts(root: Path, revision: str, stats: bool = False, parts: int = 2) -> Iterator[list[LogPart]]:
    """The commits of ``revision`` oldest first, as up to ``parts`` consecutive runs that can be read at once.

    Each run is a slice of :func:`log_listing`, read by ``git log --no-walk=unsorted --stdin`` (one git per
    :data:`CHUNK_COMMITS`, one after the other), which shows the given commits in the given order, each
    diffed against its first parent as before: the runs' records concatenated are the single log's, byte
    for byte. A run starts its gits only when it is read, in whichever process reads it (see
    ``orkestra.mining.index``); the sha lists wait in unnamed temporary files, so memory stays bounded."""
    with log_listing(root, revision) as (revs, count, width), ExitStack() as files:
        if not count:  # an empty range: ``git log --stdin`` given nothing would show HEAD
            yield []
            return
        runs = max(1, min(parts, count // SPLIT_MIN_COMMITS))
        edges = [count * i // runs for i in range(runs + 1)]
        yield [LogPart.of(root, revision, stats, revs, width, a, b, files) for a, b in pairwise(edges)]


@dataclass(frozen=True)
class LogPart:
    """One run of :func:`log_parts`: iterating it runs its gits, one chunk after the other."""

    root: Path
    revision: str
    stats: bool
    shas: tuple  # unnamed temporary files, one sha list per git

    @classmethod
    def of(
        cls, root: Path, revision: str, stats: bool, revs, width: int, first: int, last: int, files: ExitStack
    ) -> LogPart:
        """Lines ``first`` to ``last`` of the sha list ``revs``, one temporary file per chunk (closed with ``files``)."""
        chunks = max(1, -(-(last - first) // CHUNK_COMMITS))
        cuts = [first + (last - first) * i // chunks for i in range(chunks + 1)]
        lists = []
        for a, b in pairwise(cuts):
            shas = files.enter_context(tempfile.TemporaryFile(buffering=0))  # noqa: SIM115 - closed by files
            for offset in range(
                a * width, b * width, 1 << 20
            ):  # this chunk's shas to its own file, 1 MiB a step
                shas.write(os.pread(revs.fileno(), min(1 << 20, b * width - offset), offset))
            shas.seek(0)
            lists.append(shas)
        return cls(root, revision, stats, tuple(lists) if last > first else ())

    def __iter__(self) -> Iterator[RawCommit]:
        for shas in self.shas:
            yield from _log_stream(self.root, log_stdin_args(self.stats)[1:], self.revision, self.stats, shas)


def log_newest(root: Path, revision: str, stats: bool, count: int) -> Iterator[RawCommit]:
    """The newest ``count`` commits of ``revision``, newest first: the last ``count`` of :func:`log_listing`
    reversed (git streams them while it walks, no list needed)."""
    args = log_args(revision, stats)[1:]
    args.insert(-2, f"--max-count={count}")
    yield from _log_stream(root, args, revision, stats)


def _log_stream(root: Path, args: list[str], revision: str, stats: bool, stdin=None) -> Iterator[RawCommit]:
    with tempfile.TemporaryFile() as errors:
        source = subprocess.DEVNULL if stdin is None else stdin
        proc = git.popen(root, *args, stdin=source, stdout=subprocess.PIPE, stderr=errors, env=log_env())
        try:
            yield from _records(proc.stdout, stats)
            if proc.wait():
                errors.seek(0)
                raise OrkestraError(f"git log {revision} failed: {_text(errors.read()).strip()}")
        finally:
            if proc.poll() is None:  # closed early, or failed: never leave a git behind
                proc.kill()
            proc.wait()
            proc.stdout.close()


def existing_commits(root: Path, shas: list[str]) -> set[str]:
    """Which of ``shas`` name commits in the repository at ``root`` (one ``git cat-file --batch-check``).

    Only full hex shas are asked (anything else, say a planted ``"<sha>\\nHEAD"``, would shift the answers)."""
    shas = [s for s in shas if isinstance(s, str) and SHA_RE.match(s)]
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


STATUS_LETTERS = frozenset("ACDMRTUXB")  # a status token: one of these, or R/C with a score (STATUS_RE)


def _records(stream, stats: bool) -> Iterator[RawCommit]:
    """Commits of a ``git log -z`` stream in :data:`LOG_FORMAT`, read positionally."""
    header: list[str] | None = None
    names: list[str] = []
    counts: list[tuple[int, int]] = []
    path_next = False  # the token after a status is a path, whatever it holds
    letters = STATUS_LETTERS
    for tokens in token_lists(stream):
        for token in tokens:
            if path_next:
                names.append(token)
                path_next = False
                continue
            if header is not None and len(header) < HEADER_FIELDS:
                header.append(token)
                continue
            item = token.lstrip("\n") if token[:1] == "\n" else token
            if not item:
                continue
            if not stats and (item in letters or (len(item) < 5 and STATUS_RE.match(item))):
                path_next = True  # the common case first
                if header is None:
                    raise OrkestraError(f"unexpected git log output before the first commit: {item[:60]!r}")
            elif len(item) in SHA_LENGTHS and SHA_RE.match(item):  # only here can a commit start
                if header is not None:
                    yield _commit(header, names, counts, stats)
                header, names, counts = [item], [], []
            elif header is None:
                raise OrkestraError(f"unexpected git log output before the first commit: {item[:60]!r}")
            elif stats and item.count("\t") >= 2:
                added, deleted, path = item.split("\t", 2)
                names.append(path)
                counts.append((_count(added), _count(deleted)))
            else:
                raise OrkestraError(f"unexpected git log output after {header[0][:12]}: {item[:60]!r}")
    if path_next:
        raise OrkestraError("git log output ended inside a file entry")
    if header is not None:
        if len(header) < HEADER_FIELDS:
            raise OrkestraError(f"git log output ended inside the record of {header[0][:12]}")
        yield _commit(header, names, counts, stats)


def _text(value: bytes) -> str:
    return value.decode("utf-8", "replace")


def _commit(header: list[str], names: list[str], counts: list[tuple[int, int]], stats: bool) -> RawCommit:
    sha, parents, date, author_date, author, message = header
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


def _count(value: str) -> int:
    return int(value) if value.isdigit() else 0  # "-" for binary files
