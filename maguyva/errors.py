"""Maguyva's error tree. Errors the user can act on say where (path and, when known, line).

Maguyva stands alone: this tree has its own root, :class:`MaguyvaError`, with an ``exit_code``
(1 by default, 2 for usage errors) that both CLIs (``maguyva …`` and ``orkestra code …``) turn
into the process exit code.
"""

from __future__ import annotations

from collections.abc import Iterable


class MaguyvaError(Exception):
    """Base error of the maguyva package."""

    exit_code = 1


class UsageError(MaguyvaError):
    """The caller asked for something that cannot be done as asked."""

    exit_code = 2


class NotFoundError(MaguyvaError):
    """An id or name that does not exist; carries close matches for a hint."""

    def __init__(self, kind: str, name: str, candidates: Iterable[str] = ()):
        import difflib  # only to word this error: not on every command's start-up

        self.kind, self.name = kind, name
        self.suggestions = difflib.get_close_matches(name, list(candidates), n=3, cutoff=0.6)
        hint = f" (did you mean {', '.join(repr(s) for s in self.suggestions)}?)" if self.suggestions else ""
        super().__init__(f"unknown {kind} {name!r}{hint}")


class ConfigError(MaguyvaError):
    """``orkestra.yaml`` (its ``maguyva:`` section) cannot be read or is invalid: says file, line and field."""

    def __init__(self, path: str, message: str, line: int | None = None, field: str | None = None):
        self.path, self.line, self.field = path, line, field
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {field}: {message}" if field else f"{where}: {message}")


class ParseError(MaguyvaError):
    """A file could not be parsed (unknown grammar, budget exceeded, grammar failure)."""

    def __init__(self, path: str, message: str, line: int | None = None):
        self.path, self.line = path, line
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {message}")


class StoreError(MaguyvaError):
    """The index store is missing, unreadable or from an incompatible schema."""


class SchemaVersionError(StoreError):
    """The index was written by another schema version: it cannot serve and is rebuilt on the next index run."""


class NotARepositoryError(MaguyvaError):
    """The path given is not inside a git repository (and no --store was given)."""

    exit_code = 2
