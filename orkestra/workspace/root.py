"""Where the workspace is: ``orkestra.yaml``'s name and the search for it (stdlib only, no model)."""

from __future__ import annotations

import os
from pathlib import Path

from orkestra.fs.roots import CONFIG_FILE, nearest_root

# Defaults of ``paths:`` (``orkestra.workspace.config.Paths``) for callers that do without the model
# when there is no orkestra.yaml (mining)
STATE_DIR = ".orkestra"
DECISIONS_DIR = "ai_assets/reference/decisions"
OUTPUT_DIR = ".claude"


def find_root(root: str | Path | None = None, *, must_exist: bool = False) -> Path:
    """``root`` if given, else the nearest directory from the cwd upwards holding ``orkestra.yaml``.

    ``must_exist``: a given ``root`` without ``orkestra.yaml`` is an error too (not left to the loader).
    """
    if root is not None:
        path = Path(root).resolve()
        if must_exist and not (path / CONFIG_FILE).is_file():
            from orkestra.errors import NoWorkspaceError

            raise NoWorkspaceError(f"{path}: no {CONFIG_FILE} here")
        return path
    start = Path.cwd().resolve()
    found = nearest_root(start, (CONFIG_FILE,), os.path.isfile)
    if found is not None:
        return Path(found)
    from orkestra.errors import NoWorkspaceError  # difflib: deferred off the hot path

    raise NoWorkspaceError(f"no {CONFIG_FILE} in {start} or any parent directory")


def raw_config(root: Path) -> dict:
    """``orkestra.yaml`` as plain data through the one (capped) YAML reader, without the config model,
    for paths that must not import pydantic (a load-cache hit); ``{}`` when missing or unreadable.
    Everything else takes the typed model: ``orkestra.workspace.config.load_config``."""
    from orkestra.workspace.source import SourceError, read_yaml

    if not (root / CONFIG_FILE).is_file():
        return {}
    try:
        data = read_yaml(root, CONFIG_FILE).data
    except SourceError:
        return {}
    return data if isinstance(data, dict) else {}
