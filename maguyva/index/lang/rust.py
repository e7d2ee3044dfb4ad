"""Rust hooks: module paths (``crate::``, ``self::``, ``super::``, ``mod x;``) → files, impl owners."""

from __future__ import annotations

import posixpath

_ROOT_FILES = ("lib.rs", "main.rs")


def resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """The file of module path ``module`` as seen from ``from_path``; None for other crates."""
    segments = [s for s in module.split("::") if s]
    if not segments:
        return None
    head = segments[0]
    if head == "crate":
        bases = [_crate_dir(from_path, known_paths)]
        segments = segments[1:]
    elif head in ("self", "super"):
        base = _module_dir(from_path)
        while segments and segments[0] in ("self", "super"):
            if segments.pop(0) == "super":
                base = posixpath.dirname(base)
        bases = [base]
    else:  # a child of the current module, then (2015-style) of the crate root
        bases = [_module_dir(from_path), _crate_dir(from_path, known_paths)]
    for base in bases:
        found = _module_file(base, segments, known_paths)
        if found is not None:
            return found
    return None


def submodule(module: str, name: str) -> str:
    """``use crate::util;`` names module ``crate::util`` when no item ``util`` exists."""
    return f"{module}::{name}"


def import_alias(module: str) -> str:
    """``mod util;`` / ``use crate::util;`` bind the last path segment."""
    return module.rsplit("::", 1)[-1]


def owner(def_node) -> str | None:
    """The type an ``impl`` block's function belongs to (``impl<T> Book<T>`` → ``Book``)."""
    body = def_node.parent
    impl = body.parent if body is not None else None
    if impl is None or impl.type != "impl_item":
        return None
    target = impl.child_by_field_name("type")
    while target is not None and target.type in ("generic_type", "scoped_type_identifier", "reference_type"):
        target = target.child_by_field_name("type") or target.child_by_field_name("name")
    return target.text.decode("utf-8", errors="replace") if target is not None else None


def _crate_dir(from_path: str, known_paths) -> str:
    """The nearest directory above ``from_path`` holding ``lib.rs`` or ``main.rs``."""
    directory = posixpath.dirname(from_path)
    while True:
        if any(posixpath.join(directory, root) in known_paths for root in _ROOT_FILES):
            return directory
        if not directory:
            return posixpath.dirname(from_path)
        directory = posixpath.dirname(directory)


def _module_dir(from_path: str) -> str:
    """Where the children of ``from_path``'s module live (``src/a.rs`` → ``src/a``)."""
    directory, name = posixpath.split(from_path)
    if name in (*_ROOT_FILES, "mod.rs"):
        return directory
    return posixpath.join(directory, name[:-3] if name.endswith(".rs") else name)


def _module_file(base: str, segments: list[str], known_paths) -> str | None:
    if not segments:
        for root in (*_ROOT_FILES, "mod.rs"):
            if posixpath.join(base, root) in known_paths:
                return posixpath.join(base, root)
        return None
    stem = posixpath.join(base, *segments)
    for path in (f"{stem}.rs", f"{stem}/mod.rs"):
        if path in known_paths:
            return path
    return None
