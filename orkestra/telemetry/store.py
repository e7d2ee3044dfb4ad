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
    here = directory = os.path.realpath(start)
    while True:
        if any(os.path.exists(os.path.join(directory, marker)) for marker in ROOT_MARKERS):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return here
        directory = parent


def resolve_store_dir(root: str | os.PathLike[str], store_dir: str) -> str:
    """``store_dir`` from the settings, relative to the project root unless absolute."""
    return os.path.join(root, os.path.expanduser(store_dir))


def encode_event(event: Event) -> bytes:
    """One JSONL line; an oversize event keeps its labels and ids but not its blobs.

    Never raises and never recurses without bound: fields too deep for ``json.dumps`` or
    holding lone surrogates are replaced by a note, so the event is stored all the same.
    """
    try:
        line = json.dumps(event.to_dict(), ensure_ascii=False, separators=(",", ":"), default=str)
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
        if isinstance(v, (int, float, bool)) or (isinstance(v, str) and len(v) <= 200)
    }


def _dumps(event: Event) -> bytes:
    line = json.dumps(event.to_dict(), separators=(",", ":"), default=str)  # ASCII: surrogates escaped
    return (line + "\n").encode("ascii")


def append_event(directory: str | os.PathLike[str], event: Event) -> str:
    """Append ``event`` to its day file in ``directory`` (created, and git-ignored, on first use)."""
    if not os.path.isdir(directory):
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, ".gitignore"), "w", encoding="utf-8") as handle:
            handle.write("# orkestra telemetry: local only\n*\n")
    path = os.path.join(directory, f"{FILE_PREFIX}{event.ts[:10]}{FILE_SUFFIX}")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
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
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, OUTBOX)
    record = outbox_record(event, repository)
    for _ in range(100):
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
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
