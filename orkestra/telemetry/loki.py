"""Push hook events to Loki (``/loki/api/v1/push``) in the seeds' label schema; stdlib-only.

Schema: the indexed stream labels are only ``service_name`` (``claude-code-hooks`` by
default, shared by every runtime as in the seeds), ``agent_tool``, ``event``, ``tool_type``
and ``mcp_server``. Per-event ids (``session_id``, ``prompt_id``, ``tool_use_id``,
``agent_id``) and ``repository`` travel as structured metadata; everything else (tool name,
``bash_cli``, skill, subagent type, outcome, the redacted fields) is the JSON log line, so
``{service_name="claude-code-hooks"} | json | bash_cli="git"`` works as in the seeds.

Delivery never blocks the hook and loses nothing: the hook appends the event to an outbox
file next to the store (one ``O_APPEND`` write) and a detached flusher pushes it. A flusher
takes a non-blocking lock, moves the outbox aside as a batch file (atomic rename), pushes
batches of at most ``BATCH_EVENTS`` events and ``BATCH_BYTES`` bytes, retrying with exponential backoff, and deletes a
batch file only after Loki accepted it. A batch that cannot be sent stays on disk and goes
out with the next run (the next hook event, or ``orkestra telemetry flush``); one Loki
rejects as malformed (HTTP 400) is moved to ``rejected/`` and never retried. Resending after
a crash is harmless: Loki drops an entry identical to one it has (same stream, time, line).
"""

from __future__ import annotations

import json
import os
import time
from collections import namedtuple
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime

from orkestra.telemetry.events import Event
from orkestra.telemetry.store import OUTBOX, OUTBOX_DIR, UnsafeStoreDir, enqueue, flock, outbox_record

# Stdlib-only and light at import (the hook imports it): urllib is imported by the flusher only.

SERVICE_NAME = "claude-code-hooks"
CREDENTIAL_ENV = "ORKESTRA_LOKI_AUTH"  # "user:token" → basic auth, a bare token → bearer
STREAM_LABELS = ("agent_tool", "event", "tool_type", "mcp_server")
METADATA_FIELDS = ("session_id", "prompt_id", "tool_use_id", "agent_id")
PUSH_PATH = "/loki/api/v1/push"
BATCH_PREFIX = "batch-"
BATCH_EVENTS = 500
BATCH_BYTES = 1024 * 1024  # log-line bytes per push (Loki's default burst limit is a few MB)
TIMEOUT_SECONDS = 5.0
BACKOFF_SECONDS = (0.5, 1.0, 2.0, 4.0)  # waits between the tries of one batch
BACKOFF_ENV = "ORKESTRA_LOKI_BACKOFF"  # e.g. "0.1,0.2": other waits (an empty value: one try)
MAX_FLUSH_ROUNDS = 8  # outbox refills picked up by one flusher before it exits


class LokiTarget(namedtuple("LokiTarget", "endpoint credential_env tenant service_name")):
    """Where to push: the base URL, the environment variable holding the credential, the tenant."""

    __slots__ = ()
    endpoint: str
    credential_env: str
    tenant: str | None
    service_name: str


def target(
    endpoint: str,
    credential_env: str | None = None,
    tenant: str | None = None,
    service_name: str | None = None,
) -> LokiTarget:
    return LokiTarget(
        endpoint, credential_env or CREDENTIAL_ENV, tenant or None, service_name or SERVICE_NAME
    )


def push_url(endpoint: str) -> str:
    """``http://host:3100`` → ``http://host:3100/loki/api/v1/push``; a full push URL is kept."""
    endpoint = endpoint.rstrip("/")
    return endpoint if endpoint.endswith(PUSH_PATH) else endpoint + PUSH_PATH


def nanos(ts: str) -> str:
    moment = datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    return str(int(moment.timestamp()) * 1_000_000_000 + moment.microsecond * 1000)


def stream_labels(event: Event, service_name: str = SERVICE_NAME) -> dict[str, str]:
    """The indexed labels of ``event``: service_name plus the low-cardinality four, when set."""
    labels = {"service_name": service_name}
    labels.update((key, event.labels[key]) for key in STREAM_LABELS if event.labels.get(key))
    return labels


def entry(event: Event, repository: str | None = None) -> tuple[str, str, dict[str, str]]:
    """``[timestamp_ns, line, structured_metadata]`` for one event (see the module docstring)."""
    metadata = {key: str(event.fields[key])[:200] for key in METADATA_FIELDS if event.fields.get(key)}
    if repository:
        metadata["repository"] = repository
    body = {k: v for k, v in event.labels.items() if k not in STREAM_LABELS}
    body.update((k, v) for k, v in event.fields.items() if k not in METADATA_FIELDS)
    line = json.dumps(body, ensure_ascii=False, separators=(",", ":"), default=str)
    return nanos(event.ts), line, metadata


def push_body(records: Iterable[tuple[Event, str | None]], service_name: str = SERVICE_NAME) -> bytes:
    """The JSON push request for ``(event, repository)`` records, grouped into streams."""
    streams: dict[tuple[tuple[str, str], ...], list] = {}
    for event, repository in records:
        key = tuple(sorted(stream_labels(event, service_name).items()))
        streams.setdefault(key, []).append(list(entry(event, repository)))
    payload = {"streams": [{"stream": dict(key), "values": values} for key, values in streams.items()]}
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def headers(loki: LokiTarget, env: Mapping[str, str]) -> dict[str, str]:
    """Content type, the credential from ``env`` (never from a file) and the tenant header."""
    import base64

    result = {"Content-Type": "application/json", "User-Agent": "orkestra-hook"}
    credential = env.get(loki.credential_env, "")
    if credential:
        if ":" in credential:
            result["Authorization"] = "Basic " + base64.b64encode(credential.encode()).decode()
        else:
            result["Authorization"] = "Bearer " + credential
    if loki.tenant:
        result["X-Scope-OrgID"] = loki.tenant
    return result


class PushError(Exception):
    """A push that failed; ``retry`` says whether trying again later may succeed."""

    def __init__(self, message: str, retry: bool):
        super().__init__(message)
        self.retry = retry


def push(body: bytes, loki: LokiTarget, env: Mapping[str, str], timeout: float = TIMEOUT_SECONDS) -> None:
    """POST one push body; raises ``PushError`` (retryable for network errors, 429 and 5xx)."""
    import urllib.error  # here, not at the top: the hook's parent process never pushes
    import urllib.request

    request = urllib.request.Request(
        push_url(loki.endpoint), data=body, headers=headers(loki, env), method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            response.read()
    except urllib.error.HTTPError as exc:
        detail = exc.read()[:300].decode("utf-8", "replace").strip()
        raise PushError(
            f"Loki answered {exc.code}: {detail}", retry=exc.code == 429 or exc.code >= 500
        ) from None
    except (OSError, ValueError) as exc:  # URLError, refused, reset, timeout
        raise PushError(f"Loki unreachable at {loki.endpoint}: {exc}", retry=True) from None


# -- the outbox ---------------------------------------------------------------------------


def outbox_dir(store_dir: str) -> str:
    return os.path.join(store_dir, OUTBOX_DIR)


__all__ = ["enqueue", "flush", "pending_events", "push_body", "target"]


def pending_batches(store_dir: str) -> list[str]:
    directory = outbox_dir(store_dir)
    if not os.path.isdir(directory):
        return []
    return sorted(
        os.path.join(directory, n)
        for n in os.listdir(directory)
        if n.startswith(BATCH_PREFIX) and n.endswith(".jsonl")
    )


def pending_events(store_dir: str) -> int:
    """Events waiting to be pushed (outbox plus batch files)."""
    paths = [*pending_batches(store_dir), os.path.join(outbox_dir(store_dir), OUTBOX)]
    total = 0
    for path in paths:
        try:
            with open(path, "rb") as handle:
                total += sum(1 for line in handle if line.strip())
        except FileNotFoundError:  # none yet, or another flusher sent and removed it since the listing
            continue
    return total


def _read_records(path: str) -> tuple[list[tuple[Event, str | None]], int]:
    records, bad = [], 0
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                records.append((Event.from_dict(data["event"]), data.get("repository")))
            except (ValueError, KeyError, TypeError):
                bad += 1  # a torn line from a killed writer: nothing to send
    return records, bad


class FlushResult(namedtuple("FlushResult", "sent pending rejected warnings")):
    """Events Loki accepted, events left for the next run, events it refused, and why."""

    __slots__ = ()
    sent: int
    pending: int
    rejected: int
    warnings: list[str]


def _lock(directory: str) -> int | None:
    """A non-blocking exclusive lock for the one flusher, or None when another flusher holds it."""
    path = os.path.join(directory, "lock")
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o644)
    except OSError as exc:
        if os.path.islink(path):  # committed in the outbox folder: nothing is created where it points
            raise UnsafeStoreDir(
                f"{path!r} is a symlink; the flusher's lock is never opened through one"
            ) from exc
        raise
    try:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return fd
    except ImportError:  # no flock (Windows): a single flusher is the caller's business
        return fd
    except OSError:
        os.close(fd)
        return None


def _take_outbox(directory: str) -> None:
    """Move the outbox aside as a new batch file, so hooks keep appending to a fresh one."""
    path = os.path.join(directory, OUTBOX)
    if not (os.path.exists(path) and os.path.getsize(path)):
        return
    fd = os.open(path, os.O_RDONLY)
    try:
        flock(fd, "ex")  # waits only for appends in progress (microseconds)
        stamp = f"{time.time_ns():020d}-{os.getpid()}"
        os.replace(path, os.path.join(directory, f"{BATCH_PREFIX}{stamp}.jsonl"))
    finally:
        os.close(fd)


def chunks(
    records: list[tuple[Event, str | None]], events: int = BATCH_EVENTS, size: int = BATCH_BYTES
) -> list[tuple[int, int]]:
    """``(start, end)`` slices of ``records``: at most ``events`` each and ``size`` line bytes (≥ 1 record)."""
    out, start, used = [], 0, 0
    for index, (event, repository) in enumerate(records):
        cost = len(entry(event, repository)[1].encode("utf-8")) + 64
        if index > start and (index - start >= events or used + cost > size):
            out.append((start, index))
            start, used = index, 0
        used += cost
    if start < len(records):
        out.append((start, len(records)))
    return out


def _send_file(
    path: str,
    loki: LokiTarget,
    env: Mapping[str, str],
    backoff: tuple[float, ...],
    sleep: Callable[[float], None],
    timeout: float,
) -> tuple[int, int, str | None]:
    """Push one batch file in chunks; (sent, rejected, warning). The file goes once all is out."""
    records, _ = _read_records(path)
    sent = rejected = 0
    for start, end in chunks(records):
        chunk = records[start:end]
        body = push_body(chunk, loki.service_name)
        for attempt in range(len(backoff) + 1):
            try:
                push(body, loki, env, timeout)
                sent += len(chunk)
                break
            except PushError as exc:
                if not exc.retry:
                    _reject(path, chunk, str(exc))
                    rejected += len(chunk)
                    break
                if attempt == len(backoff):
                    _keep(path, records[start:])
                    return sent, rejected, f"{exc}; {len(records) - start} event(s) kept for the next run"
                sleep(backoff[attempt])
    os.remove(path)
    return sent, rejected, None


def _keep(path: str, records: list[tuple[Event, str | None]]) -> None:
    """Rewrite the batch file with only the unsent records (atomic replace)."""
    from orkestra.fs.atomic import write_atomic

    write_atomic(path, b"".join(outbox_record(event, repository) for event, repository in records))


def _reject(path: str, records: list[tuple[Event, str | None]], reason: str) -> None:
    directory = os.path.join(os.path.dirname(path), "rejected")
    try:
        os.mkdir(directory, 0o755)
    except FileExistsError:
        if os.path.islink(directory):  # never written through a link (orkestra.telemetry.store)
            raise OSError(f"{directory}: a symlink; rejected events are never written through one") from None
    name = os.path.basename(path)
    _keep(os.path.join(directory, name), records)
    fd = os.open(
        os.path.join(directory, name + ".reason"),
        os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW,
        0o644,
    )
    try:
        os.write(fd, (reason + "\n").encode("utf-8"))
    finally:
        os.close(fd)


def backoff_from(env: Mapping[str, str]) -> tuple[float, ...]:
    """The waits between tries: ``$ORKESTRA_LOKI_BACKOFF`` (comma-separated seconds) or the default."""
    text = env.get(BACKOFF_ENV)
    if text is None:
        return BACKOFF_SECONDS
    try:
        return tuple(min(max(float(word), 0.0), 60.0) for word in text.split(",") if word.strip())
    except ValueError:
        return BACKOFF_SECONDS


def flush(
    store_dir: str,
    loki: LokiTarget,
    env: Mapping[str, str] | None = None,
    *,
    backoff: tuple[float, ...] | None = None,
    timeout: float = TIMEOUT_SECONDS,
    sleep: Callable[[float], None] = time.sleep,
) -> FlushResult:
    """Push everything pending under ``store_dir``; returns at once if another flusher is running."""
    env = os.environ if env is None else env
    backoff = backoff_from(env) if backoff is None else backoff
    directory = outbox_dir(store_dir)
    if not os.path.isdir(directory):
        return FlushResult(0, 0, 0, [])
    sent = rejected = 0
    warnings: list[str] = []
    for _ in range(MAX_FLUSH_ROUNDS):
        fd = _lock(directory)
        if fd is None:
            return FlushResult(sent, pending_events(store_dir), rejected, warnings)
        try:
            _take_outbox(directory)
            for path in pending_batches(store_dir):
                ok, refused, warning = _send_file(path, loki, env, backoff, sleep, timeout)
                sent, rejected = sent + ok, rejected + refused
                if warning:
                    warnings.append(warning)
                    return FlushResult(sent, pending_events(store_dir), rejected, warnings)
        finally:
            os.close(fd)  # releases the lock
        try:  # another flusher may move the outbox aside between any two looks at it
            refilled = os.path.getsize(os.path.join(directory, OUTBOX))
        except FileNotFoundError:
            refilled = 0
        if not refilled:
            break  # a hook that appended after our rename found the lock free, or we see its line
    return FlushResult(sent, pending_events(store_dir), rejected, warnings)


def main(argv: list[str] | None = None) -> int:
    """The detached flusher the hook starts: ``python -m orkestra.telemetry.loki '[store, endpoint,
    credential_env, tenant, service]'``, at low priority; its outcome stays in the outbox."""
    import sys

    store_dir, *where = json.loads((sys.argv[1:] if argv is None else argv)[0])
    if hasattr(os, "nice"):
        os.nice(10)
    flush(store_dir, target(*where))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
