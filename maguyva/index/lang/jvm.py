"""Package layout shared by the JVM languages (Java, Kotlin, Scala): dotted packages are folders."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable


def source_roots(defaults: Iterable[str], from_path: str, module: str) -> list[str]:
    """The conventional roots, then roots guessed from the importing file's own folders (where the
    package begins: ``app/src/com/x/Y.java`` importing ``com.z`` suggests ``app/src/``)."""
    parts = posixpath.dirname(from_path).split("/")
    first = module.split(".", 1)[0]
    guessed = ["/".join(parts[:i]) + "/" for i, part in enumerate(parts) if part == first and i > 0]
    return [*defaults, *guessed]


def type_file(stem: str, roots: Iterable[str], ext: str, known_paths) -> str | None:
    """``<root>/a/b/C<ext>`` for class ``a.b.C`` under the first root that has it."""
    for root in roots:
        if f"{root}{stem}{ext}" in known_paths:
            return f"{root}{stem}{ext}"
    return None


def first_file_in(folder: str, roots: Iterable[str], ext: str | None, known_paths) -> str | None:
    """The first file (sorted) directly inside ``<root>/<folder>/``, of extension ``ext`` if given."""
    for root in roots:
        prefix = f"{root}{folder}/"
        files = sorted(
            p
            for p in known_paths
            if p.startswith(prefix) and "/" not in p[len(prefix) :] and (ext is None or p.endswith(ext))
        )
        if files:
            return files[0]
    return None


def package_files(path: str, known_paths, ext: str) -> list[str]:
    """The ``ext`` files of ``path``'s folder: its package, by convention, sorted."""
    directory = posixpath.dirname(path)
    return sorted(p for p in known_paths if p.endswith(ext) and posixpath.dirname(p) == directory)


def submodule(module: str, name: str) -> str:
    """``import a.b.C`` names type ``C``, which lives in its own file ``a/b/C.<ext>``."""
    return f"{module}.{name}"
