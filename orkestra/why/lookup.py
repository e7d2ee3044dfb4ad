"""The guidance hook's lookup table, built at sync time: path → active decisions and current truths.

Rendered by ``orkestra sync`` (when ``memory.hook`` is on) to ``<output>/orkestra/memory.json`` so the
hook answers with one small JSON read and no YAML, git or index. Only *direct* coverage is in it:
decision ``files`` and truth ``evidence`` (``path::Symbol`` counts for its path); folder entries
(a trailing ``/`` or an existing directory) cover everything below them.

Shape: ``{"version": 1, "files": {path: [id, …]}, "folders": {folder: [id, …]},
"records": {id: {"kind", "status", "title", "do", "avoid"}}}``, keys sorted, so it is deterministic.

This module is the table's name, version and reading (stdlib only, for the hook);
``orkestra.why.lookup_build`` builds it from a workspace.
"""

from __future__ import annotations

import json

TYPE_CHECKING = False  # not typing.TYPE_CHECKING: importing typing costs the hook ~2 ms
if TYPE_CHECKING:  # the hook imports this module: stdlib json only at run time
    from pathlib import Path

LOOKUP_VERSION = 1
LOOKUP_NAME = "orkestra/memory.json"


def lookup_path(output_dir: str) -> str:
    return f"{output_dir.strip('/')}/{LOOKUP_NAME}" if output_dir.strip("/") else LOOKUP_NAME


def covering(lookup: dict, rel: str) -> list[str]:
    """Record ids covering repo-relative ``rel``: exact file entries, then enclosing folders (deepest first)."""
    found = list(lookup.get("files", {}).get(rel, ()))
    folders = lookup.get("folders", {})
    parts = rel.split("/")
    for depth in range(len(parts) - 1, 0, -1):
        for key in folders.get("/".join(parts[:depth]), ()):
            if key not in found:
                found.append(key)
    return found


def read_lookup(path: str | Path) -> dict | None:
    """The table at ``path``, or None when it is missing, unreadable or of another version."""
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("version") == LOOKUP_VERSION else None
