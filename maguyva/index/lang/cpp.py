"""C++ hooks: ``#include`` resolution (as for C), implicit ``this``, owners of ``A::f`` bodies."""

from __future__ import annotations

from maguyva.index.lang.c import resolve_import

__all__ = ["IMPLICIT_RECEIVER", "owner", "resolve_import"]

IMPLICIT_RECEIVER = True  # a bare call inside a class may name one of its methods


def owner(def_node) -> str | None:
    """``std::string Book::title() const {…}`` belongs to ``Book`` (the last scope segment)."""
    declarator = def_node.child_by_field_name("declarator")
    while declarator is not None and declarator.type in ("pointer_declarator", "reference_declarator"):
        declarator = declarator.child_by_field_name("declarator") or declarator.named_children[-1]
    if declarator is None or declarator.type != "function_declarator":
        return None
    name = declarator.child_by_field_name("declarator")
    if name is None or name.type != "qualified_identifier":
        return None
    scope = name.child_by_field_name("scope")
    return scope.text.decode("utf-8", errors="replace").rsplit("::", 1)[-1] if scope is not None else None
