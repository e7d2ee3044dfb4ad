"""TypeScript (and TSX) hooks: the same module resolution as JavaScript."""

from __future__ import annotations

from maguyva.index.lang.javascript import default_import, owner, resolve_import

__all__ = ["default_import", "owner", "resolve_import"]

from maguyva.index.lang.javascript import facts

__all__ += ["facts"]
