"""Kotlin hooks: ``import a.b.C`` → the file of class ``C`` or of package ``a.b``; implicit ``this``."""

from __future__ import annotations

import posixpath

from maguyva.index.lang import jvm

IMPLICIT_RECEIVER = True  # a bare call inside a class may name one of its methods
SOURCE_ROOTS = ("", "src/main/kotlin/", "src/main/java/", "src/test/kotlin/", "src/", "app/src/main/kotlin/")


def resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """``a.b.C`` → ``<root>/a/b/C.kt`` when it exists, else the first file (sorted) of package
    folder ``a/b`` (top-level functions live in any file of their package)."""
    stem = module.replace(".", "/")
    roots = jvm.source_roots(SOURCE_ROOTS, from_path, module)
    return (
        jvm.type_file(stem, roots, ".kt", known_paths)
        or jvm.first_file_in(stem, roots, ".kt", known_paths)
        or jvm.first_file_in(posixpath.dirname(stem), roots, ".kt", known_paths)
    )


def package_files(path: str, known_paths) -> list[str]:
    """The ``.kt`` files of ``path``'s folder: its package, by convention, sorted."""
    return jvm.package_files(path, known_paths, ".kt")
