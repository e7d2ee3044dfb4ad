"""Kotlin hooks: ``import a.b.C`` → the file of class ``C`` or of package ``a.b``; implicit ``this``."""

from __future__ import annotations

import posixpath

IMPLICIT_RECEIVER = True  # a bare call inside a class may name one of its methods
SOURCE_ROOTS = ("", "src/main/kotlin/", "src/main/java/", "src/test/kotlin/", "src/", "app/src/main/kotlin/")


def resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """``a.b.C`` → ``<root>/a/b/C.kt`` when it exists, else the first file (sorted) of package
    folder ``a/b`` (top-level functions live in any file of their package)."""
    stem = module.replace(".", "/")
    roots = (*SOURCE_ROOTS, *_roots_of(from_path, module))
    for root in roots:
        if f"{root}{stem}.kt" in known_paths:
            return f"{root}{stem}.kt"
    package = posixpath.dirname(stem)
    for candidate in (stem, package):
        for root in roots:
            prefix = f"{root}{candidate}/"
            files = sorted(p for p in known_paths
                           if p.startswith(prefix) and p.endswith(".kt") and "/" not in p[len(prefix):])
            if files:
                return files[0]
    return None


def _roots_of(from_path: str, module: str) -> list[str]:
    """Source roots guessed from the importing file's own folders (where the package begins)."""
    parts = posixpath.dirname(from_path).split("/")
    first = module.split(".", 1)[0]
    return ["/".join(parts[:i]) + "/" for i, part in enumerate(parts) if part == first and i > 0]


def package_files(path: str, known_paths) -> list[str]:
    """The ``.kt`` files of ``path``'s folder: its package, by convention, sorted."""
    directory = posixpath.dirname(path)
    return sorted(p for p in known_paths if p.endswith(".kt") and posixpath.dirname(p) == directory)
