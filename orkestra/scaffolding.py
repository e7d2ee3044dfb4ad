"""The scaffold shipped with orkestra (``orkestra/scaffold/``: registries, the starter's ``full/`` set,
the registry reference) and the ``telemetry:`` block ``init`` appends to a new ``orkestra.yaml``; read by
``init``, the starter and ``import``."""

from __future__ import annotations

from pathlib import Path

SCAFFOLD = Path(__file__).resolve().parent / "scaffold"


def telemetry_block(enabled: bool) -> str:
    if enabled:
        return (
            "# Telemetry hooks (13 events, stored locally in .orkestra/telemetry) are on;\n"
            "# set enabled: false (or run `orkestra init` without --telemetry) to turn them off.\n"
            "telemetry:\n  enabled: true\n"
        )
    return (
        "# Telemetry hooks are off. `enabled: true` merges 13 local-only hooks into .claude/settings.json.\n"
        "telemetry:\n  enabled: false\n"
    )
