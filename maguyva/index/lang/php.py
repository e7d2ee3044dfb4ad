"""PHP hooks: namespaces → files by PSR-4 convention (``App\\X\\Y`` → ``src/X/Y.php``)."""

from __future__ import annotations

import posixpath

FILE_PER_TYPE = True  # PSR-4: class A\B\C lives in B/C.php, an import of C targets the class
SOURCE_ROOTS = ("src/", "", "lib/", "app/")


def resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """A class ``Vendor\\Pkg\\Name`` → ``<root>/Pkg/Name.php`` (any leading segments dropped);
    a namespace → the first file (sorted) of its folder; a path string (require) → that file."""
    if module.endswith(".php"):
        here = posixpath.dirname(from_path)
        for path in (posixpath.normpath(posixpath.join(here, module)), module.lstrip("/")):
            if path in known_paths:
                return path
        return None
    parts = module.strip("\\").split("\\")
    for start in range(len(parts)):
        tail = "/".join(parts[start:])
        for root in SOURCE_ROOTS:
            if f"{root}{tail}.php" in known_paths:
                return f"{root}{tail}.php"
        for root in SOURCE_ROOTS:
            prefix = f"{root}{tail}/" if tail else root
            files = sorted(
                p
                for p in known_paths
                if p.startswith(prefix) and p.endswith(".php") and "/" not in p[len(prefix) :]
            )
            if files:
                return files[0]
    return _root_file(parts, known_paths)


def _root_file(parts: list[str], known_paths) -> str | None:
    """The vendor namespace itself (``Library``) → the first file directly under a source root."""
    if len(parts) != 1:
        return None
    for root in SOURCE_ROOTS[:1]:
        files = sorted(
            p for p in known_paths if p.startswith(root) and p.endswith(".php") and "/" not in p[len(root) :]
        )
        if files:
            return files[0]
    return None


def submodule(module: str, name: str) -> str:
    """``use A\\B\\C;`` names class ``C``, in its own file ``B/C.php``."""
    return f"{module}\\{name}"
