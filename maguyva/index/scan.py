"""Walk a repository: honour ignore files, skip binaries and large files, flag paths, detect languages.

Ignore sources, in order (a later match wins, as in git): ``.git/info/exclude``, then every
``.gitignore`` and ``.maguyvaignore`` from the root down to the file's directory. ``.git`` (and
``.hg``, ``.svn``) entries are skipped at every depth, directories and files alike (a nested clone
or a submodule's git file). Symbolic links are never followed into directories; a file link counts
only when its target is a file inside the root and outside every ``.git``. This is the only module
that walks the disk.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISREG
from typing import Mapping

import pathspec

from maguyva.files import in_vcs_dir
from maguyva.index.languages import detect_language
from maguyva.models import FileRecord

DEFAULT_MAX_BYTES = 1_000_000
# A stat stamp this close to the scan is "racy" (git's rule): an edit in the same timestamp tick
# after we read the file would leave size and stamp unchanged, so the stamp is stored as 0
# ("smudged") and the next scan hashes the file again. 2 s covers the coarsest clocks (FAT).
RACY_WINDOW_NS = 2_000_000_000
IGNORE_FILES = (".gitignore", ".maguyvaignore")
_SNIFF = 8192

FLAG_RULES: tuple[tuple[str, re.Pattern], ...] = (
    ("vendor", re.compile(r"(^|/)(node_modules|vendor|third_party|third-party|site-packages|bower_components)/")),
    ("build", re.compile(r"(^|/)(build|dist|target|out|__pycache__|\.venv|venv|\.tox|\.next|coverage)/")),
    ("generated", re.compile(r"(\.min\.(js|css)$|_pb2(_grpc)?\.pyi?$|\.pb\.go$|\.generated\.|(^|/)generated/)")),
    ("archive", re.compile(r"(^|/)(archive|archived|old|deprecated|legacy|attic)/")),
    ("test", re.compile(r"((^|/)(tests?|__tests__|spec|testdata|fixtures)/|(^|/)test_[^/]*$|_test\.[a-z]+$"
                        r"|\.(test|spec)\.[a-z]+$)")),
)
_GENERATED_HEADER = re.compile(rb"(?i)(code generated .* do not edit|@generated|auto-generated)")


@dataclass(frozen=True, slots=True)
class ScannedFile:
    """A file to index, with the stat stamp that lets the next scan skip re-hashing it (0: never skip)."""

    record: FileRecord
    mtime_ns: int


def stat_stamp(stat: os.stat_result) -> int:
    """What the next scan compares (with the size) to trust a stored hash: max(mtime, ctime) in ns.

    ctime cannot be set from user space, so an edit whose mtime was put back (``os.utime``,
    ``cp -p``, a checkout tool) still changes the stamp, as git's ``core.trustctime`` relies on.
    """
    return max(stat.st_mtime_ns, stat.st_ctime_ns)


def trusted(previous: tuple[int, int, str] | None, stat: os.stat_result) -> bool:
    """Whether a stored (size, stamp, hash) still describes the file, without reading it."""
    return (previous is not None and previous[1] != 0 and previous[0] == stat.st_size
            and previous[1] == stat_stamp(stat))


def content_changed(full: Path, previous: tuple[int, int, str]) -> bool:
    """Whether the file at ``full`` differs from its stored (size, stamp, hash): stat first, the hash
    when the stat data is ambiguous. A missing or unreadable file counts as changed."""
    try:
        stat = full.stat()
        if trusted(previous, stat):
            return False
        return stat.st_size != previous[0] or hashlib.sha1(full.read_bytes()).hexdigest() != previous[2]
    except OSError:
        return True


@dataclass(frozen=True, slots=True)
class Skipped:
    path: str
    reason: str  # "ignored" is not reported; "binary", "too large (N bytes)", "symlink outside repository", …


@dataclass(frozen=True, slots=True)
class ScanResult:
    files: tuple[ScannedFile, ...]
    skipped: tuple[Skipped, ...] = field(default=())


def scan_repository(root: Path, max_bytes: int = DEFAULT_MAX_BYTES,
                    known: Mapping[str, tuple[int, int, str]] | None = None) -> ScanResult:
    """Every indexable file under ``root``. ``known`` maps path → (size, mtime_ns, hash) from the
    previous scan; a file whose size and stat stamp are unchanged keeps its hash without being read
    (unless the stamp was racy, see ``RACY_WINDOW_NS``)."""
    root = root.resolve()
    racy_from = time.time_ns() - RACY_WINDOW_NS
    known = known or {}
    files: list[ScannedFile] = []
    skipped: list[Skipped] = []
    base_specs = [("", _spec_from(root / ".git" / "info" / "exclude"))]
    specs_by_dir: dict[str, list[tuple[str, pathspec.GitIgnoreSpec]]] = {"": base_specs}
    for directory, dirnames, filenames in os.walk(root, followlinks=False):
        rel_dir = Path(directory).relative_to(root).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir
        specs = specs_by_dir.pop(rel_dir)
        specs = specs + [(rel_dir, spec) for name in IGNORE_FILES
                         if (spec := _spec_from(Path(directory) / name)) is not None]
        kept_dirs = []
        for name in sorted(dirnames):
            rel = f"{rel_dir}/{name}" if rel_dir else name
            if in_vcs_dir((name,)) or _ignored(specs, rel + "/"):
                continue
            if os.path.islink(os.path.join(directory, name)):
                skipped.append(Skipped(rel, "symlinked directory (not followed)"))
                continue
            kept_dirs.append(name)
            specs_by_dir[rel] = specs
        dirnames[:] = kept_dirs
        for name in sorted(filenames):
            rel = f"{rel_dir}/{name}" if rel_dir else name
            if in_vcs_dir((name,)) or _ignored(specs, rel):
                continue
            outcome = _scan_file(root, Path(directory) / name, rel, max_bytes, known.get(rel), racy_from)
            (files if isinstance(outcome, ScannedFile) else skipped).append(outcome)
    return ScanResult(tuple(files), tuple(skipped))


def _scan_file(root: Path, full: Path, rel: str, max_bytes: int, previous, racy_from: int) -> ScannedFile | Skipped:
    if full.is_symlink():
        target = full.resolve()
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
    if stat.st_size > max_bytes:
        return Skipped(rel, f"too large ({stat.st_size} bytes > {max_bytes})")
    stamp = stat_stamp(stat)
    if trusted(previous, stat):
        head, digest = None, previous[2]
    else:
        data = full.read_bytes()
        if b"\0" in data[:_SNIFF]:
            return Skipped(rel, "binary")
        head, digest = data[:_SNIFF], hashlib.sha1(data).hexdigest()
    if head is None:
        with full.open("rb") as handle:
            head = handle.read(_SNIFF)
    record = FileRecord(path=rel, language=detect_language(rel, head[:256]), size=stat.st_size,
                        content_hash=digest, flags=path_flags(rel, head))
    return ScannedFile(record, 0 if stamp >= racy_from else stamp)


def path_flags(path: str, head: bytes = b"") -> tuple[str, ...]:
    """vendor / build / generated / archive / test flags from the path (and a generated header)."""
    flags = [name for name, pattern in FLAG_RULES if pattern.search(path)]
    if "generated" not in flags and _GENERATED_HEADER.search(head[:1024]):
        flags.append("generated")
    return tuple(sorted(flags))


def _spec_from(path: Path) -> pathspec.GitIgnoreSpec | None:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return None
    return pathspec.GitIgnoreSpec.from_lines(lines)


def _ignored(specs, rel: str) -> bool:
    ignored = False
    for base, spec in specs:
        if spec is None:
            continue
        if base:
            if not rel.startswith(base + "/"):
                continue
            local = rel[len(base) + 1:]
        else:
            local = rel
        result = spec.check_file(local)
        if result.include is not None:
            ignored = result.include
    return ignored
