"""What the index holds and how it compares with the working tree: one library function for
``maguyva status`` (the CLI), the MCP ``index_status`` tool and orkestra's ``system status``.

:func:`read_status` works on an open store; :func:`index_status` opens the repository's own
(readonly) the way every other command finds it; :func:`index_freshness` is the cheap check
(snapshot commit against HEAD) that ``orkestra system status`` shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from maguyva.index.scan import DEFAULT_MAX_BYTES

if TYPE_CHECKING:
    from maguyva.store.base import Store
    from maguyva.store.values import LanguageStats, Snapshot

NOT_IN_MAP_SHOWN = 200  # the MCP answer lists at most this many paths (and gives the count)


@dataclass(frozen=True, slots=True)
class IndexReport:
    """The index's snapshot, its counts per language, and the work not in the map."""

    root: str
    store: str
    snapshot: Snapshot | None
    languages: tuple[LanguageStats, ...]
    added: tuple[str, ...]
    changed: tuple[str, ...]
    deleted: tuple[str, ...]
    embeddings: dict | None  # backend, model, dims, vectors, chunks, coverage (None: settings unknown)

    @property
    def stale(self) -> bool:
        return bool(self.added or self.changed or self.deleted)

    def to_dict(self) -> dict[str, Any]:
        """The ``maguyva status --format json`` answer (docs/cli.md, "status")."""
        snapshot = self.snapshot
        return {
            "root": self.root,
            "store": self.store,
            "commit": snapshot.commit if snapshot else None,
            "indexed_at": snapshot.created_at if snapshot else None,
            "uncommitted_at_index": list(snapshot.dirty) if snapshot else [],
            "languages": {s.language: s.counts() for s in self.languages},
            "totals": {
                key: sum(getattr(s, key) for s in self.languages) for key in ("files", "symbols", "edges")
            },
            "not_in_map": {
                "added": list(self.added),
                "changed": list(self.changed),
                "deleted": list(self.deleted),
            },
            "stale": self.stale,
            "embeddings": self.embeddings,
        }

    def tool_dict(self, uncommitted: tuple[str, ...] = ()) -> dict[str, Any]:
        """The MCP ``index_status`` answer (docs/mcp.md): ``not_in_map`` as ``{path, state}`` rows."""
        changes = sorted(
            [(p, "added") for p in self.added]
            + [(p, "modified") for p in self.changed]
            + [(p, "deleted") for p in self.deleted]
        )
        snapshot = self.snapshot
        return {
            "store": self.store,
            "snapshot": snapshot.as_dict() if snapshot else None,
            "embeddings": self.embeddings,
            "languages": [s.as_row() for s in self.languages],
            "not_in_map": [{"path": p, "state": state} for p, state in changes[:NOT_IN_MAP_SHOWN]],
            "not_in_map_count": len(changes),
            "uncommitted": list(uncommitted)[:NOT_IN_MAP_SHOWN],
        }


def read_status(
    store: Store,
    root: Path | str,
    location: str,
    *,
    embedding_settings: Any = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> IndexReport:
    """The report for the open ``store`` of the repository at ``root``: scans the tree (reading only
    files whose size or stat stamp moved), so added files show as well as changed and deleted ones."""
    from maguyva.index.diff import FileDiff
    from maguyva.index.scan import scan_repository

    root = Path(root)
    states, snapshot, stats = store.known_files(), store.snapshot(), tuple(store.language_stats())
    diff = FileDiff.between(states, scan_repository(root, max_bytes, known=states))
    embeddings = None
    if embedding_settings is not None:
        from maguyva.embed.pipeline import embedding_status

        embeddings = embedding_status(store, embedding_settings)
    return IndexReport(
        str(root),
        location,
        snapshot,
        stats,
        tuple(sorted(diff.added)),
        tuple(sorted(diff.changed)),
        tuple(sorted(diff.deleted)),
        embeddings,
    )


def index_status(
    path: Path | str = ".", store: str | None = None, *, max_bytes: int = DEFAULT_MAX_BYTES
) -> IndexReport:
    """:func:`read_status` of the repository containing ``path`` (its index found as ``index`` finds it,
    ``--store`` > ``$MAGUYVA_STORE`` > ``maguyva.store`` > the git dir), with its embedding settings.

    Raises :class:`~maguyva.errors.StoreError` when there is no index, or no finished run yet."""
    from maguyva.embed.settings import settings_for
    from maguyva.errors import StoreError
    from maguyva.store import open_store
    from maguyva.store.location import locating, settle_root

    root, location = locating(Path(path), store)()
    opened = open_store(location, readonly=True)
    try:
        root = settle_root(opened.recorded_root(), root, rebuild=False)
        if opened.snapshot() is None and not opened.file_states():  # created, but the first run was killed
            raise StoreError(f"no index at {location} yet (no run has finished): run `orkestra code index`")
        return read_status(
            opened, root, str(location), embedding_settings=settings_for(root), max_bytes=max_bytes
        )
    finally:
        opened.close()


def index_freshness(root: Path | str, store: str | None = None) -> dict[str, Any]:
    """``{"present": false}`` without an index, else ``{"present": true, "store", "snapshot": {"commit",
    "created_at", "dirty"} | null, "head", "fresh"}`` (+ ``"problem"`` when it cannot be read).

    Cheap: no scan, one readonly open and ``git rev-parse HEAD``. The store is found as every other
    command finds it (``$MAGUYVA_STORE`` relative to the cwd, a ``postgresql://`` URL opened as such).
    """
    from maguyva.errors import ConfigError, MaguyvaError
    from maguyva.git import head_commit
    from maguyva.store import open_store
    from maguyva.store.location import locating

    try:
        root, location = locating(Path(root), store)()
    except ConfigError as exc:  # orkestra.yaml names a store it may not (outside the repository, say)
        return {"present": False, "problem": str(exc)}
    except MaguyvaError:  # not a git repository, no store named
        return {"present": False}
    if isinstance(location, Path) and not location.is_file():
        return {"present": False}
    head = head_commit(root)
    report: dict[str, Any] = {
        "present": True,
        "store": str(location),
        "snapshot": None,
        "head": head,
        "fresh": False,
    }
    try:
        opened = open_store(location, readonly=True)
        try:
            snapshot = opened.snapshot()
        finally:
            opened.close()
    except MaguyvaError as exc:
        report["problem"] = str(exc)
        return report
    if snapshot is None:
        report["problem"] = "the index has no snapshot yet"
        return report
    report["snapshot"] = snapshot.as_dict()
    report["fresh"] = bool(snapshot.commit and head and snapshot.commit == head)
    return report
