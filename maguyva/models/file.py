"""What the scan records of one file."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FileRecord:
    """One scanned file."""

    path: str  # repo-relative POSIX path
    language: str | None  # tree-sitter language name, "markdown", or None for plain text
    size: int
    content_hash: str  # the git blob id of the bytes (maguyva.index.scan.content_digest)
    flags: tuple[str, ...] = ()  # "vendor", "build", "generated", "archive", "test"
