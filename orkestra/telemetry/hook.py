"""The hook handler: one payload in, one line in the store, never a failure the agent sees.

``orkestra-hook`` (the console script ``.claude/settings.json`` runs) reads a Claude Code
payload on stdin; ``orkestra-hook codex-notify JSON`` takes Codex's notify argument. It
imports only the stdlib and our stdlib-only telemetry modules, so it starts in a few tens of
milliseconds; ``orkestra hooks handle`` is the typer twin calling the same ``record_hook``.
"""

from __future__ import annotations

import json
import os
import sys
from collections import namedtuple
from collections.abc import Mapping, Sequence

from orkestra.telemetry.events import (
    CLAUDE_CODE,
    CODEX_CLI,
    MAX_INPUT,
    Event,
    decode_input,
    parse_payload,
    timestamp,
)
from orkestra.telemetry.store import (
    DEFAULT_STORE_DIR,
    append_event,
    enqueue,
    find_project_root,
    store_directory,
)

USAGE = (
    "usage: orkestra-hook [--store-dir DIR] [--otlp-endpoint URL] [--loki-endpoint URL]"
    " [--loki-credential-env NAME] [--loki-tenant ID] [--loki-service NAME]"
    " [--agent-tool claude-code|codex-cli] [codex-notify JSON]  (payload on stdin otherwise)"
)


class Recorded(namedtuple("Recorded", "event path warnings")):
    """What one hook invocation stored (the event, its day file) and any export problem."""

    __slots__ = ()
    event: Event
    path: str
    warnings: list[str]


def project_dir(event: Event, env: Mapping[str, str], cwd: str) -> str:
    """Where the store lives: ``$CLAUDE_PROJECT_DIR``, else the payload's cwd, else ours; walked up."""
    for start in (env.get("CLAUDE_PROJECT_DIR"), event.fields.get("cwd")):
        if isinstance(start, str) and start and os.path.isdir(start):
            return find_project_root(start)
    return find_project_root(cwd)


def read_stdin() -> bytes:
    """At most ``MAX_INPUT`` + 1 bytes of stdin, undecoded (decoding is ``decode_input``'s job)."""
    return sys.stdin.buffer.read(MAX_INPUT + 1)


def record_hook(
    raw: str | bytes,
    *,
    agent_tool: str = CLAUDE_CODE,
    store_dir: str = DEFAULT_STORE_DIR,
    otlp_endpoint: str | None = None,
    loki_endpoint: str | None = None,
    loki_credential_env: str | None = None,
    loki_tenant: str | None = None,
    loki_service: str | None = None,
    loki_flush: str = "inline",
    env: Mapping[str, str] | None = None,
    cwd: str | None = None,
    ts: str | None = None,
) -> Recorded:
    """Parse, enrich and append one raw payload (text, or stdin bytes); export it when configured.

    With a Loki endpoint the event also goes to the Loki outbox; ``loki_flush`` is ``detach``
    (a detached flusher process, what the console script does), ``inline`` (push now) or ``none``.
    """
    text, problem = decode_input(raw) if isinstance(raw, bytes) else (raw, None)
    event = parse_payload(text, ts or timestamp(), agent_tool, problem)
    environ = os.environ if env is None else env
    root = project_dir(event, environ, cwd or os.getcwd())
    directory = store_directory(root, store_dir)  # relative: inside the project, no symlink on the way
    path = append_event(directory, event)
    warnings = []
    if loki_endpoint:
        enqueue(directory, event, os.path.basename(root))
        where = (loki_endpoint, loki_credential_env, loki_tenant, loki_service)
        if loki_flush == "inline" or (loki_flush == "detach" and not flush_detached(directory, where)):
            from orkestra.telemetry import loki

            warnings += loki.flush(directory, loki.target(*where), environ, backoff=()).warnings
    if otlp_endpoint:
        from orkestra.telemetry.export import export_events  # heavy: only when configured

        warnings += export_events([event], otlp_endpoint)
    return Recorded(event, path, warnings)


def flush_detached(store_dir: str, where: tuple[str, str | None, str | None, str | None]) -> bool:
    """Start a Loki flusher that outlives the hook (``python -m orkestra.telemetry.loki``); False where
    no interpreter can be started.

    The hook returns at once: the flusher runs in a new session with its stdio on /dev/null and
    lowers its own priority, so the agent never waits for it. ``-P``: the project's folder (the hook's
    working directory) is not put on the flusher's import path, so no file of it is imported."""
    if not sys.executable:
        return False
    import subprocess

    try:
        subprocess.Popen(
            [sys.executable, "-P", "-m", "orkestra.telemetry.loki", json.dumps([store_dir, *where])],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        return False
    return True


def _parse_argv(argv: Sequence[str]) -> tuple[dict[str, str], list[str]]:
    options, positional = {}, []
    names = {
        "--store-dir": "store_dir",
        "--otlp-endpoint": "otlp_endpoint",
        "--agent-tool": "agent_tool",
        "--loki-endpoint": "loki_endpoint",
        "--loki-credential-env": "loki_credential_env",
        "--loki-tenant": "loki_tenant",
        "--loki-service": "loki_service",
    }
    words = list(argv)
    while words:
        word = words.pop(0)
        key, _, value = word.partition("=")
        if key in names:
            options[names[key]] = value if value else words.pop(0)
        else:
            positional.append(word)
    return options, positional


def record_safely(raw: str | bytes, **options: str) -> None:
    """``record_hook`` at the edge: any failure goes to stderr as one line, never raised."""
    try:
        for warning in record_hook(raw, **options).warnings:
            sys.stderr.write(f"orkestra-hook: {warning}\n")
    except BaseException as exc:  # noqa: BLE001 - telemetry must never break the agent
        sys.stderr.write(f"orkestra-hook: event not recorded: {type(exc).__name__}: {exc}\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Console-script entry point: always exits 0 and prints nothing on stdout."""
    try:
        options, positional = _parse_argv(sys.argv[1:] if argv is None else argv)
        options["loki_flush"] = "detach"
        if positional[:1] == ["codex-notify"]:
            options["agent_tool"] = CODEX_CLI
            record_safely(positional[1] if len(positional) > 1 else "", **options)
        elif positional:
            sys.stderr.write(USAGE + "\n")
        else:
            record_safely(read_stdin(), **options)
    except BaseException as exc:  # noqa: BLE001 - a missing option value, unreadable stdin...
        sys.stderr.write(f"orkestra-hook: event not recorded: {type(exc).__name__}: {exc}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
