"""Java hooks: package names → the source file of a class; bare calls may be methods."""

from __future__ import annotations

import posixpath

from maguyva.index.lang import jvm

IMPLICIT_RECEIVER = True  # a bare call inside a class may name one of its methods
FILE_PER_TYPE = True  # class a.b.C lives in a/b/C.java: an import of C targets the class
SOURCE_ROOTS = ("", "src/main/java/", "src/test/java/", "src/", "app/src/main/java/")
submodule = jvm.submodule


def resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """``com.example.model`` (a package, or a class for static imports) → a file in the repo.

    A class ``a.b.C`` lives in ``<root>/a/b/C.java``; a package resolves to its first file, so
    that the resolver can then look the imported name up (``submodule`` gives the class file).
    """
    stem = module.replace(".", "/")
    roots = jvm.source_roots(SOURCE_ROOTS, from_path, module)
    ext = posixpath.splitext(from_path)[1] or ".java"
    return jvm.type_file(stem, roots, ext, known_paths) or jvm.first_file_in(stem, roots, None, known_paths)
