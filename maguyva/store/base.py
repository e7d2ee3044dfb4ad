"""The store interface: everything the indexer writes and retrieval reads, with no SQL in sight.

``SQLiteStore`` implements it today; a PostgreSQL backend will implement the same methods.
Results are frozen values; every hit carries ``path`` and a line span for ``path:line`` citations.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # hints only: a command imports the records it reads, and no others
    import numpy as np

    from maguyva.models import Edge, FileExtraction, FileRecord, Reference, Symbol
    from maguyva.store.filetext import FileText
    from maguyva.store.values import Centrality, ChunkRow, LanguageStats, Snapshot


@dataclass(frozen=True, slots=True)
class Span:
    """A ``path:line`` hit from a text search."""

    path: str
    line: int
    end_line: int
    text: str  # the matching line (literal search) or the chunk text (BM25)
    score: float = 0.0
    symbol: str | None = None


class FileState(NamedTuple):
    """What the index holds of one file: enough for a scan to tell it unchanged without reading it
    (``Store.known_files``; ``maguyva.index.scan``), and with its labels without even opening it."""

    size: int
    mtime_ns: int  # the stat stamp (``maguyva.index.scan.stat_stamp``); 0: smudged, never trusted
    hash: str  # the content hash: the file's git blob id
    language: str | None = None
    flags: tuple[str, ...] | None = None  # None: the store does not know the labels (nor the language)

    @property
    def labelled(self) -> bool:
        """Whether the language and flags are known (a scan then reads nothing of an unchanged file)."""
        return self.flags is not None


class Store(ABC):
    """A Maguyva index. Writes happen inside ``transaction()``; reads work at any time."""

    # ---- lifecycle ----
    @abstractmethod
    def transaction(self) -> AbstractContextManager[None]: ...
    @abstractmethod
    def close(self) -> None: ...
    @abstractmethod
    def integrity_check(self) -> str: ...
    @abstractmethod
    def clear(self) -> None:
        """Forget every indexed row, inside the open transaction (``index --full``): a run killed before
        it commits leaves the previous index, which readers keep seeing until then."""

    def bulk_load(self) -> AbstractContextManager[None]:
        """Around a clean run's inserts, inside its transaction: a backend may defer its secondary
        indexes until the tables are full. Only writes happen inside."""
        return nullcontext()

    def deferred(self, *writes: str) -> Iterator[None]:
        """Inside ``bulk_load``, once the run is done with ``writes`` ("files", "edges",
        "centrality"): the work the bulk load deferred for what only those fill, one short step per
        item, for the caller to take while other processes or threads compute (none by default)."""
        return iter(())

    def recorded_root(self) -> str | None:
        """The directory this index was built from, when the store records it."""
        return None

    def record_root(self, root: str) -> None:
        """Remember the directory this index is built from (stores without a place for it ignore this)."""
        return None

    def recorded_listing(self) -> str | None:
        """The last run's git listing record (``maguyva.index.listing.ListingRecord`` JSON), if kept."""
        return None

    def record_listing(self, record: str) -> None:
        """Keep this run's listing record for the next run (stores without a place for it ignore this:
        their runs take git's full listing)."""
        return None

    # ---- writes (the indexer) ----
    @abstractmethod
    def file_states(self) -> dict[str, tuple[int, int, str]]:
        """path → (size, mtime_ns, content hash) of every indexed file."""

    def file_labels(self) -> dict[str, tuple[str | None, tuple[str, ...]]]:
        """path → (language, flags) of every indexed file ({} when a backend cannot say)."""
        return {}

    def known_files(self) -> dict[str, FileState]:
        """path → ``FileState`` of every indexed file: what a scan needs to skip unchanged files without
        opening them (unlabelled where ``file_labels`` does not know them)."""
        labels = self.file_labels()
        return {
            p: FileState(*state, *labels[p]) if p in labels else FileState(*state)
            for p, state in self.file_states().items()
        }

    def known_files_of(self, paths: Iterable[str]) -> dict[str, FileState]:
        """``known_files`` of the indexed ones among ``paths`` (a quick git listing names a few)."""
        wanted = set(paths)
        return {p: state for p, state in self.known_files().items() if p in wanted}

    @abstractmethod
    def put_file(
        self, record: FileRecord, mtime_ns: int, extraction: FileExtraction, text: str | FileText
    ) -> None:
        """Replace everything stored for ``record.path`` (file row, symbols, references, chunks, text);
        ``text`` may come compressed and gram-tokenised by a worker (``maguyva.store.filetext``)."""

    @abstractmethod
    def touch_file(self, path: str, mtime_ns: int) -> None:
        """Record a new mtime for a file whose content did not change."""

    @abstractmethod
    def delete_file(self, path: str) -> None: ...
    @abstractmethod
    def replace_edges(self, src_paths: Iterable[str], edges: Iterable[Edge]) -> None:
        """Drop the edges out of ``src_paths`` and insert ``edges`` (all from those paths)."""

    @abstractmethod
    def replace_reference_edges(self, edges: Iterable[Edge]) -> None:
        """Replace the edges of the references these edges come from (same path, line, col, kind, name)."""

    @abstractmethod
    def set_centrality(self, rows: Iterable[Centrality]) -> None:
        """Replace all centrality rows."""

    @abstractmethod
    def add_snapshot(self, snapshot: Snapshot) -> None: ...

    # ---- what resolution needs (also a ``maguyva.index.resolve.Definitions``) ----
    @abstractmethod
    def known_paths(self) -> Mapping[str, str | None]:
        """path → language of every indexed file."""

    @abstractmethod
    def symbols_named(self, name: str) -> Sequence[Symbol]: ...
    @abstractmethod
    def symbols_in(self, path: str) -> Sequence[Symbol]: ...
    @abstractmethod
    def symbols_qualified(self, qualified_name: str) -> Sequence[Symbol]: ...
    @abstractmethod
    def references_in(self, path: str) -> Sequence[Reference]: ...
    @abstractmethod
    def references_named(self, names: Iterable[str]) -> list[Reference]:
        """Every reference, in any file, whose name is in ``names``."""

    @abstractmethod
    def edges_named(self, names: Iterable[str]) -> list[Edge]:
        """Every edge (any resolution) whose referenced name is in ``names``."""

    @abstractmethod
    def paths_importing(self, fragments: Iterable[str]) -> set[str]:
        """Files with an import whose module or name contains one of ``fragments``."""

    @abstractmethod
    def paths_inheriting_from(self, paths: Iterable[str]) -> set[str]:
        """Files with a resolved ``inherits`` edge into one of ``paths``."""

    @abstractmethod
    def all_edges(self, resolved_only: bool = True) -> list[Edge]: ...

    # ---- retrieval ----
    @abstractmethod
    def find_symbols(
        self,
        name: str,
        *,
        kind: str | None = None,
        qualified: bool = False,
        prefix: bool = False,
        limit: int = 50,
    ) -> list[Symbol]:
        """Symbols by name (or qualified name), exact or by prefix, optionally of one kind."""

    # ---- vectors (packed embedding bits per chunk, keyed by "backend/model/dims") ----
    searches_vectors = False  # True when ``nearest_vectors`` runs inside the store (PostgreSQL)

    def nearest_vectors(self, model: str, query: np.ndarray, limit: int) -> list[tuple[int, int]]:
        """Top-``limit`` (chunk id, Hamming distance) for packed ``query`` bits; only if ``searches_vectors``."""
        raise NotImplementedError(f"{type(self).__name__} loads vectors; search them with HammingIndex")

    @abstractmethod
    def chunks_without_vectors(self, model: str) -> list[ChunkRow]: ...
    @abstractmethod
    def put_vectors(self, model: str, rows: Iterable[tuple[int, bytes]]) -> None: ...
    @abstractmethod
    def load_vectors(self, model: str) -> tuple[np.ndarray, np.ndarray]:
        """(chunk ids, packed bits as an (n, dims/8) uint8 matrix)."""

    @abstractmethod
    def vector_version(self, model: str) -> tuple[int, int]:
        """A value that changes whenever vectors for ``model`` are added or dropped."""

    @abstractmethod
    def vector_coverage(self, model: str) -> tuple[int, int]:
        """(chunks with a vector for ``model``, all chunks)."""

    @abstractmethod
    def chunks_by_id(self, ids: Sequence[int]) -> dict[int, ChunkRow]: ...

    @abstractmethod
    def query_symbols(
        self,
        *,
        kind: str | None = None,
        name_glob: str | None = None,
        signature_like: str | None = None,
        path_prefix: str | None = None,
        limit: int = 50,
    ) -> list[Symbol]:
        """Structural search: kind, a glob on the name (``parse_*``), signature substring, path prefix."""

    @abstractmethod
    def edges_out(self, path: str, symbol: str | None = None) -> list[Edge]: ...
    @abstractmethod
    def edges_in(self, path: str | None = None, symbol: str | None = None) -> list[Edge]: ...

    def neighbour_files(self, paths: Sequence[str]) -> dict[str, set[str]]:
        """Per path, the other files it has an edge to or from (backends answer it in one query)."""
        found: dict[str, set[str]] = {p: set() for p in paths}
        for path in paths:
            found[path] |= {e.dst_path for e in self.edges_out(path) if e.dst_path}
            found[path] |= {e.src_path for e in self.edges_in(path)}
            found[path].discard(path)
        return found

    @abstractmethod
    def search_literal(self, text: str, limit: int = 50) -> list[Span]:
        """Case-insensitive substring matches (trigram index), one span per matching line."""

    @abstractmethod
    def search_bm25(self, query: str, limit: int = 20) -> list[Span]:
        """Chunks ranked by BM25 over identifier-split words, docstrings and comments."""

    # ---- batched reads: one round trip for a list of paths or symbols (a ranked answer's hits) ----
    # Each backend answers these with one query; the defaults below keep any other Store working.
    def file_records(self, paths: Iterable[str]) -> dict[str, FileRecord]:
        """path → record of every indexed file among ``paths`` (unknown paths are left out)."""
        return {p: r for p in dict.fromkeys(paths) if (r := self.file_record(p)) is not None}

    def file_texts(self, paths: Iterable[str]) -> dict[str, str]:
        """path → indexed text of every file among ``paths`` that has one."""
        return {p: t for p in dict.fromkeys(paths) if (t := self.file_text(p)) is not None}

    def symbols_in_paths(self, paths: Iterable[str]) -> dict[str, list[Symbol]]:
        """path → its symbols (in ``symbols_in`` order) for every path among ``paths``; [] when it has none."""
        return {p: list(self.symbols_in(p)) for p in dict.fromkeys(paths)}

    def centralities(
        self, keys: Iterable[tuple[str, str | None]]
    ) -> dict[tuple[str, str | None], Centrality]:
        """(path, symbol or None for the file) → centrality, for the keys that have a row."""
        return {k: c for k in dict.fromkeys(keys) if (c := self.centrality(*k)) is not None}

    @abstractmethod
    def file_text(self, path: str) -> str | None: ...
    @abstractmethod
    def file_record(self, path: str) -> FileRecord | None: ...
    @abstractmethod
    def snapshot(self) -> Snapshot | None: ...
    @abstractmethod
    def centrality(self, path: str, symbol: str | None = None) -> Centrality | None: ...
    @abstractmethod
    def top_central(self, limit: int = 20, files: bool = False) -> list[Centrality]: ...
    @abstractmethod
    def language_stats(self) -> list[LanguageStats]: ...
    @abstractmethod
    def edge_counts(self) -> dict[str, int]:
        """Number of edges per resolution (resolved, external, ambiguous, …)."""
