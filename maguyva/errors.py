"""Maguyva's error tree. Errors the user can act on say where (path and, when known, line)."""

from __future__ import annotations

from orkestra.errors import OrkestraError


class MaguyvaError(OrkestraError):
    """Base error of the maguyva package."""


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
