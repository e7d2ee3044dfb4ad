"""Scala hooks: ``import a.b.C`` → ``<root>/a/b/C.scala`` or package folder ``a/b``; implicit ``this``."""

from __future__ import annotations

import posixpath

IMPLICIT_RECEIVER = True  # a bare call inside a class may name one of its methods
FILE_PER_TYPE = True  # class a.b.C usually lives in a/b/C.scala: an import of C targets it
SOURCE_ROOTS = ("", "src/main/scala/", "src/test/scala/", "src/", "app/")


def resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """A class/object file ``a/b/C.scala``, else the first file (sorted) of package folder ``a/b``."""
    stem = module.replace(".", "/")
    roots = (*SOURCE_ROOTS, *_roots_of(from_path, module))
    for root in roots:
        if f"{root}{stem}.scala" in known_paths:
            return f"{root}{stem}.scala"
    for root in roots:
        prefix = f"{root}{stem}/"
        files = sorted(p for p in known_paths
                       if p.startswith(prefix) and p.endswith(".scala") and "/" not in p[len(prefix):])
        if files:
            return files[0]
    return None


def submodule(module: str, name: str) -> str:
    """``import a.b.C`` names ``C``, usually in its own file ``a/b/C.scala``."""
    return f"{module}.{name}"


def _roots_of(from_path: str, module: str) -> list[str]:
    """Source roots guessed from the importing file's own folders (where the package begins)."""
    parts = posixpath.dirname(from_path).split("/")
    first = module.split(".", 1)[0]
    return ["/".join(parts[:i]) + "/" for i, part in enumerate(parts) if part == first and i > 0]


def package_files(path: str, known_paths) -> list[str]:
    """The ``.scala`` files of ``path``'s folder: its package, by convention, sorted."""
    directory = posixpath.dirname(path)
    return sorted(p for p in known_paths if p.endswith(".scala") and posixpath.dirname(p) == directory)
