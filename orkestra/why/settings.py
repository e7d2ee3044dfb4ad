"""The ``memory:`` section of ``orkestra.yaml`` and the guidance hook's entry in ``.claude/settings.json``.

```yaml
memory:
  hook: true          # render the orkestra-why-hook PreToolUse hook and its lookup table (default false)
```

``merge_memory_hook`` is pure and idempotent: it removes any handler running ``orkestra-why-hook`` and,
when the hook is on, appends one ``PreToolUse`` group for the file tools; user entries keep their place.
"""

from __future__ import annotations

import copy
import shlex
from typing import Any

from orkestra.why.lookup import LOOKUP_NAME

HOOK_PROGRAM = "orkestra-why-hook"
HOOK_TIMEOUT = 5  # seconds; the hook answers in tens of milliseconds
MATCHER = "Read|Edit|Write|MultiEdit|NotebookEdit"
EVENT = "PreToolUse"


def hook_enabled(config: dict[str, Any] | None) -> bool:
    """``memory.hook`` of orkestra.yaml; a bad value raises ValueError naming the key."""
    if config is None:
        return False
    if not isinstance(config, dict):
        raise ValueError("memory: expected a mapping")  # noqa: TRY004 - callers catch ValueError
    unknown = sorted(set(config) - {"hook"})
    if unknown:
        raise ValueError(f"memory.{unknown[0]}: unknown key (expected hook)")
    value = config.get("hook", False)
    if not isinstance(value, bool):
        raise ValueError("memory.hook: expected true or false")  # noqa: TRY004
    return value


def hook_command(output_dir: str) -> str:
    words = [HOOK_PROGRAM]
    if output_dir.strip("/") != ".claude":
        words += ["--lookup", f"{output_dir.strip('/')}/{LOOKUP_NAME}"]
    return " ".join(shlex.quote(w) for w in words)


def _is_ours(hook: Any) -> bool:
    command = str(hook.get("command", "")).strip() if isinstance(hook, dict) else ""
    return command == HOOK_PROGRAM or command.startswith(HOOK_PROGRAM + " ")


def merge_memory_hook(settings: dict[str, Any], config: dict[str, Any] | None, output_dir: str = ".claude") \
        -> dict[str, Any]:
    """``settings`` with our PreToolUse group (re)placed at the end, or removed when the hook is off."""
    enabled = hook_enabled(config)
    result = copy.deepcopy(settings)
    hooks = result.get("hooks")
    if not isinstance(hooks, dict):
        if not enabled:
            return result
        hooks = result["hooks"] = {}
    groups = hooks.get(EVENT)
    kept = []
    for group in groups if isinstance(groups, list) else []:
        if isinstance(group, dict) and isinstance(group.get("hooks"), list):
            handlers = [h for h in group["hooks"] if not _is_ours(h)]
            if not handlers and group["hooks"]:
                continue
            group = {**group, "hooks": handlers}
        kept.append(group)
    if enabled:
        kept.append({"matcher": MATCHER, "hooks": [{"type": "command", "command": hook_command(output_dir),
                                                    "timeout": HOOK_TIMEOUT}]})
    if kept:
        hooks[EVENT] = kept
    elif EVENT in hooks and isinstance(groups, list) and groups:
        del hooks[EVENT]
    return result
