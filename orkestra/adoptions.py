"""The files ``orkestra import`` verified round-trip, which the next sync may take over:
``<paths.state>/import/adopt.json`` (output path -> sha256 of the original). ``import`` writes it, the render
plan reads it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from orkestra.workspace import jsontext

if TYPE_CHECKING:
    from orkestra.workspace.config import OrkestraConfig

ADOPT_FILE = "import/adopt.json"  # under paths.state


def read_adoptions(root: Path, config: OrkestraConfig) -> dict[str, str]:
    """Files ``import`` verified (path → sha256 of the original) that sync may take over."""
    try:
        data = jsontext.loads((root / config.paths.state / ADOPT_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}
