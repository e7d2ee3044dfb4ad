"""JavaScript hooks: module specifiers → files; a default import binds to the same-named definition."""

from __future__ import annotations

import posixpath

EXTENSIONS = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".d.ts")


def resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """``./util`` → ``dir/util.js`` (or ``.ts``, ``/index.js`` …); bare names are not in the repo."""
    if not module.startswith((".", "/")):
        return None
    stem = posixpath.normpath(posixpath.join(posixpath.dirname(from_path), module)).lstrip("/")
    if stem in known_paths:
        return stem
    base, ext = posixpath.splitext(stem)
    if ext in (".js", ".jsx", ".mjs", ".cjs"):  # TypeScript sources imported with their output extension
        for candidate in (".ts", ".tsx", ".mts", ".cts"):
            if base + candidate in known_paths:
                return base + candidate
    for candidate in (*(stem + e for e in EXTENSIONS), *(f"{stem}/index{e}" for e in EXTENSIONS)):
        if candidate in known_paths:
            return candidate
    return None


def default_import(alias: str, target_symbols) -> object | None:
    """``import Service from "./service"``: the target's top-level definition named like the binding.

    Nothing records which definition is ``export default``, so the conventional same name is used;
    otherwise the import binds to the module file.
    """
    for symbol in target_symbols:
        if symbol.parent is None and symbol.name == alias:
            return symbol
    return None
