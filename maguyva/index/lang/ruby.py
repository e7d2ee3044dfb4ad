"""Ruby hooks: ``require``/``require_relative`` paths, implicit ``self``, bare locals vs calls."""

from __future__ import annotations

import posixpath

IMPLICIT_RECEIVER = True  # a bare call inside a class may name one of its methods
LOAD_PATH = ("lib/", "", "app/")
_SCOPES = frozenset({"method", "singleton_method", "class", "module", "singleton_class", "program"})
_PARAMETERS = frozenset(
    {
        "method_parameters",
        "lambda_parameters",
        "block_parameters",
        "optional_parameter",
        "keyword_parameter",
        "splat_parameter",
        "hash_splat_parameter",
        "block_parameter",
        "destructured_parameter",
    }
)


def resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """``require_relative "x"`` (from the file's folder) or ``require "a/b"`` (from the load path)."""
    name = module if module.endswith(".rb") else f"{module}.rb"
    here = posixpath.dirname(from_path)
    candidates = [posixpath.normpath(posixpath.join(here, name)), *(f"{root}{name}" for root in LOAD_PATH)]
    for path in candidates:
        if path in known_paths:
            return path
    return None


def keep_reference(node, captures) -> bool:
    """Drop a bare identifier that Ruby reads as a local variable: a parameter of, or a name
    assigned earlier in, the enclosing method (or block chain up to it)."""
    if node.type != "identifier":
        return True
    name = node.text
    scope = node.parent
    while scope is not None and scope.type not in _SCOPES:
        scope = scope.parent
    return scope is None or name not in _locals_before(scope, node.start_byte)


def _locals_before(scope, limit: int) -> set[bytes]:
    """Parameter names and assignment targets in ``scope`` (not in nested scopes) before ``limit``."""
    found: set[bytes] = set()
    stack = list(scope.children)
    while stack:
        current = stack.pop()
        if current.start_byte >= limit or current.type in _SCOPES:
            continue
        if current.type in _PARAMETERS:
            found.update(c.text for c in current.children if c.type == "identifier")
            name = current.child_by_field_name("name")
            if name is not None:
                found.add(name.text)
        elif current.type in ("assignment", "operator_assignment"):
            left = current.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                found.add(left.text)
            elif left is not None and left.type == "left_assignment_list":
                found.update(c.text for c in left.children if c.type == "identifier")
        elif current.type == "for":
            pattern = current.child_by_field_name("pattern")
            if pattern is not None and pattern.type == "identifier":
                found.add(pattern.text)
        stack.extend(current.children)
    return found
