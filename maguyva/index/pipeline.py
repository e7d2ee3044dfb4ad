"""scan → parse → extract → resolve → graph → store, incremental by content hash.

``extract_tree`` is the pure, store-less path (fixtures, the quality gate). ``index_repository``
brings a store up to date: only added, changed, renamed and deleted files are re-extracted, and
every file whose references might now resolve differently is re-resolved, so the result equals
a clean index. All writes of one run happen in one transaction, a ``--full`` rebuild's clearing
included: a run killed at any moment leaves the previous index intact and serving. Every entry
point resolves the repository and its store first (``maguyva.store.location.locating``): a run from a
subdirectory updates the whole repository's index.
"""

from __future__ import annotations

import posixpath
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from maguyva.errors import SchemaVersionError, StoreError
from maguyva.git import head_commit, uncommitted_later
from maguyva.index.definitions import MemoryDefinitions, StoreDefinitions
from maguyva.index.diff import FileDiff
from maguyva.index.graph import Links
from maguyva.index.listing import Listed, ListingRecord
from maguyva.index.parse import DEFAULT_BUDGET_MS
from maguyva.index.resolve import Resolver, is_fact, resolve_all
from maguyva.index.scan import DEFAULT_MAX_BYTES, GitListing, ScanResult, scan_repository, utf8_name
from maguyva.index.workers import extract_records, iter_extractions, iter_resolved
from maguyva.memory import paused_gc
from maguyva.models import Edge, FileExtraction, Symbol
from maguyva.store import Store, open_store, reset_store, store_exists
from maguyva.store.base import FileState
from maguyva.store.location import locating, settle_root
from maguyva.store.values import LanguageStats, Snapshot

Progress = Callable[[str, int, int], None]  # (stage, done, total)


@dataclass(frozen=True, slots=True)
class IndexSummary:
    """What one ``index_repository`` run did."""

    root: str
    store: str
    mode: str  # "full" | "incremental"
    files: int
    added: int
    changed: int
    deleted: int
    renamed: int
    unchanged: int
    reresolved: int  # files whose references were resolved again
    symbols: int
    edges: int
    unresolved: int
    skipped: int
    seconds: float
    commit: str | None
    errors: tuple[str, ...] = ()
    languages: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class IndexPlan:
    """What ``index_repository`` would do (``--dry-run``): nothing is written."""

    root: str
    store: str
    languages: dict  # language → number of files
    flagged: dict  # flag → number of files
    skipped: list  # [{"path", "reason"}]
    added: int
    changed: int
    deleted: int
    unchanged: int

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class IndexStatus:
    """The index's snapshot and what has changed in the working tree since (``not_in_map``)."""

    root: str
    store: str
    commit: str | None
    indexed_at: str | None
    uncommitted_at_index: list
    languages: dict
    totals: dict
    not_in_map: dict  # {"added": [...], "changed": [...], "deleted": [...]}
    stale: bool

    def to_dict(self) -> dict:
        return asdict(self)


def extract_tree(
    root: Path | str, max_bytes: int = DEFAULT_MAX_BYTES, budget_ms: int = DEFAULT_BUDGET_MS
) -> tuple[list[FileExtraction], list[Edge]]:
    """Scan, parse, extract and resolve a directory (git repository or not), without a store."""
    root = Path(root)
    records = [scanned.record for scanned in scan_repository(root, max_bytes).files]
    extractions = extract_records(root, records, budget_ms)
    return extractions, resolve_all(extractions)


def plan_index(
    root: Path | str,
    store_path: Path | str | None = None,
    full: bool = False,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> IndexPlan:
    """Preview an index run: files per language, flags, skipped files with reasons, the diff."""
    root, path = locating(root, store_path)()
    states: dict = {}
    if store_exists(path):
        root, states = _read_states(path, root, full)
    states = {} if full else states
    scan = scan_repository(root, max_bytes, known=states)
    diff = FileDiff.between(states, scan)
    languages: dict[str, int] = {}
    flagged: dict[str, int] = {}
    described = [(s.record.language, s.record.flags) for s in scan.files]
    for language, flags in described + [(states[p].language, states[p].flags or ()) for p in scan.kept]:
        language = language or "text"
        languages[language] = languages.get(language, 0) + 1
        for flag in flags:
            flagged[flag] = flagged.get(flag, 0) + 1
    return IndexPlan(
        root=str(root),
        store=str(path),
        languages=dict(sorted(languages.items())),
        flagged=dict(sorted(flagged.items())),
        skipped=[{"path": s.path, "reason": s.reason} for s in scan.skipped],
        added=len(diff.added),
        changed=len(diff.changed),
        deleted=len(diff.deleted),
        unchanged=len(diff.unchanged),
    )


def index_status(
    root: Path | str, store_path: Path | str | None = None, max_bytes: int = DEFAULT_MAX_BYTES
) -> IndexStatus:
    """Report the last snapshot and the files that changed since it. Writes nothing."""
    root, path = locating(root, store_path)()
    store = open_store(path, readonly=True)
    try:
        root = settle_root(store.recorded_root(), root, rebuild=False)
        states, snapshot, stats = store.known_files(), store.snapshot(), store.language_stats()
    finally:
        store.close()
    if snapshot is None and not states:  # created, but no run committed (the first one was killed)
        raise StoreError(f"no index at {path} yet (no run has finished): run `orkestra code index`")
    diff = FileDiff.between(states, scan_repository(root, max_bytes, known=states))
    not_in_map = {
        "added": sorted(diff.added),
        "changed": sorted(diff.changed),
        "deleted": sorted(diff.deleted),
    }
    return IndexStatus(
        root=str(root),
        store=str(path),
        commit=snapshot.commit if snapshot else None,
        indexed_at=snapshot.created_at if snapshot else None,
        uncommitted_at_index=list(snapshot.dirty) if snapshot else [],
        languages={s.language: {"files": s.files, "symbols": s.symbols, "edges": s.edges} for s in stats},
        totals={
            "files": sum(s.files for s in stats),
            "symbols": sum(s.symbols for s in stats),
            "edges": sum(s.edges for s in stats),
        },
        not_in_map=not_in_map,
        stale=any(not_in_map.values()),
    )


@paused_gc()  # millions of long-lived records: GC passes would walk them all for nothing
def index_repository(
    root: Path | str,
    store_path: Path | str | None = None,
    full: bool = False,
    progress: Progress | None = None,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    budget_ms: int = DEFAULT_BUDGET_MS,
    workers: int | None = None,
) -> IndexSummary:
    """Create or update the index of the repository at ``root``; return what was done."""
    run = IndexRun(
        root, store_path, full, progress, max_bytes=max_bytes, budget_ms=budget_ms, workers=workers
    )
    return run.run()


@dataclass(frozen=True, slots=True)
class KnownFiles:
    """What the store knows before a run: its file states (every file's, or on a quick git listing
    only those of the paths it names, ``indexed`` then holding every path → language) and the
    last run's listing record."""

    states: dict[str, FileState]
    indexed: Mapping[str, str | None] | None
    recorded: str | None  # the listing record as stored (JSON)
    record: ListingRecord | None

    @property
    def empty(self) -> bool:
        """An empty index (a first or ``--full`` run): every file is new, the tables are filled in bulk."""
        return not self.states and not self.indexed

    def languages(self) -> Mapping[str, str | None]:
        """Path → language of every indexed file."""
        return self.indexed if self.indexed is not None else {p: s.language for p, s in self.states.items()}


class IndexRun:
    """One ``index_repository`` run, a method per stage in the order ``run`` calls them: list the
    files (``read_known``, ``list_files``), diff them against the index (``FileDiff``), then in one
    transaction ``begin``, ``forget`` the deleted files, ``extract`` and store the added and changed
    ones, ``resolve`` what may now resolve differently, ``rank_graph`` and ``add_snapshot``; then
    ``prepare_ranker`` and the ``summary``."""

    def __init__(
        self,
        root: Path | str,
        store_path: Path | str | None,
        full: bool,
        progress: Progress | None,
        *,
        max_bytes: int,
        budget_ms: int,
        workers: int | None,
    ):
        self.started = time.perf_counter()
        self.root, self.path = locating(root, store_path)()
        self.full, self.max_bytes, self.budget_ms, self.workers = full, max_bytes, budget_ms, workers
        self.report: Progress = progress or (lambda stage, done, total: None)

    def run(self) -> IndexSummary:
        listing = GitListing(self.root)  # git lists the files while the store is read
        self.store = store = _open_for_update(self.path, self.full)
        try:
            known, listing = self.read_known(listing)
            scan, listed = self.list_files(known, listing)
            diff = FileDiff.between(known.states, scan)
            clean = known.empty
            dirty = _uncommitted(self.root, listed) if clean or diff.any_change else None
            with store.transaction():
                self.begin(known, scan)
                old_symbols = self.forget(diff)
                # a clean run fills empty tables: its indexes are built once at the end
                with store.bulk_load() if clean else nullcontext():
                    extractions = self.extract(scan, diff)
                    reresolved, links = self.resolve(known, diff, extractions, old_symbols, clean)
                    self.rank_graph(links, clean)
                if clean or diff.any_change:
                    self.add_snapshot(listed, dirty)
                edge_counts = store.edge_counts()  # counted once after a change, then kept by the store
            self.prepare_ranker()
            stats, snapshot = store.language_stats(), store.snapshot()
        finally:
            store.close()
        return self.summary(scan, diff, clean, extractions, reresolved, edge_counts, stats, snapshot)

    def read_known(self, listing: GitListing) -> tuple[KnownFiles, GitListing | None]:
        """The store's root, last listing record and file states. An index kept for an enclosing root
        lists that root (this root's listing is dropped); on a quick git listing (the few paths it
        names are all there is to look at) only those paths' states are read."""
        store = self.store
        settled = settle_root(store.recorded_root(), self.root, rebuild=self.full)
        if settled != self.root:  # the index belongs to an enclosing root: list that one
            listing.result()
            listing = None
        self.root = settled
        recorded = store.recorded_listing()
        record, salt = ListingRecord.from_json(recorded), str(self.max_bytes)
        quick = None
        if listing is not None and not self.full and listing.may_be_quick(record, salt):
            quick = listing.result(record, salt)
            quick = quick if quick is not None and quick.quick is not None else None
        indexed = None
        if self.full:
            states = {}
        elif quick is not None:
            indexed = store.known_paths()
            walked = tuple(top + "/" for top in quick.nested)  # nested repositories: walked, as always
            asked = [p for p in quick.paths if utf8_name(p)]  # a name that is not can never be stored
            states = store.known_files_of(asked + [p for p in indexed if p.startswith(walked)])
        else:
            if listing is not None:
                listing.start_tracked()  # ls-files beside git status, while every state is read
            states = store.known_files()
        return KnownFiles(states, indexed, recorded, record), listing

    def list_files(self, known: KnownFiles, listing: GitListing | None) -> tuple[ScanResult, Listed | None]:
        """The work tree's files (unchanged ones unread) and git's listing: HEAD, uncommitted paths."""
        scan = scan_repository(
            self.root,
            self.max_bytes,
            known=known.states,
            listing=listing,
            recorded=known.record,
            indexed=known.indexed,
        )
        return scan, listing.result() if listing is not None else None  # (memoised)

    def begin(self, known: KnownFiles, scan: ScanResult) -> None:
        """A ``--full`` run clears the index inside the transaction (until it commits, readers see the
        old one); the root and the listing record are written only when they moved (a no-op run
        writes nothing: no WAL frames to checkpoint)."""
        store = self.store
        if self.full:
            store.clear()
        if store.recorded_root() != str(self.root):
            store.record_root(str(self.root))
        if scan.record is not None and scan.record.to_json() != known.recorded:
            store.record_listing(scan.record.to_json())

    def forget(self, diff: FileDiff) -> dict[str, Sequence[Symbol]]:
        """Delete the deleted files; return the symbols the changed and deleted ones had."""
        old_symbols = {path: self.store.symbols_in(path) for path in diff.changed | diff.deleted}
        for gone in sorted(diff.deleted):
            self.store.delete_file(gone)
        return old_symbols

    def extract(self, scan: ScanResult, diff: FileDiff) -> list[FileExtraction]:
        """Parse and extract the added and changed files, storing each batch while the workers go on
        (each file is read once: by the scan or by its worker); record touched files' new stamps."""
        store, scanned, redo = self.store, diff.scanned, diff.added | diff.changed
        todo = [s.record for s in scan.files if s.record.path in redo]
        sources = {s.record.path: s.data for s in scan.files if s.data is not None}
        extractions: list[FileExtraction] = []
        self.report("extract", 0, len(todo))
        batches = iter_extractions(
            self.root, todo, self.budget_ms, self.workers, with_text=True, sources=sources
        )
        for batch in batches:
            for extraction, text in batch:
                store.put_file(
                    scanned[extraction.path].record, scanned[extraction.path].mtime_ns, extraction, text
                )
            extractions += [replace(e, chunks=()) for e, _ in batch]  # stored; resolution needs no text
            self.report("extract", len(extractions), len(todo))
        for touched in diff.touched:
            store.touch_file(touched, scanned[touched].mtime_ns)
        return extractions

    def resolve(
        self,
        known: KnownFiles,
        diff: FileDiff,
        extractions: list[FileExtraction],
        old_symbols: dict[str, Sequence[Symbol]],
        clean: bool,
    ) -> tuple[set[str], Links | None]:
        """Resolve every file of a clean run, or re-resolve what this change can affect; return the
        files resolved and the graph when it changed (None: centrality stands)."""
        self.report("resolve", 0, 1)
        if clean:
            reresolved = {e.path for e in extractions}
            links: Links | None = _resolve_clean(self.store, extractions, self.workers)
        elif not diff.any_change:  # nothing can resolve differently
            reresolved, links = set(), None
        else:
            languages = _languages_after(known.languages(), diff)
            reresolved, graph_changed = _reresolve(self.store, diff, extractions, old_symbols, languages)
            links = Links.of(self.store.all_edges()) if graph_changed else None
        self.report("resolve", 1, 1)
        return reresolved, links

    def rank_graph(self, links: Links | None, clean: bool) -> None:
        """Store the graph's centrality when it changed."""
        self.report("graph", 0, 1)
        if links is not None:
            self.store.set_centrality(_centrality(self.store, links) if clean else links.centrality())
        self.report("graph", 1, 1)

    def add_snapshot(self, listed: Listed | None, dirty: Callable[[], tuple[str, ...]]) -> None:
        """What this index was built from: HEAD and the uncommitted paths."""
        self.store.add_snapshot(
            Snapshot(
                commit=listed.head if listed is not None else head_commit(self.root),
                dirty=dirty(),
                created_at=datetime.now(UTC).isoformat(timespec="seconds"),
            )
        )

    def prepare_ranker(self) -> None:
        """The search ranker's index, kept beside the store: the first question costs what the second does."""
        from maguyva.retrieve.cache import prepare

        self.report("rank", 0, 1)
        prepare(self.store, str(self.path))
        self.report("rank", 1, 1)

    def summary(
        self,
        scan: ScanResult,
        diff: FileDiff,
        clean: bool,
        extractions: list[FileExtraction],
        reresolved: set[str],
        edge_counts: dict[str, int],
        stats: list[LanguageStats],
        snapshot: Snapshot | None,
    ) -> IndexSummary:
        return IndexSummary(
            root=str(self.root),
            store=str(self.path),
            mode="full" if clean else "incremental",
            files=len(scan.files) + len(scan.kept),
            added=len(diff.added),
            changed=len(diff.changed),
            deleted=len(diff.deleted),
            renamed=diff.renamed,
            unchanged=len(diff.unchanged),
            reresolved=len(reresolved),
            symbols=sum(s.symbols for s in stats),
            edges=edge_counts.get("resolved", 0) + edge_counts.get("inferred", 0),
            unresolved=sum(
                n for resolution, n in edge_counts.items() if resolution not in ("resolved", "inferred")
            ),
            skipped=len(scan.skipped),
            seconds=round(time.perf_counter() - self.started, 3),
            commit=snapshot.commit if snapshot else None,
            errors=tuple(err for e in extractions for err in e.errors),
            languages={s.language: {"files": s.files, "symbols": s.symbols, "edges": s.edges} for s in stats},
        )


def _resolve_clean(store: Store, extractions: list[FileExtraction], workers: int | None = None) -> Links:
    """Resolve every file (in a pool for a large repository) and store its edges a slice at a time
    (all edges of a large repository would strain the memory budget); return the graph they form,
    for centrality."""
    resolver = Resolver(MemoryDefinitions(extractions))
    links = Links()
    references = sum(len(e.references) for e in extractions)
    paths = [e.path for e in extractions]
    # the bulk load's work for the tables extraction filled runs while the pool's workers resolve
    for edges in iter_resolved(resolver, paths, references, workers, meanwhile=store.deferred("files")):
        store.replace_edges((), edges)
        links.add(edges)
    return links


def _centrality(store: Store, links: Links) -> list:
    """A clean run's centrality, computed (Python and numpy) on a thread of its own while this one
    builds the bulk load's last indexes: SQLite's C work, which releases the GIL. Rows still held
    back are inserted first, alone: a statement per row would wait for the GIL after each one."""
    for _ in store.deferred("files"):
        pass
    with ThreadPoolExecutor(1, thread_name_prefix="maguyva-centrality") as pool:
        ranked = pool.submit(links.centrality)
        for _ in store.deferred("files", "edges"):
            pass
        return ranked.result()


def _reresolve(
    store: Store,
    diff: FileDiff,
    extractions: list[FileExtraction],
    old_symbols: dict[str, Sequence[Symbol]],
    languages: dict[str, str | None] | None = None,
) -> tuple[set[str], bool]:
    """Re-resolve what this change can affect; return the files touched and whether the graph changed.

    Whole files: added and changed ones, files importing a changed one (their calls may be typed by
    its facts), files whose imports may now point elsewhere (a file with that stem came or went) and,
    transitively, files inheriting from classes in changed
    files (their ``self.x`` may move). Single references anywhere else: those whose name is a
    definition that appeared, disappeared or moved. Call before the old edges are replaced.
    """
    before = {_symbol_key(s) for symbols in old_symbols.values() for s in symbols}
    after = {_symbol_key(s) for e in extractions for s in e.symbols}
    names = {key[0] for key in before ^ after}
    fragments = set()
    for path in diff.added | diff.deleted:
        stem = posixpath.splitext(posixpath.basename(path))[0]
        fragments.add(
            posixpath.basename(posixpath.dirname(path)) if stem in ("__init__", "index", "mod") else stem
        )
    whole = diff.added | diff.changed | store.paths_importing(fragments - {""})
    # the type and value pass reads the facts (assignments, returns) of files a file imports directly
    whole |= {e.src_path for path in diff.changed for e in store.edges_in(path) if e.kind == "imports"}
    frontier = reached = diff.changed | diff.deleted
    while frontier:  # the closure is walked on its own: a file already whole still passes it on
        frontier = store.paths_inheriting_from(frontier) - reached
        reached |= frontier
    whole |= reached
    whole -= diff.deleted
    single = [ref for ref in store.references_named(names) if ref.path not in whole and not is_fact(ref)]
    old_edges = [e for path in whole | diff.deleted for e in store.edges_out(path)]
    old_edges += [e for e in store.edges_named(names) if e.src_path not in whole | diff.deleted]
    resolver = Resolver(StoreDefinitions(store, languages))
    whole_edges = [edge for path in sorted(whole) for edge in resolver.resolve_file(path)]
    single_edges = [edge for ref in single for edge in resolver.resolve_edges(ref)]
    store.replace_edges(whole | diff.deleted, whole_edges)
    store.replace_reference_edges(single_edges)
    graph_changed = _links(old_edges) != _links(whole_edges + single_edges)
    return whole | {ref.path for ref in single}, graph_changed


def _languages_after(before: Mapping[str, str | None], diff: FileDiff) -> dict[str, str | None]:
    """Path → language of every indexed file once this run's changes are stored, from the same map
    before them (``known_paths`` without reading the store again: 15 ms for svelte's 9k files)."""
    languages = {path: language for path, language in before.items() if path not in diff.deleted}
    languages.update((path, diff.scanned[path].record.language) for path in diff.added | diff.changed)
    return languages


def _symbol_key(symbol: Symbol) -> tuple:
    return (symbol.name, symbol.path, symbol.qualified_name, symbol.kind, symbol.line, symbol.parent)


def _links(edges: list[Edge]) -> Counter:
    """The graph an edge list contributes: (source node, target node) pairs with multiplicity."""
    return Counter(
        ((e.src_path, e.src_symbol), (e.dst_path, e.dst_symbol))
        for e in edges
        if e.resolution in ("resolved", "inferred")
    )


def _uncommitted(root: Path, listed: Listed | None) -> Callable[[], tuple[str, ...]]:
    """The snapshot's uncommitted paths: from the listing's ``git status`` when it listed ``root``,
    else from a ``git status`` started now, which runs while the changes are extracted and stored."""
    if listed is not None:
        return lambda: listed.dirty
    return uncommitted_later(root)


def _read_states(path: Path, root: Path, full: bool) -> tuple[Path, dict[str, FileState]]:
    store = open_store(path, readonly=True)
    try:
        return settle_root(store.recorded_root(), root, rebuild=full), store.known_files()
    finally:
        store.close()


def _open_for_update(path, full: bool) -> Store:
    """The store to write. An index of another schema version, or (on a ``--full`` run) one that cannot
    be opened at all (a damaged file), starts from nothing: that index could not serve anyway. A new
    SQLite index is built in a file of its own, renamed into place when the run commits: a run killed
    before that leaves no index, as before it started."""
    if not store_exists(path):  # a first index is built aside and moved in whole (see ``open_store``)
        return open_store(path, fresh=True)
    try:
        return open_store(path)
    except SchemaVersionError:
        pass
    except StoreError:
        if not full:
            raise
    reset_store(path)
    return open_store(path, fresh=True)
