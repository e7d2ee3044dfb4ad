"""Scala hooks: ``import a.b.C`` → ``<root>/a/b/C.scala`` or package folder ``a/b``; implicit ``this``."""

from __future__ import annotations

from maguyva.index.lang import jvm

IMPLICIT_RECEIVER = True  # a bare call inside a class may name one of its methods
FILE_PER_TYPE = True  # class a.b.C usually lives in a/b/C.scala: an import of C targets it
SOURCE_ROOTS = ("", "src/main/scala/", "src/test/scala/", "src/", "app/")
submodule = jvm.submodule


def resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """A class/object file ``a/b/C.scala``, else the first file (sorted) of package folder ``a/b``."""
    stem = module.replace(".", "/")
    roots = jvm.source_roots(SOURCE_ROOTS, from_path, module)
    return jvm.type_file(stem, roots, ".scala", known_paths) or jvm.first_file_in(
        stem, roots, ".scala", known_paths
    )


def package_files(path: str, known_paths) -> list[str]:
    """The ``.scala`` files of ``path``'s folder: its package, by convention, sorted."""
    return jvm.package_files(path, known_paths, ".scala")
