"""The hook groups of a Claude Code ``settings.json``: which handlers a program owns, and the groups left
once they are dropped. A leaf: the telemetry hooks (``orkestra.telemetry.settings``) and the guidance
hook (``orkestra.why.settings``) both merge their handlers into the user's groups through it."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


def runs(hook: Any, programs: Iterable[str]) -> bool:
    """Whether a hook handler entry runs one of ``programs``: its command is the program, or the program
    followed by its arguments."""
    if not isinstance(hook, dict):
        return False
    command = str(hook.get("command", "")).strip()
    return any(command == program or command.startswith(program + " ") for program in programs)


def without_handlers(groups: list[Any], owned: Callable[[Any], bool]) -> list[Any]:
    """The matcher groups of one event with the ``owned`` handlers removed, order kept; a group left
    with no handler is dropped (one that had none to begin with stays)."""
    kept = []
    for group in groups:
        if isinstance(group, dict) and isinstance(group.get("hooks"), list):
            handlers = [h for h in group["hooks"] if not owned(h)]
            if not handlers and group["hooks"]:
                continue
            group = {**group, "hooks": handlers}
        kept.append(group)
    return kept
