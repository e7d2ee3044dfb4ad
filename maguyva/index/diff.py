"""What changed between the index and the work tree: the index's file states against a scan.

``index`` re-extracts the added and changed files and forgets the deleted ones; ``status`` and
``index --dry-run`` report the same sets.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maguyva.index.scan import ScannedFile, ScanResult
    from maguyva.store.base import FileState


@dataclass(frozen=True, slots=True)
class FileDiff:
    """The paths of a scan, sorted by what happened to them since the index's states were stored."""

    added: set
    changed: set
    deleted: set
    unchanged: set  # the scan's kept paths included
    touched: set  # same content, new mtime
    renamed: int  # deleted/added pairs with identical content
    scanned: dict[str, ScannedFile]  # path → the scan's file (kept paths have none)

    @classmethod
    def between(cls, states: Mapping[str, FileState], scan: ScanResult) -> FileDiff:
        current = {s.record.path: s for s in scan.files}
        added = {p for p in current if p not in states}
        deleted = set(states).difference(current, scan.kept)
        changed = {p for p in current if p in states and states[p].hash != current[p].record.content_hash}
        touched = {p for p in current if p in states and states[p].mtime_ns != current[p].mtime_ns} - changed
        unchanged = set(current) - added - changed
        unchanged.update(scan.kept)
        gone_hashes = {states[p].hash for p in deleted}
        renamed = sum(1 for p in added if current[p].record.content_hash in gone_hashes)
        return cls(added, changed, deleted, unchanged, touched, renamed, current)

    @property
    def any_change(self) -> bool:
        """Whether a file was added, changed or deleted (a touched one changes nothing indexed)."""
        return bool(self.added or self.changed or self.deleted)
