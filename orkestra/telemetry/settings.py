"""The ``telemetry:`` section of ``orkestra.yaml`` and the ``hooks`` block of ``.claude/settings.json``.

``hooks_block`` and ``merge_settings`` are pure and stdlib-only (``orkestra sync`` calls
``merge_settings`` to render the file); a bad section raises ``SettingsError`` naming the key,
and the config model (``orkestra.workspace.config``) turns that into a located
``orkestra.yaml:line:col`` diagnostic; ``orkestra.telemetry.project.load_settings`` reads the section
through it.

```yaml
telemetry:
  enabled: true                     # false removes our hooks from settings.json
  store_dir: .orkestra/telemetry    # inside the project (no .., no .git, no symlink on the way)
  otlp_endpoint: http://127.0.0.1:4318   # optional OTLP/HTTP collector
  events: [PreToolUse, PostToolUse]  # optional subset of HANDLED_EVENTS
  loki:                              # optional Loki push (orkestra.telemetry.loki)
    endpoint: http://127.0.0.1:3100
    credential_env: ORKESTRA_LOKI_AUTH   # the variable holding "user:token" or a bearer token
    tenant: team-a                       # optional X-Scope-OrgID
    service_name: claude-code-hooks      # the seeds' shared stream label
```
"""

from __future__ import annotations

import copy
import shlex
from dataclasses import dataclass
from typing import Any

from orkestra.hook_groups import runs, without_handlers
from orkestra.telemetry.store import DEFAULT_STORE_DIR, store_dir_problem

# What `orkestra sync` writes into .claude/settings.json: `orkestra-hook` is the stdlib-only
# twin of `orkestra hooks handle` (no typer start-up cost). Settings the handler needs are
# passed as options, so it never parses orkestra.yaml. The hook runs asynchronously (Claude
# Code does not wait for it) and is killed after HOOK_TIMEOUT seconds.
HOOK_PROGRAM = "orkestra-hook"
HOOK_TIMEOUT = 10
# Commands that mark a hook entry as ours, so a re-sync replaces it.
OWNED_COMMANDS = (HOOK_PROGRAM, "orkestra hooks handle")

# Events that carry a tool name: their matcher groups match every tool.
TOOL_EVENTS = ("PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionDenied")
HANDLED_EVENTS = (
    "SessionStart",
    "UserPromptSubmit",
    *TOOL_EVENTS,
    "SubagentStart",
    "SubagentStop",
    "Notification",
    "PreCompact",
    "Stop",
    "StopFailure",
    "SessionEnd",
)


@dataclass(frozen=True, slots=True)
class TelemetrySettings:
    """The parsed ``telemetry:`` section."""

    enabled: bool = True
    store_dir: str = DEFAULT_STORE_DIR
    otlp_endpoint: str | None = None
    events: tuple[str, ...] = HANDLED_EVENTS
    loki: LokiSettings | None = None


@dataclass(frozen=True, slots=True)
class LokiSettings:
    """The ``telemetry.loki:`` mapping; the credential itself is only ever read from the environment."""

    endpoint: str
    credential_env: str = "ORKESTRA_LOKI_AUTH"
    tenant: str | None = None
    service_name: str = "claude-code-hooks"


class SettingsError(ValueError):
    """A bad value in the ``telemetry:`` section; ``key`` names the offending key."""

    def __init__(self, key: str, message: str):
        super().__init__(f"telemetry.{key}: {message}" if key else f"telemetry: {message}")
        self.key, self.message = key, message


def parse_settings(config: dict[str, Any] | None) -> TelemetrySettings:
    """The raw ``telemetry:`` mapping → settings; a bad value raises ``SettingsError``."""
    if config is not None and not isinstance(config, dict):
        raise SettingsError("", "expected a mapping")
    raw = dict(config or {})
    unknown = sorted(set(raw) - {"enabled", "store_dir", "otlp_endpoint", "events", "loki"})
    if unknown:
        raise SettingsError(
            unknown[0], "unknown key (expected enabled, store_dir, otlp_endpoint, events, loki)"
        )
    events = raw.get("events") or list(HANDLED_EVENTS)
    if not isinstance(events, list):
        raise SettingsError("events", "expected a list of hook event names")
    for event in events:
        if event not in HANDLED_EVENTS:
            handled = ", ".join(HANDLED_EVENTS)
            raise SettingsError("events", f"unsupported event {event!r} (handled: {handled})")
    endpoint = raw.get("otlp_endpoint")
    if endpoint is not None and not str(endpoint).startswith(("http://", "https://")):
        raise SettingsError("otlp_endpoint", f"expected an http(s) URL, got {endpoint!r}")
    if not isinstance(raw.get("enabled", True), bool):
        raise SettingsError("enabled", "expected true or false")
    if (
        raw.get("store_dir") is not None
    ):  # the repository's own file: the events stay inside it (any folder: --store-dir)
        problem = store_dir_problem(raw["store_dir"])
        if problem:
            raise SettingsError("store_dir", problem)
    return TelemetrySettings(
        enabled=raw.get("enabled", True),
        store_dir=str(raw.get("store_dir") or DEFAULT_STORE_DIR),
        otlp_endpoint=str(endpoint) if endpoint else None,
        events=tuple(e for e in HANDLED_EVENTS if e in events),
        loki=_parse_loki(raw.get("loki")),
    )


def _parse_loki(raw: Any) -> LokiSettings | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise SettingsError("loki", "expected a mapping with an endpoint")
    unknown = sorted(set(raw) - {"endpoint", "credential_env", "tenant", "service_name"})
    if unknown:
        raise SettingsError(
            f"loki.{unknown[0]}", "unknown key (expected endpoint, credential_env, tenant, service_name)"
        )
    endpoint = raw.get("endpoint")
    if not isinstance(endpoint, str) or not endpoint.startswith(("http://", "https://")):
        raise SettingsError("loki.endpoint", f"expected an http(s) URL, got {endpoint!r}")
    for key in ("credential_env", "tenant", "service_name"):
        if key in raw and (not isinstance(raw[key], str) or not raw[key].strip()):
            raise SettingsError(f"loki.{key}", "expected a non-empty string")
    if "credential_env" in raw and not raw["credential_env"].replace("_", "").isalnum():
        raise SettingsError(
            "loki.credential_env", "expected an environment variable name (the secret stays there)"
        )
    defaults = LokiSettings(endpoint)
    return LokiSettings(
        endpoint=endpoint,
        credential_env=raw.get("credential_env", defaults.credential_env),
        tenant=raw.get("tenant"),
        service_name=raw.get("service_name", defaults.service_name),
    )


def hook_command(settings: TelemetrySettings) -> str:
    """The shell command a hook entry runs; options only where they differ from the defaults."""
    words = [HOOK_PROGRAM]
    if settings.store_dir != DEFAULT_STORE_DIR:
        words += ["--store-dir", settings.store_dir]
    if settings.otlp_endpoint:
        words += ["--otlp-endpoint", settings.otlp_endpoint]
    if settings.loki:
        defaults = LokiSettings(settings.loki.endpoint)
        words += ["--loki-endpoint", settings.loki.endpoint]
        for flag, value, default in (
            ("--loki-credential-env", settings.loki.credential_env, defaults.credential_env),
            ("--loki-tenant", settings.loki.tenant, None),
            ("--loki-service", settings.loki.service_name, defaults.service_name),
        ):
            if value and value != default:
                words += [flag, value]
    return " ".join(shlex.quote(word) for word in words)


def _our_group(event: str, command: str) -> dict[str, Any]:
    group: dict[str, Any] = {"matcher": "*"} if event in TOOL_EVENTS else {}
    group["hooks"] = [{"type": "command", "command": command, "timeout": HOOK_TIMEOUT, "async": True}]
    return group


def hooks_block(config: TelemetrySettings | dict[str, Any] | None) -> dict[str, Any]:
    """The ``hooks`` object wiring every enabled event to ``orkestra-hook`` (``config``: the parsed
    section, as ``OrkestraConfig.telemetry`` holds it, or the raw mapping)."""
    settings = config if isinstance(config, TelemetrySettings) else parse_settings(config)
    if not settings.enabled:
        return {}
    command = hook_command(settings)
    return {event: [_our_group(event, command)] for event in settings.events}


def is_owned(hook: Any) -> bool:
    """True for a hook handler entry we wrote (recognised by its command)."""
    return runs(hook, OWNED_COMMANDS)


def merge_settings(
    existing: dict[str, Any] | None, config: TelemetrySettings | dict[str, Any] | None
) -> dict[str, Any]:
    """``existing`` settings with our hooks merged in; pure and idempotent.

    User entries are never removed or reordered: our handlers are dropped wherever they
    are and our groups appended at the end of each event's list; events new to the file
    are appended in ``HANDLED_EVENTS`` order; every other key keeps its place.
    """
    result = copy.deepcopy(existing) if existing else {}
    ours = hooks_block(config)
    current = result.get("hooks")
    if not isinstance(current, dict):
        if not ours:
            return result
        current = {}
    merged: dict[str, Any] = {}
    for event, groups in current.items():
        kept = without_handlers(groups, is_owned) if isinstance(groups, list) else groups
        if event in ours and isinstance(kept, list):
            kept = kept + ours[event]
        if kept or not groups:  # drop an event only when it held nothing but ours
            merged[event] = kept
    for event, groups in ours.items():
        merged.setdefault(event, groups)
    if merged or "hooks" in result:
        result["hooks"] = merged
    return result
