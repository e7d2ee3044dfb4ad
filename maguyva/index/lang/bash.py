"""Bash hooks: ``source``/``.`` paths with ``$(dirname …)`` or ``${ROOT}`` prefixes → files."""

from __future__ import annotations

import posixpath
import re

_EXPANSION = re.compile(r"\$\([^)]*\)|\$\{[^}]*\}|\$\w+")


def resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """The literal tail of the sourced path (expansions dropped), relative to the sourcing file's
    folder, then to the repository root, then the one repository file ending with it."""
    dynamic = "$" in module
    tail = _EXPANSION.sub("", module).lstrip("/") if dynamic else module
    if not tail or "$" in tail:
        return None
    here = posixpath.dirname(from_path)
    for path in (posixpath.normpath(posixpath.join(here, tail)), posixpath.normpath(tail)):
        if path in known_paths:
            return path
    if not dynamic:
        return None
    found = [p for p in known_paths if p.endswith(f"/{tail}")]
    return found[0] if len(found) == 1 else None
