"""Swift hooks: ``import Module`` → the module's folder, ``extension T`` owners, implicit ``self``."""

from __future__ import annotations

import posixpath

IMPLICIT_RECEIVER = True  # a bare call inside a type may name one of its methods


def resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """SwiftPM layout: module ``M`` is folder ``Sources/M`` (or any folder named ``M``); a module
    spans files, so its import edge goes to the first ``.swift`` file (sorted) in it."""
    folders = sorted({posixpath.dirname(p) for p in known_paths if p.endswith(".swift")})
    for folder in (f"Sources/{module}", *(f for f in folders if posixpath.basename(f) == module)):
        files = sorted(p for p in known_paths if posixpath.dirname(p) == folder and p.endswith(".swift"))
        if files:
            return files[0]
    return None


def owner(def_node) -> str | None:
    """A method written in ``extension Book { … }`` belongs to ``Book``."""
    body = def_node.parent
    declaration = body.parent if body is not None else None
    if declaration is None or declaration.type != "class_declaration":
        return None
    if not any(child.type == "extension" for child in declaration.children):
        return None
    name = declaration.child_by_field_name("name")
    return name.text.decode("utf-8", errors="replace").split("<", 1)[0] if name is not None else None
