"""Java hooks: package names → the source file of a class; bare calls may be methods."""

from __future__ import annotations

import posixpath

IMPLICIT_RECEIVER = True  # a bare call inside a class may name one of its methods
FILE_PER_TYPE = True  # class a.b.C lives in a/b/C.java: an import of C targets the class
SOURCE_ROOTS = ("", "src/main/java/", "src/test/java/", "src/", "app/src/main/java/")


def resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """``com.example.model`` (a package, or a class for static imports) → a file in the repo.

    A class ``a.b.C`` lives in ``<root>/a/b/C.java``; a package resolves to its first file, so
    that the resolver can then look the imported name up (``submodule`` gives the class file).
    """
    stem = module.replace(".", "/")
    ext = posixpath.splitext(from_path)[1] or ".java"
    for root in (*SOURCE_ROOTS, *_roots_of(from_path, module)):
        if f"{root}{stem}{ext}" in known_paths:
            return f"{root}{stem}{ext}"
    for root in (*SOURCE_ROOTS, *_roots_of(from_path, module)):
        prefix = f"{root}{stem}/"
        files = sorted(p for p in known_paths if p.startswith(prefix) and "/" not in p[len(prefix):])
        if files:
            return files[0]
    return None


def submodule(module: str, name: str) -> str:
    """``import a.b.C`` names class ``C`` in file ``a/b/C.java``."""
    return f"{module}.{name}"


def _roots_of(from_path: str, module: str) -> list[str]:
    """Source roots guessed from the importing file's own directories."""
    parts = posixpath.dirname(from_path).split("/")
    first = module.split(".", 1)[0]
    return ["/".join(parts[:i]) + "/" for i, part in enumerate(parts) if part == first and i > 0]
