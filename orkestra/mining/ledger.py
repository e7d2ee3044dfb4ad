"""Append-only JSONL ledgers of classified commits, safe for concurrent writers.

Two files under ``mining.ledger_dir`` (default ``ai_assets/reference/changelog/``):

* ``commits_processed.jsonl`` — one line per classification, both domains:
  ``{"sha", "domain": "changelog"|"decisions", "action": "release"|"skip"|"extract", …}``.
  This is what coverage (``mine status``) and ``mine candidates`` read.
* ``release_notes.jsonl`` — one line per changelog *release*: the entry as it will appear
  in CHANGELOG.md (``sha, date, category, summary, scope, breaking, packages``).

Last wins: a later line for the same (sha, domain) replaces the earlier one, but only when it
says ``"correction": true``; any other repeat is a validation error. Writers take one file lock,
write each file's new lines with a single ``write`` and fdatasync, so lines never interleave.
``merge=union`` in ``.gitattributes`` lets branches that each appended lines merge cleanly.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from orkestra.fs.guard import UnsafePath
from orkestra.mining import guarded
from orkestra.mining.config import MiningPaths
from orkestra.mining.ledger_names import LOCK_FILE, PROCESSED_FILE, RELEASE_NOTES_FILE


def ledger_files(paths: MiningPaths) -> tuple[Path, Path]:
    """Both ledgers' paths, once they are known to be inside the repository with no symlink on the way
    (``mining.guarded``): every reader and writer asks here."""
    return tuple(
        guarded.check(paths.root, paths.ledger_dir / name) for name in (PROCESSED_FILE, RELEASE_NOTES_FILE)
    )


def ledger_lock(paths: MiningPaths):
    """The file lock every ledger writer holds (kept in the git-ignored state dir)."""
    from filelock import FileLock

    guarded.folder(paths.root, paths.index_dir)
    return FileLock(str(guarded.check(paths.root, paths.index_dir / LOCK_FILE)))


def append_lines(root: Path, path: Path, records: list[dict]) -> None:
    """Append ``records`` as JSON lines to ``path`` (inside ``root``, never through a symlink) with one
    write, then fdatasync. Call under ``ledger_lock``."""
    if not records:
        return
    guarded.file_in_folder(root, path)
    data = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n" for r in records).encode()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    except OSError as error:  # ELOOP: a link put there since the check
        raise UnsafePath(f"refusing to append to {str(path)!r}: {error.strerror}") from None
    try:
        _repair_missing_newline(fd, path)
        written = os.write(fd, data)
        while written < len(data):  # a regular file takes it all at once; be exact anyway
            written += os.write(fd, data[written:])
        os.fdatasync(fd)
    finally:
        os.close(fd)


def _repair_missing_newline(fd: int, path: Path) -> None:
    """A hand-edited file may end without a newline; never glue a new line onto it."""
    size = path.stat().st_size
    if size:
        with path.open("rb") as handle:
            handle.seek(size - 1)
            if handle.read(1) != b"\n":
                os.write(fd, b"\n")


def read_lines(path: Path) -> Iterator[tuple[int, dict | None, str]]:
    """(line number, validated record or None when the line is not one, raw text) for each non-empty line
    (``records.read_ledger`` decodes and validates; ``mine validate`` reports the bad lines)."""
    from orkestra.mining.records import read_ledger, read_text, split_lines  # pydantic: only once read

    try:
        content = read_text(path)
    except OSError:  # a FIFO or an over-large file: nothing to yield (``mine validate`` reports it)
        return
    read = read_ledger(path, text=content)
    valid = dict(zip(read.lines, read.records, strict=True))
    for number, text in enumerate(split_lines(content), start=1):
        if text.strip():
            yield number, valid.get(number), text


def read_records(path: Path) -> list[dict]:
    """Every valid record of a ledger, in order: each line validated into its typed record
    (``records.read_ledger``); a bad line is skipped here and reported by ``mine validate``."""
    from orkestra.mining.records import read_ledger

    return list(read_ledger(path).records)


def latest(records: Iterable[dict], key=lambda r: (r.get("sha"), r.get("domain"))) -> dict:
    """Last-wins view of ledger records by (sha, domain)."""
    result: dict = {}
    for record in records:
        result[key(record)] = record
    return result


def ensure_gitattributes(root: Path, ledger_dir: str = "ai_assets/reference/changelog") -> bool:
    """Make sure ``.gitattributes`` marks both ledgers ``merge=union``; idempotent. True if changed."""
    from orkestra.fs.guard import SafeTree

    with SafeTree(root) as tree:  # a symlink is refused, never read or written through
        tree.check(".gitattributes")
        text = (tree.read(".gitattributes") or b"").decode("utf-8", "replace")
        present = {tuple(line.split()) for line in text.splitlines()}
        missing = [
            f"{ledger_dir.rstrip('/')}/{name} merge=union"
            for name in (PROCESSED_FILE, RELEASE_NOTES_FILE)
            if tuple(f"{ledger_dir.rstrip('/')}/{name} merge=union".split()) not in present
        ]
        if not missing:
            return False
        prefix = "" if not text or text.endswith("\n") else "\n"
        tree.write(".gitattributes", (text + prefix + "\n".join(missing) + "\n").encode())
    return True


def skipped_lines(paths: MiningPaths, limit: int = 20) -> list[str]:
    """Warnings for the ledger lines every reader skips (at most ``limit``, then a count), each
    ``file:line:col: field: why``; ``mine validate`` lists them all."""
    from orkestra.mining.records import ledger_rel, read_ledger

    found = [
        f"{problem}; line skipped"
        for path in ledger_files(paths)
        for problem in read_ledger(path, ledger_rel(paths.root, path)).problems
    ]
    if len(found) > limit:
        found = [
            *found[:limit],
            f"{len(found) - limit} more ledger line problem(s): run `orkestra mine validate`",
        ]
    return found
