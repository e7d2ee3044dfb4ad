"""The ``memory:`` section of ``orkestra.yaml`` and the guidance hook's entry in ``.claude/settings.json``.

```yaml
memory:
  hook: true          # render the orkestra-why-hook hook and its lookup table (default false)
  event: PreToolUse   # or PostToolUse; both take hookSpecificOutput.additionalContext
```

PreToolUse (the default) puts the guidance in front of the agent before the edit; Claude Code
documents ``additionalContext`` for it since v2.1.9 (and for PostToolUse long before), so
``event: PostToolUse`` is the fallback for clients that ignore it before a tool runs.

``merge_memory_hook`` is pure and idempotent: it removes any handler running ``orkestra-why-hook`` and,
when the hook is on, appends one ``PreToolUse`` group for the file tools; user entries keep their place.
"""

from __future__ import annotations

import copy
import shlex
from typing import Any

from orkestra.hook_groups import runs, without_handlers
from orkestra.why.lookup import LOOKUP_NAME

HOOK_PROGRAM = "orkestra-why-hook"
HOOK_TIMEOUT = 5  # seconds; the hook answers in tens of milliseconds
MATCHER = "Read|Edit|Write|MultiEdit|NotebookEdit"
EVENT = "PreToolUse"


EVENTS = ("PreToolUse", "PostToolUse")


def hook_event(config: dict[str, Any] | None) -> str | None:
    """The event the hook is rendered for, None when ``memory.hook`` is off; a bad value raises
    ValueError naming the key."""
    if config is None:
        return None
    if not isinstance(config, dict):
        raise ValueError("memory: expected a mapping")  # not TypeError: callers catch ValueError
    unknown = sorted(set(config) - {"hook", "event"})
    if unknown:
        raise ValueError(f"memory.{unknown[0]}: unknown key (expected hook, event)")
    value = config.get("hook", False)
    if not isinstance(value, bool):
        raise ValueError("memory.hook: expected true or false")
    event = config.get("event", EVENT)
    if event not in EVENTS:
        raise ValueError(f"memory.event: expected one of {', '.join(EVENTS)}, got {event!r}")
    return event if value else None


def hook_enabled(config: dict[str, Any] | None) -> bool:
    """``memory.hook`` of orkestra.yaml (see ``hook_event``)."""
    return hook_event(config) is not None


def hook_command(output_dir: str, state_dir: str = ".orkestra") -> str:
    words = [HOOK_PROGRAM]
    if output_dir.strip("/") != ".claude":
        words += ["--lookup", f"{output_dir.strip('/')}/{LOOKUP_NAME}"]
    if state_dir.strip("/") != ".orkestra":
        words += ["--state", state_dir.strip("/")]
    return " ".join(shlex.quote(w) for w in words)


def _is_ours(hook: Any) -> bool:
    return runs(hook, (HOOK_PROGRAM,))


def merge_memory_hook(
    settings: dict[str, Any],
    config: dict[str, Any] | None,
    output_dir: str = ".claude",
    state_dir: str = ".orkestra",
) -> dict[str, Any]:
    """``settings`` with our group (re)placed at the end of its event, and removed from the other
    event and wherever else it was; nothing of ours is left when the hook is off."""
    wanted = hook_event(config)
    result = copy.deepcopy(settings)
    hooks = result.get("hooks")
    if not isinstance(hooks, dict):
        if wanted is None:
            return result
        hooks = result["hooks"] = {}
    for event in EVENTS:
        groups = hooks.get(event)
        kept = without_handlers(groups if isinstance(groups, list) else [], _is_ours)
        if event == wanted:
            handler = {
                "type": "command",
                "command": hook_command(output_dir, state_dir),
                "timeout": HOOK_TIMEOUT,
            }
            kept.append({"matcher": MATCHER, "hooks": [handler]})
        if kept:
            hooks[event] = kept
        elif event in hooks and isinstance(groups, list) and groups:
            del hooks[event]
    return result
