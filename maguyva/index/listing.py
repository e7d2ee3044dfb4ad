"""What git says about a work tree's files, for the scan: which exist, and which still hold their blob.

Two git commands, started in the background while the caller opens its store:

* ``git status --porcelain=v2 --untracked-files=all``: the tracked files whose work-tree copy
  differs from the index (git checks its cached stat data, racy entries by content), and the
  untracked files no ignore rule matches;
* ``git ls-files -s -v``: the tracked files with their index blob ids (listed even when an ignore
  rule matches them, as git treats them).

A tracked regular file git does not report, with no assume-unchanged or skip-worktree bit, holds its
index blob: when the index stores that blob id as the file's hash, the file is unchanged without a
``stat`` of ours. (A content filter such as ``core.autocrlf`` makes the blob differ from the bytes'
id: such a file takes the stat path.)

**Quick listing.** Each run records a ``ListingRecord``: a digest of the index file's own checksum
(its last bytes, read before git status starts), the paths git status reported, and what the digest
cannot vouch for. When the next run's digest is the same, git's index is byte for byte the one the
last run saw (same paths, blobs and stat data), so a tracked file that status reported neither then
nor now held its blob both times, unchanged, as the last run left it: ``ls-files`` is not run at
all, and only the paths status reports now or reported then, the recorded special entries (links,
assume-unchanged entries), submodules and nested repositories are looked at. An edit, a new or
deleted file, a revert take that path; anything that moves the index — ``git add``, a commit, a
checkout, git refreshing its stat data — changes the digest, and so does an edited
``.maguyvaignore`` (it filters every path): then the full listing runs.

A run sees what git sees: with ``core.trustctime=false`` (or ``core.checkStat=minimal``) git, and so
this listing, misses an edit that keeps the size and puts the mtime back; the stat path outside git
compares max(mtime, ctime) and would not.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from stat import S_ISREG

LISTING_FORMAT = 1  # part of the digest: a change to the commands or the record invalidates old records
STATUS_ARGS = (
    "--no-optional-locks",  # never rewrites git's index (another git may hold it; our digest reads it)
    "status",
    "--porcelain=v2",
    "-z",
    "--untracked-files=all",
    "--no-renames",
    "--ignore-submodules=dirty",
    "--branch",  # "# branch.oid <HEAD>": the snapshot's commit without another git
    "--no-ahead-behind",
    "--",
    ".",
)
_REGULAR_MODES = (b"100644", b"100755")
_TRAILER_BYTES = 32  # a SHA-256 index's checksum; a SHA-1 one is the last 20 of these
_GIT_ENV = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR")


@dataclass(frozen=True, slots=True)
class ListingRecord:
    """What one run's listing leaves for the next one to compare against (stored as JSON)."""

    digest: str
    reported: tuple[str, ...] = ()  # the files git status reported (changed, deleted or untracked)
    special: tuple[str, ...] = ()  # tracked entries no digest vouches for: stat-checked every run
    nested: tuple[str, ...] = ()  # submodules: walked every run
    ignores: tuple[str, ...] = ()  # directories holding a listed ``.maguyvaignore``
    skipped: tuple[tuple[str, str], ...] = ()  # vouched files the scan skipped, with the reason

    def to_json(self) -> str:
        fields = [self.digest, self.reported, self.special, self.nested, self.ignores, self.skipped]
        return json.dumps([LISTING_FORMAT, *fields], separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str | None) -> ListingRecord | None:
        try:
            version, digest, reported, special, nested, ignores, skipped = json.loads(text or "null")
        except (TypeError, ValueError):
            return None
        if version != LISTING_FORMAT:
            return None
        lists = (tuple(reported), tuple(special), tuple(nested), tuple(ignores))
        return cls(digest, *lists, tuple(map(tuple, skipped)))


@dataclass(frozen=True, slots=True)
class Listed:
    """What git listed for a work tree."""

    paths: list[str]  # files to look at, sorted: every tracked and untracked one, or (quick) the few
    reported: tuple[str, ...]  # the files git status reported
    blobs: dict[str, str]  # tracked path → its index blob id, where git found the work tree holding it
    nested: list[str]  # nested repositories (``dir/`` entries) and submodules: walked
    dirty: tuple[str, ...]  # paths with uncommitted changes (modified, added, deleted, untracked)
    head: str | None  # the commit HEAD names (None before the first commit)
    digest: str | None  # of the index and git status's output; None when the index cannot be read
    special: tuple[str, ...] = ()  # tracked entries the digest cannot vouch for
    submodules: tuple[str, ...] = ()
    quick: ListingRecord | None = None  # the record this listing matched: the rest are unchanged


class GitListing:
    """git status started now, in the background; ``result`` adds ``ls-files`` when it must."""

    def __init__(self, root: Path):
        self.root = root
        self.trailer = _index_trailer(root)  # before status starts: a later index change then shows
        self.status = _git_start(root, *STATUS_ARGS)
        self.tracked: subprocess.Popen | None = None
        self._result: Listed | None = None

    def digest(self, salt: str) -> str | None:
        """What a recorded listing must match for a quick one: git's index checksum with the scan's own
        settings (None when the index cannot be read, or ``root`` is not the work tree's top)."""
        if self.trailer is None or not os.path.lexists(self.root / ".git"):
            return None
        return hashlib.sha1(b"%d\0%s\0%s" % (LISTING_FORMAT, salt.encode(), self.trailer)).hexdigest()

    def may_be_quick(self, recorded: ListingRecord | None, salt: str) -> bool:
        """Whether ``recorded`` can spare the run ``ls-files`` (known before git status ends)."""
        digest = self.digest(salt)
        return recorded is not None and digest is not None and recorded.digest == digest

    def start_tracked(self) -> None:
        """Start ``git ls-files`` now, beside git status, for a listing that will need it."""
        if self.tracked is None and self._result is None:
            self.tracked = _git_start(self.root, "ls-files", "-z", "-s", "-v")

    def result(self, recorded: ListingRecord | None = None, salt: str = "") -> Listed | None:
        """What git listed, or None outside a work tree (or without git). With the ``recorded`` listing
        of the last run and the same digest (``salt``: the scan's own settings), a quick listing."""
        if self._result is not None or self.status is None:
            return self._result
        status = _git_output(self.status)
        self.status = None  # read once: a later call gives the same answer
        if status is None:
            if self.tracked is not None:  # not a work tree after all
                self.tracked.kill()
                self.tracked.wait()
            return None
        prefix = _status_prefix(self.root)
        digest = self.digest(salt)
        reported, dirty, nested, changed, head = _parse_status(status, prefix)
        if self.may_be_quick(recorded, salt) and self.tracked is None:
            paths = sorted(set(reported).union(recorded.reported, recorded.special))
            if not any(p.rpartition("/")[2] == ".maguyvaignore" for p in paths):
                self._result = Listed(
                    paths,
                    reported=tuple(reported),
                    blobs={},
                    nested=sorted(nested + list(recorded.nested)),
                    dirty=dirty,
                    head=head,
                    digest=digest,
                    special=recorded.special,
                    submodules=recorded.nested,
                    quick=recorded,
                )
                return self._result
        self.start_tracked()
        out = _git_output(self.tracked) if self.tracked is not None else None
        if out is None:  # git failed between the two commands: the caller walks the tree
            return None
        files, blobs, submodules, special = _parse_tracked(out)
        for path in changed:
            blobs.pop(path, None)
        files.update(dict.fromkeys(reported))
        self._result = Listed(
            sorted(files),
            reported=tuple(reported),
            blobs=blobs,
            nested=sorted(nested + submodules),
            dirty=dirty,
            head=head,
            digest=digest,
            special=special,
            submodules=tuple(submodules),
        )
        return self._result


def _parse_status(
    status: bytes, prefix: str
) -> tuple[list[str], tuple[str, ...], list[str], list[str], str | None]:
    """(untracked and changed files, uncommitted paths, nested repositories, tracked files whose work
    tree differs from the index, HEAD's commit) from ``git status --porcelain=v2 -z --branch``."""
    head = None
    reported: list[str] = []
    dirty: list[str] = []
    nested: list[str] = []
    changed: list[str] = []
    entries = iter(status.split(b"\0"))
    for entry in entries:
        kind = entry[:2]
        if kind == b"1 ":  # "1 XY sub mH mI mW hH hI path"
            fields = entry.split(b" ", 8)
            path = os.fsdecode(fields[8])[len(prefix) :]
            if fields[1][1:2] != b".":  # the work tree differs from the index
                changed.append(path)
                reported.append(path)
        elif kind == b"2 ":  # a rename (not asked for): "... path\0origPath"
            path = os.fsdecode(entry.split(b" ", 9)[9])[len(prefix) :]
            changed.append(path)
            reported.append(path)
            next(entries, None)
        elif kind == b"u ":  # unmerged: "u XY sub m1 m2 m3 mW h1 h2 h3 path"
            path = os.fsdecode(entry.split(b" ", 10)[10])[len(prefix) :]
            changed.append(path)
            reported.append(path)
        elif kind == b"# ":  # a header: "# branch.oid <commit>" ("(initial)" before the first commit)
            if entry.startswith(b"# branch.oid ") and entry[13:] != b"(initial)":
                head = entry[13:].decode()
            continue
        elif kind == b"? ":
            path = os.fsdecode(entry[2:])[len(prefix) :]
            if path.endswith("/"):  # a nested repository git does not enter
                nested.append(path.rstrip("/"))
            else:
                reported.append(path)
        else:
            continue
        dirty.append(path)
    return reported, tuple(sorted(dirty)), nested, changed, head


def _parse_tracked(out: bytes) -> tuple[dict[str, None], dict[str, str], list[str], tuple[str, ...]]:
    """(tracked files, their vouchable blob ids, submodules, special entries) from ``ls-files -s -v -z``."""
    files: dict[str, None] = {}
    blobs: dict[str, str] = {}
    submodules: list[str] = []
    special: list[str] = []
    for entry in out.split(b"\0"):
        # "<tag> <mode> <blob> <stage>\t<path>"; tag H: cached (lower case: assume-unchanged)
        meta, tab, raw = entry.partition(b"\t")
        if not tab:
            continue
        path = os.fsdecode(raw)
        tag, mode, blob, stage = meta.split(b" ")
        if mode == b"160000":  # a submodule: its work tree is walked
            submodules.append(path)
        elif path not in files:  # a path with unmerged stages is listed per stage
            files[path] = None
            if tag == b"H" and stage == b"0" and mode in _REGULAR_MODES:
                blobs[path] = blob.decode()
            else:  # a link (its target may change unseen), an assume-unchanged or skip-worktree entry
                special.append(path)
    return files, blobs, submodules, tuple(special)


def _index_trailer(root: Path) -> bytes | None:
    """The checksum git writes at the end of its index (None when it cannot be located or trusted)."""
    if any(name in os.environ for name in _GIT_ENV):
        return None
    dot_git = root / ".git"
    try:
        if dot_git.is_dir():
            index = dot_git / "index"
        else:  # a linked work tree or a submodule: "gitdir: <path>"
            line = dot_git.read_text(encoding="utf-8").strip()
            if not line.startswith("gitdir:"):
                return None
            index = (root / line[7:].strip()) / "index"
        stat = os.stat(index)
        if not S_ISREG(stat.st_mode) or stat.st_size < 12 + _TRAILER_BYTES:  # a FIFO would block
            return None
        with open(index, "rb") as handle:
            handle.seek(-_TRAILER_BYTES, os.SEEK_END)
            trailer = handle.read()
    except (OSError, UnicodeDecodeError):
        return None
    return trailer if trailer[-20:].strip(b"\0") else None  # index.skipHash writes zeros


def _git_start(root: Path, *args: str) -> subprocess.Popen | None:
    try:
        return subprocess.Popen(
            ["git", "-C", str(root), *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
    except OSError:
        return None


def _git_output(process: subprocess.Popen) -> bytes | None:
    out, _ = process.communicate()
    return out if process.returncode == 0 else None


def _status_prefix(root: Path) -> str:
    """The root's path inside its work tree ("" at the top level): status paths start with it."""
    if os.path.lexists(root / ".git"):
        return ""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--show-prefix"], capture_output=True, check=False
        )
    except OSError:
        return ""
    return os.fsdecode(done.stdout.strip()) if done.returncode == 0 else ""
