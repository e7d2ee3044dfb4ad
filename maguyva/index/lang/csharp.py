"""C# hooks: namespaces → their folder (by convention), implicit ``this`` for bare calls."""

from __future__ import annotations

import posixpath

IMPLICIT_RECEIVER = True  # a bare call inside a class may name one of its methods
FILE_PER_TYPE = True  # `using static A.B.C;` → the class C in its own file C.cs


def resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """``Company.App.Models`` → the first ``.cs`` file (sorted) of the folder that ends the
    longest tail of the namespace (``Company/App/Models``, ``App/Models``, ``Models``).

    The namespace ↔ folder convention is the one the .NET SDK and IDEs follow; a namespace
    spans files, so its import edge goes to the file a reader opens first. ``using static``
    and alias imports name a class, found by ``submodule`` (``Models/Book.cs``).
    """
    folders: dict[str, list[str]] = {}
    for path in known_paths:
        if path.endswith(".cs"):
            folders.setdefault(posixpath.dirname(path), []).append(path)
    parts = module.split(".")
    for start in range(len(parts)):
        tail = "/".join(parts[start:])
        if f"{tail}.cs" in known_paths:
            return f"{tail}.cs"
        matches = sorted(d for d in folders if d == tail or d.endswith(f"/{tail}"))
        if matches:
            return sorted(folders[matches[0]])[0]
    return None


def submodule(module: str, name: str) -> str:
    """``using static A.Models.Book;`` → the file of class ``Book``: ``A/Models/Book``."""
    return f"{module}.{name}"
