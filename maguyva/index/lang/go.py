"""Go hooks: import paths → the package directory's file, and the name an import binds."""

from __future__ import annotations

import posixpath


def resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """``example.com/mod/pkg/util`` → a ``.go`` file in the repo directory that ends the path.

    The module prefix (from go.mod) is not needed: the longest suffix of the import path that is
    a directory of the repository wins. A package is a directory; its import edge goes to the
    first non-test file in it (sorted), the file a reader opens first.
    """
    parts = module.split("/")
    directories: dict[str, list[str]] = {}
    for path in known_paths:
        if path.endswith(".go") and not path.endswith("_test.go"):
            directories.setdefault(posixpath.dirname(path), []).append(path)
    for start in range(len(parts)):
        files = directories.get("/".join(parts[start:]))
        if files:
            return sorted(files)[0]
    return None


def import_alias(module: str) -> str:
    """The package name an unaliased import binds: the last path element (``gopkg.in/x.v2`` → ``x``)."""
    last = module.rsplit("/", 1)[-1]
    if last.startswith("v") and last[1:].isdigit() and "/" in module:  # major-version suffix
        last = module.rsplit("/", 2)[-2]
    return last.split(".", 1)[0]


def package_files(path: str, known_paths) -> list[str]:
    """The non-test ``.go`` files of ``path``'s directory: one package, sorted."""
    directory = posixpath.dirname(path)
    return sorted(
        p
        for p in known_paths
        if p.endswith(".go") and not p.endswith("_test.go") and posixpath.dirname(p) == directory
    )
