"""C hooks: ``#include`` paths → repository headers (relative first, then include roots)."""

from __future__ import annotations

import posixpath

INCLUDE_ROOTS = ("", "include/", "src/", "lib/")


def resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """``"util.h"`` relative to the including file, then under the usual include roots, then the
    one repository file whose path ends with ``/<module>``; None for system headers."""
    here = posixpath.dirname(from_path)
    relative = posixpath.normpath(posixpath.join(here, module))
    for path in (relative, *(f"{root}{module}" for root in INCLUDE_ROOTS)):
        if path in known_paths:
            return path
    suffix = f"/{module}"
    found = [p for p in known_paths if p.endswith(suffix)]
    return found[0] if len(found) == 1 else None
