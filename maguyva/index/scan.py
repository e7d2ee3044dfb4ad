"""Walk a repository: honour ignore files, skip binaries and large files, flag paths, detect languages.

Ignore sources, in order (a later match wins, as in git): ``.git/info/exclude``, then every
``.gitignore`` and ``.maguyvaignore`` from the root down to the file's directory. ``.git`` (and
``.hg``, ``.svn``) entries are skipped at every depth, directories and files alike (a nested clone
or a submodule's git file). Symbolic links are never followed into directories; a file link counts
only when its target is a file inside the root and outside every ``.git``. This is the only module
that walks the disk.

In a git work tree the file list comes from git (``GitListing``: tracked files, ignored or not,
as git sees them, and untracked files no ignore rule matches), so the ignore rules are git's own
fast matcher; a nested repository git reports as one ``dir/`` entry, and a submodule's work tree,
are walked. git also says which tracked files still hold their index blob: such a file whose
stored hash is that blob id is unchanged without a ``stat`` of ours (git's index caches the stat
data, racy entries included). Outside git, or when git fails, the directory walk does it all.
Both apply ``.maguyvaignore`` and the same link rules, and neither follows a symlinked directory.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import re
import time
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISDIR, S_ISLNK, S_ISREG
from typing import TYPE_CHECKING

import pathspec

from maguyva.files import in_vcs_dir, resolve_links
from maguyva.index.languages import detect_language
from maguyva.index.listing import GitListing, Listed, ListingRecord
from maguyva.models import FileRecord

if TYPE_CHECKING:
    from maguyva.store.base import FileState

DEFAULT_MAX_BYTES = 1_000_000
# A stat stamp this close to the scan is "racy" (git's rule): an edit in the same timestamp tick
# after we read the file would leave size and stamp unchanged, so the stamp is stored as 0
# ("smudged") and the next scan hashes the file again. 2 s covers the coarsest clocks (FAT).
RACY_WINDOW_NS = 2_000_000_000
IGNORE_FILES = (".gitignore", ".maguyvaignore")
MAX_IGNORE_BYTES = 4 << 20  # an ignore file is read up to this size
_SNIFF = 8192
_VCS_PART = re.compile(r"(?i)\.(git|hg|svn)")  # a cheap hint before ``in_vcs_dir`` splits the path
HOLD_BYTES = 64 << 20  # bytes of new or changed files the scan keeps for extraction (read once)

FLAG_RULES: tuple[tuple[str, re.Pattern], ...] = (
    (
        "vendor",
        re.compile(r"(^|/)(node_modules|vendor|third_party|third-party|site-packages|bower_components)/"),
    ),
    ("build", re.compile(r"(^|/)(build|dist|target|out|__pycache__|\.venv|venv|\.tox|\.next|coverage)/")),
    (
        "generated",
        re.compile(r"(\.min\.(js|css)$|_pb2(_grpc)?\.pyi?$|\.pb\.go$|\.generated\.|(^|/)generated/)"),
    ),
    ("archive", re.compile(r"(^|/)(archive|archived|old|deprecated|legacy|attic)/")),
    (
        "test",
        re.compile(
            r"((^|/)(tests?|__tests__|spec|testdata|fixtures)/|(^|/)test_[^/]*$|_test\.[a-z]+$"
            r"|\.(test|spec)\.[a-z]+$)"
        ),
    ),
)
_GENERATED_HEADER = re.compile(rb"(?i)(code generated .* do not edit|@generated|auto-generated)")


@dataclass(frozen=True, slots=True)
class ScannedFile:
    """A file to index, with the stat stamp that lets the next scan skip re-hashing it (0: never skip)."""

    record: FileRecord
    mtime_ns: int
    data: bytes | None = field(default=None, compare=False, repr=False)  # the bytes, when the scan read
    # them for a new or changed file and could hold them (``HOLD_BYTES``), so extraction reads nothing


def content_digest(data: bytes) -> str:
    """A file's content hash: its git blob id (SHA-1 of ``blob <size>\\0`` + the bytes), so a file git
    reports unchanged is known unchanged by comparing ids, without reading it."""
    digest = hashlib.sha1(b"blob %d\0" % len(data))
    digest.update(data)
    return digest.hexdigest()


def stat_stamp(stat: os.stat_result) -> int:
    """What the next scan compares (with the size) to trust a stored hash: max(mtime, ctime) in ns.

    ctime cannot be set from user space, so an edit whose mtime was put back (``os.utime``,
    ``cp -p``, a checkout tool) still changes the stamp, as git's ``core.trustctime`` relies on.
    """
    return max(stat.st_mtime_ns, stat.st_ctime_ns)


def trusted(previous: FileState | None, stat: os.stat_result) -> bool:
    """Whether a stored state (size, stamp, hash) still describes the file, without reading it."""
    return (
        previous is not None
        and previous.mtime_ns != 0
        and previous.size == stat.st_size
        and previous.mtime_ns == stat_stamp(stat)
    )


@dataclass(frozen=True, slots=True)
class Skipped:
    path: str
    reason: str  # "ignored" is not reported; "binary", "too large (N bytes)", "symlink outside repository", …


@dataclass(frozen=True, slots=True)
class ScanResult:
    files: tuple[ScannedFile, ...]
    skipped: tuple[Skipped, ...] = field(default=())
    # paths of ``known`` whose stored record stands: git vouches the work tree holds the blob whose id
    # is the stored hash, so they were neither stat'ed nor read, and get no ``ScannedFile``
    kept: tuple[str, ...] = field(default=())
    record: ListingRecord | None = None  # what the next scan compares its git listing against

    @property
    def paths(self) -> list[str]:
        """Every file the scan found, kept ones included."""
        return [s.record.path for s in self.files] + list(self.kept)


def scan_repository(
    root: Path,
    max_bytes: int = DEFAULT_MAX_BYTES,
    known: Mapping[str, FileState] | None = None,
    listing: GitListing | None = None,
    recorded: ListingRecord | None = None,
    indexed: Collection[str] | None = None,
) -> ScanResult:
    """Every indexable file under ``root``. ``known`` maps path → ``FileState`` from the previous scan;
    a file whose size and stat stamp are unchanged keeps its hash without being read (unless the
    stamp was racy, see ``RACY_WINDOW_NS``), and with its labels known it is not even opened. ``listing``: a ``GitListing`` of ``root`` already started;
    ``recorded``: the ``ScanResult.record`` of the scan that produced ``known`` (see ``listing.py``);
    ``indexed``: every path of the index, when ``known`` holds only those the quick listing names."""
    root = root.resolve()
    scanner = _Scanner(root, max_bytes, known or {}, indexed)
    listed = (listing or GitListing(root)).result(recorded if known or indexed else None, salt=str(max_bytes))
    if listed is None:
        scanner.walk("", [("", _spec_from(root / ".git" / "info" / "exclude"))])
        return ScanResult(tuple(scanner.files), tuple(scanner.skipped))
    scanner.listed(listed)
    return ScanResult(tuple(scanner.files), tuple(scanner.skipped), tuple(scanner.kept), scanner.record)


class _Scanner:
    def __init__(
        self, root: Path, max_bytes: int, known: Mapping[str, FileState], indexed: Collection[str] | None
    ):
        self.root, self.max_bytes, self.known, self.indexed = root, max_bytes, known, indexed
        self.racy_from = time.time_ns() - RACY_WINDOW_NS
        self.files: list[ScannedFile] = []
        self.skipped: list[Skipped] = []
        self.kept: list[str] = []
        self.record: ListingRecord | None = None
        self.hold = HOLD_BYTES

    def add(self, rel: str, full: Path | str, stat: os.stat_result | None = None) -> ScannedFile | Skipped:
        if not utf8_name(rel):  # bytes git and the walk hand over as surrogates
            outcome: ScannedFile | Skipped = Skipped(rel, "file name is not valid UTF-8")
        else:
            outcome = _scan_file(self, full, rel, self.known.get(rel), stat)
        (self.files if isinstance(outcome, ScannedFile) else self.skipped).append(outcome)
        return outcome

    def walk(self, top: str, specs: list) -> None:
        """The directory walk from ``top`` (repo-relative, "" for the root) with the ignore specs above it."""
        root = self.root
        specs_by_dir: dict[str, list[tuple[str, pathspec.GitIgnoreSpec]]] = {top: specs}
        for directory, dirnames, filenames in _walk(root / top if top else root):
            rel_dir = Path(directory).relative_to(root).as_posix()
            rel_dir = "" if rel_dir == "." else rel_dir
            specs = specs_by_dir.pop(rel_dir)
            specs = specs + [
                (rel_dir, spec)
                for name in IGNORE_FILES
                if (spec := _spec_from(Path(directory) / name)) is not None
            ]
            kept_dirs = []
            for name in sorted(dirnames):
                rel = f"{rel_dir}/{name}" if rel_dir else name
                if in_vcs_dir((name,)) or _ignored(specs, rel + "/"):
                    continue
                if os.path.islink(os.path.join(directory, name)):
                    self.skipped.append(Skipped(rel, "symlinked directory (not followed)"))
                    continue
                kept_dirs.append(name)
                specs_by_dir[rel] = specs
            dirnames[:] = kept_dirs
            for name in sorted(filenames):
                rel = f"{rel_dir}/{name}" if rel_dir else name
                if in_vcs_dir((name,)) or _ignored(specs, rel):
                    continue
                self.add(rel, Path(directory) / name)

    def listed(self, listed: Listed) -> None:
        """Files git listed (sorted, repo-relative), then the nested repositories it did not enter."""
        root, top_dir = self.root, str(self.root)  # strings, not pathlib: 9k paths cost 0.25 s as Paths
        blobs, nested, known, quick = listed.blobs, list(listed.nested), self.known, listed.quick
        walked = tuple(top + "/" for top in nested)  # their files come from the walk below, once
        paths = [p for p in listed.paths if not p.startswith(walked)] if walked else listed.paths
        look = set(paths)
        if quick is not None:  # the rest of the tracked files are as the last run left them
            every = known if self.indexed is None else self.indexed
            self.kept = [p for p in every if p not in look and not p.startswith(walked)]
            carried = tuple((path, reason) for path, reason in quick.skipped if path not in look)
            self.skipped += [Skipped(path, reason) for path, reason in carried]
            # a path looked at because status reported it last time, clean now: it holds its blob
            clean_now = look.difference(listed.reported, listed.special)
            own = set(quick.ignores)
        else:
            own = {
                posixpath.dirname(p) for p in paths if p == ".maguyvaignore" or p.endswith("/.maguyvaignore")
            }
        specs = {d: _spec_from(root / d / ".maguyvaignore") for d in own}
        vouched_skips: list[tuple[str, str]] = []
        safe: dict[str, bool] = {"": True}  # directory → no component of it is a symlink
        for rel in paths:
            if _VCS_PART.search(rel) and in_vcs_dir(rel.split("/")):
                continue
            if specs and _ignored(_chain(specs, rel.split("/")), rel):
                continue
            blob = blobs.get(rel)
            previous = known.get(rel)
            if previous is not None and previous.hash == blob and previous.size <= self.max_bytes:
                self.kept.append(rel)  # the work tree still holds the blob we indexed: nothing to stat
                continue
            parent = rel.rpartition("/")[0]
            if not (safe.get(parent) or _safe_dir(top_dir, parent, safe)):  # listed, under what is now a link
                continue
            full = f"{top_dir}/{rel}"
            try:
                stat = os.lstat(full)
            except OSError:  # deleted from the work tree since git's index had it
                continue
            if S_ISDIR(stat.st_mode):  # a submodule's work tree: walked, as outside git
                nested.append(rel)
                continue
            outcome = self.add(rel, full, None if S_ISLNK(stat.st_mode) else stat)
            vouched = blob is not None if quick is None else rel in clean_now
            if vouched and isinstance(outcome, Skipped):  # skipped for what its blob holds
                vouched_skips.append((rel, outcome.reason))
        if listed.digest is not None:
            self.record = ListingRecord(
                listed.digest,
                listed.reported,
                listed.special,
                listed.submodules,
                tuple(sorted(own)),
                (carried if quick else ()) + tuple(vouched_skips),
            )
        for top in sorted(set(nested)):
            if in_vcs_dir(top.split("/")) or not _safe_dir(top_dir, top, safe):
                continue
            parts = top.split("/")
            chain = [("", _spec_from(root / ".git" / "info" / "exclude"))]
            for depth in range(len(parts)):
                base = "/".join(parts[:depth])
                chain += [
                    (base, spec)
                    for name in IGNORE_FILES
                    if (spec := _spec_from(root / base / name)) is not None
                ]
            self.walk(top, chain)


def _chain(specs: dict, parts: list[str]) -> list:
    """The ``.maguyvaignore`` specs of a path's ancestor directories, outermost first."""
    chain = []
    for depth in range(len(parts)):
        base = "/".join(parts[:depth])
        if base in specs:
            chain.append((base, specs[base]))
    return chain


def utf8_name(text: str) -> bool:
    """Whether ``text`` encodes as UTF-8: a file name that does not (``caf\\xe9.py`` from an old
    Latin-1 tree, or a hostile clone's) cannot be stored, searched or cited as text."""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _safe_dir(root: str, rel: str, safe: dict[str, bool]) -> bool:
    """Whether every component of the directory ``rel`` is a real directory (no symlink), memoised;
    checked from the top down without recursion (a clone may nest folders thousands deep)."""
    missing = []
    while rel not in safe:
        missing.append(rel)
        rel = rel.rpartition("/")[0]
    ok = safe[rel]
    for folder in reversed(missing):
        if ok:
            try:
                mode = os.lstat(f"{root}/{folder}").st_mode
                ok = S_ISDIR(mode) and not S_ISLNK(mode)
            except OSError:  # ENAMETOOLONG past PATH_MAX too
                ok = False
        safe[folder] = ok
    return ok


def _walk(top: Path) -> Iterator[tuple[str, list[str], list[str]]]:
    """``os.walk(top, followlinks=False)`` without recursion (3.11's recurses once per folder level)."""
    stack = [os.fspath(top)]
    while stack:
        current = stack.pop()
        try:
            with os.scandir(current) as entries:
                listed = [(e.name, e.is_dir()) for e in entries]
        except OSError:
            continue
        dirs = [name for name, is_dir in listed if is_dir]
        yield current, dirs, [name for name, is_dir in listed if not is_dir]
        stack.extend(p for name in reversed(dirs) if not os.path.islink(p := os.path.join(current, name)))


def _scan_file(
    scanner: _Scanner,
    full: Path | str,
    rel: str,
    previous: FileState | None,
    stat: os.stat_result | None = None,
) -> ScannedFile | Skipped:
    root = scanner.root
    if stat is None:
        full = Path(full)  # from the walk, or a link from git's list: check where it leads
        if full.is_symlink():
            target = resolve_links(full)
            if target is None:
                return Skipped(rel, "symlink loop")
            if not target.is_relative_to(root):
                return Skipped(rel, "symlink outside repository")
            if in_vcs_dir(target.relative_to(root).parts):
                return Skipped(rel, "symlink into .git")
            if not target.is_file():
                return Skipped(rel, "symlink to a non-file")
        try:
            stat = full.stat()
        except OSError as exc:
            return Skipped(rel, f"unreadable: {exc.strerror}")
    if not S_ISREG(stat.st_mode):  # a FIFO or a device would block or never end
        return Skipped(rel, "not a regular file")
    if stat.st_size > scanner.max_bytes:
        return Skipped(rel, f"too large ({stat.st_size} bytes > {scanner.max_bytes})")
    stamp = stat_stamp(stat)
    data = None
    if trusted(previous, stat):
        head, digest = None, previous.hash
        if previous.labelled:  # language and flags known: nothing to read
            record = FileRecord(
                path=rel,
                language=previous.language,
                size=stat.st_size,
                content_hash=digest,
                flags=previous.flags,
            )
            return ScannedFile(record, 0 if stamp >= scanner.racy_from else stamp)
    else:
        try:
            with open(full, "rb") as handle:  # the head first: a binary file is not read any further
                data = handle.read(_SNIFF)
                if b"\0" in data:
                    return Skipped(rel, "binary")
                data += handle.read()
        except OSError as exc:
            return Skipped(rel, f"unreadable: {exc.strerror}")
        head, digest = data[:_SNIFF], content_digest(data)
        if (previous is None or previous.hash != digest) and len(data) <= scanner.hold:
            scanner.hold -= len(data)
        else:  # unchanged content, or over the budget: extraction (if any) reads it again
            data = None
    if head is None:
        with open(full, "rb") as handle:
            head = handle.read(_SNIFF)
    record = FileRecord(
        path=rel,
        language=detect_language(rel, head[:256]),
        size=stat.st_size,
        content_hash=digest,
        flags=path_flags(rel, head),
    )
    return ScannedFile(record, 0 if stamp >= scanner.racy_from else stamp, data)


def path_flags(path: str, head: bytes = b"") -> tuple[str, ...]:
    """vendor / build / generated / archive / test flags from the path (and a generated header)."""
    flags = [name for name, pattern in FLAG_RULES if pattern.search(path)]
    if "generated" not in flags and _GENERATED_HEADER.search(head[:1024]):
        flags.append("generated")
    return tuple(sorted(flags))


def _spec_from(path: Path) -> pathspec.GitIgnoreSpec | None:
    try:  # non-blocking and checked: an ignore file that is a FIFO would wait for a writer for ever
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        if not S_ISREG(os.fstat(fd).st_mode):
            return None
        os.set_blocking(fd, True)
        lines = handle.read(MAX_IGNORE_BYTES).decode("utf-8", errors="replace").splitlines()
    return pathspec.GitIgnoreSpec.from_lines(lines)


def _ignored(specs, rel: str) -> bool:
    ignored = False
    for base, spec in specs:
        if spec is None:
            continue
        if base:
            if not rel.startswith(base + "/"):
                continue
            local = rel[len(base) + 1 :]
        else:
            local = rel
        result = spec.check_file(local)
        if result.include is not None:
            ignored = result.include
    return ignored
