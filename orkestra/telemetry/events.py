"""Hook payloads → ``Event`` records: low-cardinality ``labels`` apart from high-cardinality ``fields``.

Stdlib-only (hook hot path). Claude Code sends one JSON object on stdin per event (FORMATS.md
§5); Codex's ``notify`` passes a kebab-case JSON string in argv. Anything that cannot be read
as one — not JSON, not UTF-8 (bad bytes, UTF-16, lone surrogates), larger than ``MAX_INPUT``,
nested deeper than ``MAX_DEPTH`` or holding more than ``MAX_VALUES`` values — becomes a
``malformed`` event holding the raw text, truncated and redacted, so nothing is lost and no
step recurses or backtracks without bound.
"""

from __future__ import annotations

import json
from collections import namedtuple
from datetime import UTC, datetime

from orkestra.telemetry import enrich
from orkestra.telemetry.redact import redact, redact_text

TYPE_CHECKING = False  # typing costs ~3 ms of the hook's start-up; annotations are strings
if TYPE_CHECKING:
    from typing import Any

CLAUDE_CODE = "claude-code"
CODEX_CLI = "codex-cli"
MALFORMED = "malformed"
RAW_LIMIT = 2000
MAX_INPUT = 8 * 1024 * 1024  # bytes read from stdin; a larger payload is stored as malformed
MAX_DEPTH = 64  # nesting of a payload's arrays and objects
MAX_VALUES = 20_000  # strings, numbers, arrays and objects in one payload
MAX_LABEL_VALUE = 200  # characters kept of one label value (labels are low-cardinality)
MAX_COMMAND = 4000  # characters of a shell line read for its command family
# Payload keys that are low-cardinality labels as they are.
LABEL_KEYS = (
    "source",
    "reason",
    "trigger",
    "notification_type",
    "permission_mode",
    "model",
    "client",
    "memory_type",
    "load_reason",
    "expansion_type",
)
# Payload keys whose size, not content, is kept (they can be whole files or transcripts).
SIZE_ONLY = ("tool_response", "last_assistant_message", "compact_summary")


class Event(namedtuple("Event", "ts labels fields")):
    """One stored hook event: when, how to group it (labels), and everything else (fields).

    An immutable record; a namedtuple rather than a dataclass so the hook path does not pay
    for importing ``dataclasses``.
    """

    __slots__ = ()
    ts: str
    labels: dict[str, str]
    fields: dict[str, Any]

    @property
    def name(self) -> str:
        return self.labels.get("event", "")

    def to_dict(self) -> dict[str, Any]:
        return {"ts": self.ts, "labels": self.labels, "fields": self.fields}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        return cls(str(data["ts"]), dict(data["labels"]), dict(data.get("fields") or {}))


def _size(value: Any) -> int:
    return len(value) if isinstance(value, str) else len(json.dumps(value, default=str))


def _tool_labels(payload: dict[str, Any]) -> dict[str, str | None]:
    name = str(payload.get("tool_name") or "")
    if not name:
        return {}
    kind = enrich.tool_type(name)
    tool_input = payload.get("tool_input")
    tool_input = tool_input if isinstance(tool_input, dict) else {}
    labels: dict[str, str | None] = {"tool_name": name, "tool_type": kind}
    if kind == "mcp":
        labels["mcp_server"] = enrich.mcp_server(name)
    elif kind == "bash":
        labels["bash_cli"] = enrich.bash_cli(str(tool_input.get("command") or "")[:MAX_COMMAND])
    elif kind == "skill":
        labels["skill"] = enrich.skill_name(tool_input)
    elif kind == "agent":
        labels["subagent_type"] = tool_input.get("subagent_type")
    return labels


def from_claude(payload: dict[str, Any], ts: str, agent_tool: str = CLAUDE_CODE) -> Event:
    """A Claude Code (or Codex hooks) stdin payload → Event."""
    name = str(payload.get("hook_event_name") or "unknown")
    labels: dict[str, str | None] = {"event": name, "agent_tool": agent_tool, **_tool_labels(payload)}
    if name.startswith("Subagent"):
        labels["subagent_type"] = payload.get("agent_type")
    elif payload.get("agent_type"):
        labels["agent_type"] = payload.get("agent_type")  # the event happened inside this agent
    for key in LABEL_KEYS:
        if isinstance(payload.get(key), str):
            labels[key] = payload[key]
    labels["outcome"] = enrich.outcome(name, payload)
    used = {"hook_event_name", "tool_name", *LABEL_KEYS, *SIZE_ONLY}
    if not name.startswith("Subagent"):
        used.add("agent_type")
    fields: dict[str, Any] = redact({k: v for k, v in payload.items() if k not in used})
    for key in SIZE_ONLY:
        if payload.get(key) is not None:
            fields[f"{key}_chars"] = _size(payload[key])
    return Event(ts=ts, labels=_clean(labels), fields=fields)


def from_codex(payload: dict[str, Any], ts: str) -> Event:
    """A Codex ``notify`` payload (``agent-turn-complete``) → Event in the same schema."""
    name = str(payload.get("type") or "unknown")
    labels = {
        "event": name,
        "agent_tool": CODEX_CLI,
        "client": payload.get("client"),
        "outcome": enrich.outcome(name, payload),
    }
    renamed = {"thread-id": "session_id", "turn-id": "prompt_id"}
    kept: dict[str, Any] = {}
    for key, value in payload.items():
        if key not in ("type", "client", "last-assistant-message"):
            kept[renamed.get(key, key.replace("-", "_"))] = value
    fields: dict[str, Any] = redact(kept)  # one walk: secret-named keys mask their values too
    if "last-assistant-message" in payload:
        fields["last_assistant_message_chars"] = _size(payload["last-assistant-message"] or "")
    return Event(ts=ts, labels=_clean(labels), fields=fields)


def malformed(
    raw: str, reason: str, ts: str, agent_tool: str = CLAUDE_CODE, raw_chars: int | None = None
) -> Event:
    """An input that could not be read as a payload, kept (truncated, redacted) for inspection."""
    kept = _valid_text(raw[:RAW_LIMIT])
    return Event(
        ts=ts,
        labels={"event": MALFORMED, "agent_tool": agent_tool, "outcome": "n/a"},
        fields={
            "error": reason,
            "raw": redact_text(kept),
            "raw_chars": len(raw) if raw_chars is None else raw_chars,
        },
    )


def _valid_text(text: str) -> str:
    """``text`` with lone surrogates (not encodable as UTF-8) replaced by U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def decode_input(data: bytes) -> tuple[str, str | None]:
    """Raw stdin bytes → (text, reason it is unreadable or None). Never raises; bounded work."""
    size = len(data)
    if size > MAX_INPUT:
        return data[: RAW_LIMIT * 4].decode("utf-8", "replace"), f"payload larger than {MAX_INPUT} bytes"
    head = data[:4]
    if head[:2] in (b"\xff\xfe", b"\xfe\xff") or (len(head) == 4 and (head[0] == 0) != (head[1] == 0)):
        encoding = json.detect_encoding(data)
        if encoding.startswith(("utf-16", "utf-32")):
            return data.decode(encoding, "replace").lstrip(
                "\ufeff"
            ), f"{encoding.upper()} input (hook payloads are UTF-8)"
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return data.decode("utf-8", "replace"), f"invalid UTF-8 at byte {exc.start}"


def _shape_problem(payload: Any) -> str | None:
    """Why a parsed payload is too deep, too big or not valid Unicode; an iterative, bounded walk."""
    stack: list[tuple[Any, int]] = [(payload, 1)]
    seen = 0
    while stack:
        value, depth = stack.pop()
        seen += 1
        if seen > MAX_VALUES:
            return f"payload holds more than {MAX_VALUES} values"
        if isinstance(value, str):
            if not value.isascii() and _valid_text(value) is not value:
                return "lone surrogate in a string (not valid Unicode)"
        elif isinstance(value, (dict, list)):
            if depth > MAX_DEPTH:
                return f"payload nested deeper than {MAX_DEPTH} levels"
            if isinstance(value, dict):
                seen += len(value)
                if seen > MAX_VALUES:
                    return f"payload holds more than {MAX_VALUES} values"
                stack.extend((key, depth) for key in value)
                stack.extend((item, depth + 1) for item in value.values())
            else:
                stack.extend((item, depth + 1) for item in value)
    return None


def parse_payload(raw: str, ts: str, agent_tool: str = CLAUDE_CODE, problem: str | None = None) -> Event:
    """Raw hook input (stdin for Claude Code, argv for Codex notify) → Event, malformed if unreadable.

    ``problem`` is a reason found while decoding the bytes (``decode_input``); the text is then
    stored as malformed without being parsed.
    """
    if problem is None and not raw.isascii() and _valid_text(raw) is not raw:
        problem = "lone surrogate in the input (undecodable bytes)"
    if problem is not None:
        return malformed(raw, problem, ts, agent_tool)
    try:
        payload = json.loads(raw)
    except ValueError as exc:
        return malformed(raw, f"invalid JSON: {exc}", ts, agent_tool)
    except RecursionError:
        return malformed(raw, f"payload nested deeper than {MAX_DEPTH} levels", ts, agent_tool)
    problem = _shape_problem(payload)
    if problem is not None:
        return malformed(raw, problem, ts, agent_tool)
    if not isinstance(payload, dict):
        return malformed(raw, f"expected a JSON object, got {type(payload).__name__}", ts, agent_tool)
    if "hook_event_name" in payload:
        return from_claude(payload, ts, agent_tool)
    if agent_tool == CODEX_CLI and "type" in payload:
        return from_codex(payload, ts)
    return malformed(raw, "no hook_event_name (Claude Code) or type (Codex notify)", ts, agent_tool)


def _clean(labels: dict[str, Any]) -> dict[str, str]:
    """Label values as short strings, redacted like fields (a payload chooses them too)."""
    return {k: redact_text(str(v)[:MAX_LABEL_VALUE]) for k, v in labels.items() if v not in (None, "")}


def timestamp(moment: datetime | None = None) -> str:
    """The store's timestamp format: UTC, microseconds, ``Z`` suffix (sorts as text)."""
    return (moment or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
