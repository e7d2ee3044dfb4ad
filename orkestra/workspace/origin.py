"""Where a loaded entity was defined: its registry document and the field path inside it."""

from __future__ import annotations

from dataclasses import dataclass

from orkestra.workspace.source import Document


@dataclass(frozen=True, slots=True)
class Origin:
    """Where an entity was defined: its document and the field path inside it."""

    doc: Document
    loc: tuple = ()
