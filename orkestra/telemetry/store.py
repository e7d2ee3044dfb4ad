"""The local telemetry store: one JSONL file per UTC day under the project, append-only.

``<project>/.orkestra/telemetry/events-YYYY-MM-DD.jsonl``. Each event is one line written
with a single ``os.write`` on an ``O_APPEND`` descriptor, so hooks running at the same time
never interleave. The directory carries its own ``.gitignore``. Stdlib-only and free of
pathlib/dataclasses: this module is on the hook hot path, so paths are plain strings.
"""

from __future__ import annotations

import json
import os
from collections import namedtuple
from collections.abc import Iterable, Iterator
from datetime import datetime

from orkestra.fs.roots import nearest_root
from orkestra.telemetry.events import Event

DEFAULT_STORE_DIR = ".orkestra/telemetry"
ROOT_MARKERS = ("orkestra.yaml", ".git")
FILE_PREFIX, FILE_SUFFIX = "events-", ".jsonl"
MAX_LINE = 64 * 1024  # bytes; larger events lose their field blobs (sizes are kept)
# The Loki outbox lives here, not in the loki module, so the hook appends to it without importing
# the exporter (the detached flusher does that).
OUTBOX_DIR, OUTBOX = "loki", "outbox.jsonl"


def find_project_root(start: str | os.PathLike[str]) -> str:
    """The nearest directory at or above ``start`` holding orkestra.yaml or .git; else ``start``."""
    return nearest_root(start, ROOT_MARKERS) or os.path.realpath(start)


def resolve_store_dir(root: str | os.PathLike[str], store_dir: str) -> str:
    """``store_dir`` as given on a command line, relative to the project root unless absolute."""
    return os.path.join(root, os.path.expanduser(store_dir))


class UnsafeStoreDir(ValueError):
    """A store folder that would leave the project: ``..``, ``.git``, or a symlink on the way."""


def store_dir_problem(store_dir: str) -> str | None:
    """Why ``store_dir`` (``telemetry.store_dir`` of a repository's own orkestra.yaml) is not a plain
    folder inside the project, or None."""
    if not isinstance(store_dir, str) or not store_dir.strip() or "\0" in store_dir:
        return "expected a folder path inside the project"
    if store_dir.startswith("~") or os.path.isabs(store_dir):
        return f"{store_dir!r} is outside the project; pass --store-dir to orkestra-hook to choose any folder"
    parts = [part for part in store_dir.replace("\\", "/").split("/") if part not in ("", ".")]
    if ".." in parts:
        return f"{store_dir!r} climbs out of the project with '..'"
    if not parts:
        return "expected a folder below the project root, not the root itself"
    if any(part.lower() == ".git" for part in parts):
        return f"{store_dir!r} is inside .git"
    return None


def store_directory(root: str, store_dir: str, create: bool = True) -> str:
    """The store folder for ``store_dir``: an absolute one (the user's own ``--store-dir``) as it is; a
    relative one below ``root``, folder by folder with ``O_NOFOLLOW`` (created when missing and
    ``create``; git-ignored when created), so no symlink leads the events out of the project.

    Raises :class:`UnsafeStoreDir` for ``..``, a ``.git`` part, a symlink or a file on the way."""
    expanded = os.path.expanduser(store_dir)
    if os.path.isabs(expanded):
        return expanded
    problem = store_dir_problem(store_dir)
    if problem:
        raise UnsafeStoreDir(f"store folder {problem}")
    parts = [part for part in store_dir.split("/") if part not in ("", ".")]
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    created = False
    try:
        for depth, part in enumerate(parts):
            try:
                inner = os.open(part, _FOLDER, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    break
                try:
                    os.mkdir(part, 0o755, dir_fd=fd)
                    created = depth == len(parts) - 1
                except FileExistsError:
                    pass
                inner = _folder(fd, part, parts[: depth + 1])
            except OSError:
                inner = _folder(fd, part, parts[: depth + 1])
            os.close(fd)
            fd = inner
        else:
            if created:
                ignore = os.open(
                    ".gitignore", os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644, dir_fd=fd
                )
                try:
                    os.write(ignore, GITIGNORE)
                finally:
                    os.close(ignore)
    finally:
        os.close(fd)
    return os.path.join(root, *parts)


_FOLDER = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW
GITIGNORE = b"# orkestra telemetry: local only\n*\n"


def _folder(fd: int, part: str, walked: list[str]) -> int:
    """``part`` opened as a folder below ``fd``, or UnsafeStoreDir naming what stands there instead."""
    try:
        return os.open(part, _FOLDER, dir_fd=fd)
    except OSError:
        rel = "/".join(walked)
        try:
            target = os.readlink(part, dir_fd=fd)
        except OSError:
            raise UnsafeStoreDir(f"store folder {rel!r} is not a folder") from None
        raise UnsafeStoreDir(
            f"store folder {rel!r} is a symlink (-> {target}); events are never written through one"
        ) from None


def encode_event(event: Event) -> bytes:
    """One JSONL line; an oversize event keeps its labels and ids but not its blobs.

    Never raises and never recurses without bound: fields too deep for ``json.dumps``, holding
    lone surrogates or NaN/Infinity (not JSON; ``redact`` already turns them into strings) are
    replaced by a note, so the event is stored all the same, as strict JSON.
    """
    try:
        line = json.dumps(
            event.to_dict(), ensure_ascii=False, separators=(",", ":"), default=str, allow_nan=False
        )
        data = (line + "\n").encode("utf-8")
    except (ValueError, TypeError, RecursionError, UnicodeEncodeError) as exc:
        fields = _scalars(event.fields)
        fields["unencodable"] = f"{type(exc).__name__}: {str(exc)[:200]}"
        data = _dumps(Event(event.ts, event.labels, fields))
    if len(data) <= MAX_LINE:
        return data
    small = _scalars(event.fields)
    small["truncated_bytes"] = len(data)
    return _dumps(Event(event.ts, event.labels, small))


def _scalars(fields: dict) -> dict:
    return {
        k: v
        for k, v in fields.items()
        if isinstance(v, (int, bool))
        or (isinstance(v, float) and v - v == 0.0)  # finite
        or (isinstance(v, str) and len(v) <= 200)
    }


def _dumps(event: Event) -> bytes:
    line = json.dumps(event.to_dict(), separators=(",", ":"), default=str, allow_nan=False)  # ASCII
    return (line + "\n").encode("ascii")


def append_event(directory: str | os.PathLike[str], event: Event) -> str:
    """Append ``event`` to its day file in ``directory`` (created, and git-ignored, on first use)."""
    if not os.path.isdir(directory):
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, ".gitignore"), "wb") as handle:
            handle.write(GITIGNORE)
    path = os.path.join(directory, f"{FILE_PREFIX}{event.ts[:10]}{FILE_SUFFIX}")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    try:
        os.write(fd, encode_event(event))
    finally:
        os.close(fd)
    return path


def outbox_record(event: Event, repository: str | None) -> bytes:
    """One outbox line: the stored event and the repository name it was recorded in."""
    return (
        b'{"repository":'
        + json.dumps(repository).encode()
        + b',"event":'
        + encode_event(event).rstrip(b"\n")
        + b"}\n"
    )


def flock(fd: int, mode: str) -> None:
    """``fcntl.flock`` with mode sh | ex | un; a no-op where there is no flock."""
    try:
        import fcntl
    except ImportError:  # no flock (Windows): appends and renames are not fenced there
        return
    fcntl.flock(fd, {"sh": fcntl.LOCK_SH, "ex": fcntl.LOCK_EX, "un": fcntl.LOCK_UN}[mode])


def enqueue(store_dir: str, event: Event, repository: str | None) -> str:
    """Append ``event`` to the Loki outbox with one O_APPEND write; returns the outbox path.

    ``orkestra.telemetry.loki`` pushes it from there.
    The write holds a shared lock on the outbox and checks it is still the file at the path, so
    a flusher renaming it away (under an exclusive lock) never takes a batch mid-append.
    """
    directory = os.path.join(store_dir, OUTBOX_DIR)
    try:
        os.makedirs(directory, 0o755)
    except FileExistsError:
        if os.path.islink(directory):  # committed in the store folder: the outbox stays in the project
            raise UnsafeStoreDir(
                f"{directory!r} is a symlink; events are never written through one"
            ) from None
    path = os.path.join(directory, OUTBOX)
    record = outbox_record(event, repository)
    for _ in range(100):
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o644)
        try:
            flock(fd, "sh")
            try:
                current = os.stat(path).st_ino
            except FileNotFoundError:
                current = None
            if current == os.fstat(fd).st_ino:
                os.write(fd, record)
                return path
        finally:
            os.close(fd)
    raise OSError(f"{path}: replaced 100 times while appending")


class Loaded(namedtuple("Loaded", "events warnings")):
    """Events read back from the store, plus a located warning per line that did not parse."""

    __slots__ = ()
    events: list[Event]
    warnings: list[str]


def day_files(directory: str | os.PathLike[str], since: datetime | None = None) -> list[str]:
    """The store's day files in date order, skipping days wholly before ``since``."""
    if not os.path.isdir(directory):
        return []
    first_day = since.strftime("%Y-%m-%d") if since else ""
    return sorted(
        os.path.join(directory, name)
        for name in os.listdir(directory)
        if name.startswith(FILE_PREFIX)
        and name.endswith(FILE_SUFFIX)
        and name[len(FILE_PREFIX) : -len(FILE_SUFFIX)] >= first_day
    )


def _lines(paths: Iterable[str]) -> Iterator[tuple[str, int, str]]:
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for number, line in enumerate(handle, 1):
                if line.strip():
                    yield path, number, line


def load_events(
    directory: str | os.PathLike[str], since: datetime | None = None, session: str | None = None
) -> Loaded:
    """Every stored event at or after ``since`` (an aware UTC datetime), optionally of one session."""
    floor = since.strftime("%Y-%m-%dT%H:%M:%S") if since else ""
    events, warnings = [], []
    for path, number, line in _lines(day_files(directory, since)):
        try:
            event = Event.from_dict(json.loads(line))
        except (ValueError, KeyError, TypeError) as exc:
            warnings.append(f"{path}:{number}:1: unreadable event line ({exc})")
            continue
        if event.ts < floor or (session and event.fields.get("session_id") != session):
            continue
        events.append(event)
    events.sort(key=lambda e: e.ts)
    return Loaded(events, warnings)
