"""The SQLite backend: WAL, ``synchronous=NORMAL``, FTS5 gram tokens (substring) and unicode61 (BM25).

``SQLiteStore``: the connection, the schema, the transaction and every write; its reads are
``sqlite_reads.SQLiteReads``, its vectors ``sqlite_vectors.SQLiteVectors``, its file on disk
``sqlite_file``. An index run is one write transaction (a ``--full`` rebuild
drops and recreates the tables inside it), so a crash or kill -9 at any moment leaves the previous
index, and WAL readers keep reading the last committed state while a writer works. Read-only
connections never write, not even the schema check, so they never wait for the write lock. A first
index (no file yet) is built in a file of its own with an in-memory journal and no fsync per step,
then linked in whole when its run commits: half the bytes written of a WAL build (stdlib: 110 MB,
not 227 MB), no checkpoint; a run killed before that leaves no index, as before it started.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from maguyva.errors import SchemaVersionError, StoreError
from maguyva.store.base import Store
from maguyva.store.filetext import FileText, as_file_text, grams, unpack_text
from maguyva.store.rows import FILE_COLUMNS, file_values
from maguyva.store.schema import NAME_COLUMNS, SCHEMA, SCHEMA_VERSION, TABLES
from maguyva.store.sqlite_file import building_file, fsync, not_an_index, remove_stale_builds
from maguyva.store.sqlite_names import Names, register
from maguyva.store.sqlite_reads import SQLiteReads
from maguyva.store.sqlite_rows import NAME as _NAME
from maguyva.store.sqlite_rows import NAMES as _NAMES
from maguyva.store.sqlite_rows import RESOLVED as _RESOLVED
from maguyva.store.sqlite_rows import (
    chunk_words,
    edge_strings,
    edge_values,
    extraction_strings,
    ref_values,
    symbol_values,
)
from maguyva.store.sqlite_vectors import VECTOR_SCHEMA, SQLiteVectors

if TYPE_CHECKING:
    from maguyva.models import Edge, FileExtraction, FileRecord
    from maguyva.store.values import Centrality, Snapshot

READ_BUSY_MS = 5_000  # readers only wait through brief WAL recovery or checkpoint steps
WRITE_BUSY_MS = 30_000  # a second writer waits this long for the running one, then gets a clear error
WAL_LIMIT_BYTES = 64 << 20  # the WAL is truncated back to this after a checkpoint (a rebuild grows it)

GRAMS_HELD_CHARS = 64 << 20  # a bulk load holds back this much gram text (the stdlib's is 25 MB)
# a bulk load's deferred work (``SQLiteStore.deferred``): which of a clean run's writes fill each table
# with secondary indexes, and how many held-back gram rows one step inserts
_FILLED_BY = {
    "names": frozenset({"files", "edges"}),
    "symbols": frozenset({"files"}),
    "refs": frozenset({"files"}),
    "edges": frozenset({"edges"}),
    "chunks": frozenset({"files"}),
    "centrality": frozenset({"centrality"}),
}
_WRITES = frozenset({"files", "edges", "centrality"})
_GRAMS_STEP = 256


class SQLiteStore(SQLiteReads, SQLiteVectors, Store):
    """A Maguyva index in one SQLite file."""

    def __init__(self, path: Path | str, *, readonly: bool = False, fresh: bool = False):
        self.path = Path(path)
        if readonly and not self.path.exists():
            raise StoreError(f"no index at {self.path} (run `orkestra code index` first)")
        self.readonly = readonly
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # a fresh index is built aside and moved into place when its first transaction commits
        self.building = building_file(self.path) if fresh and not readonly else None
        self._grams: list[tuple[int, str]] | None = None  # a bulk load's gram rows, inserted in bulk
        self._grams_chars = 0
        self._indexes: dict[str, tuple[str, str]] = {}  # a bulk load's indexes still to build: table, SQL
        self._built = False  # a fresh index moves into place when a transaction after its schema's commits
        if not readonly and self.building is None:
            problem = not_an_index(self.path)  # before any pragma: WAL mode rewrites a database's header
            if problem:
                raise StoreError(f"{self.path}: {problem}; refusing to write into it (pass another --store)")
        try:
            if self.building is not None:
                remove_stale_builds(self.path)
                self.building.unlink(missing_ok=True)
            self._connect(self.building or self.path)
            if readonly:
                self._check_version()
                return
            if not self._check_version():
                with self.transaction():
                    self._create_schema()
            self._built = True
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: {exc}") from exc

    def _connect(self, file: Path) -> None:
        self.db = sqlite3.connect(file, isolation_level=None, check_same_thread=False)
        register(self.db)
        self.names = Names(self.db)
        self.db.execute(f"PRAGMA busy_timeout={READ_BUSY_MS if self.readonly else WRITE_BUSY_MS}")
        if self.readonly:
            return
        if file == self.building:  # nobody else sees this file: no WAL, no fsync per step; a
            # transaction still rolls back (an in-memory journal: a new file's pages need none)
            self.db.execute("PRAGMA journal_mode=MEMORY")
            self.db.execute("PRAGMA synchronous=OFF")
        else:
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")
        self.db.execute("PRAGMA cache_size=-65536")  # 64 MiB, not 2: a cold index's B-tree updates
        # spill far less (stdlib: its file writes took 6.6 s instead of 7.9 s)

    def _move_into_place(self) -> None:
        """After a fresh index's first data commit: make it a WAL database, write it to disk and link it
        in as ``path`` (atomic: a reader finds no index or the whole of it), then go on from there. If
        a concurrent first run put an index there meanwhile, that one stays (never a file swapped under
        its readers) and this build is dropped."""
        built = self.building
        self.building = None
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.close()
        fsync(built)
        if not self.path.exists():  # a WAL left beside no database would be replayed into this one
            for suffix in ("-wal", "-shm"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        try:
            os.link(built, self.path)
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links
            if not self.path.exists():
                built.replace(self.path)
        built.unlink(missing_ok=True)
        fsync(self.path.parent)
        self._connect(self.path)

    def _abandon_build(self) -> None:
        self.db.close()
        for suffix in ("", "-journal", "-wal", "-shm"):
            Path(f"{self.building}{suffix}").unlink(missing_ok=True)
        self.building = None

    def _check_version(self) -> bool:
        """Whether the schema is in place (a read, no lock); raise if it is another version."""
        row = self.db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name='meta'").fetchone()
        if row is None:
            if self.readonly:
                raise StoreError(f"{self.path}: not a Maguyva index (run `orkestra code index` first)")
            return False
        version = self.db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        if version is not None and int(version[0]) != SCHEMA_VERSION:
            raise SchemaVersionError(
                f"{self.path}: schema version {version[0]}, expected {SCHEMA_VERSION};"
                " run `orkestra code index` to rebuild it"
            )
        have = {name for (name,) in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        return version is not None and set(TABLES) <= have

    def _create_schema(self) -> None:
        """Create every table (inside the caller's transaction: DDL is transactional in SQLite)."""
        for statement in _statements(SCHEMA + VECTOR_SCHEMA):
            self.db.execute(statement)
        self.db.execute(f"INSERT OR IGNORE INTO meta VALUES ('schema_version', '{SCHEMA_VERSION}')")
        if self.db.execute("SELECT NOT EXISTS (SELECT 1 FROM names)").fetchone()[0]:
            self.names.reset(empty=True)

    def clear(self) -> None:
        """Forget every indexed row (``index --full``), inside the open transaction: until it commits,
        readers see the previous index, and a killed run rolls back to it."""
        for table in TABLES:
            if table != "meta":
                self.db.execute(f"DROP TABLE IF EXISTS {table}")
        self.db.execute("DELETE FROM meta WHERE key = 'edge_counts'")
        self._create_schema()

    def recorded_root(self) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = 'root'").fetchone()
        return row[0] if row else None

    def record_root(self, root: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('root', ?)", (root,))

    def recorded_listing(self) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = 'listing'").fetchone()
        return row[0] if row else None

    def record_listing(self, record: str) -> None:
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('listing', ?)", (record,))

    # ---- lifecycle ----
    @contextmanager
    def transaction(self) -> Iterator[None]:
        if self.db.in_transaction:
            yield
            return
        try:
            self.db.execute("BEGIN IMMEDIATE")
            self.names.reset()
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            raise StoreError(
                f"{self.path}: another process has been writing the index for over "
                f"{WRITE_BUSY_MS // 1000} s (an `orkestra code index` run?); try again when it "
                f"finishes"
            ) from None
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            self.names.reset()
            if self.building is not None and self._built:  # a failed fresh build leaves nothing
                self._abandon_build()
            raise
        self.names.settle(NAME_COLUMNS)
        self.db.execute("COMMIT")
        if self.building is not None and self._built:
            self._move_into_place()

    @contextmanager
    def bulk_load(self) -> Iterator[None]:
        """Inside the open transaction: drop the secondary indexes, yield for a clean run's inserts, then
        build them again from the filled tables (one sort each instead of a B-tree update per row; a
        failure rolls the transaction back, indexes and all). Only lookups by rowid or by
        ``files.path`` (its UNIQUE index stays) may run inside. ``deferred`` does part of the end's
        work earlier, while other processes or threads compute."""
        self._indexes = {}
        for statement in _statements(SCHEMA):
            if statement.startswith("CREATE INDEX"):
                words = statement.split()  # CREATE INDEX IF NOT EXISTS name ON table(columns) …
                self._indexes[words[5]] = (words[7].split("(")[0], statement)
        for name in self._indexes:
            self.db.execute(f"DROP INDEX IF EXISTS {name}")
        self.names.load()  # names_hash is gone too: strings are found in the cache only
        self._grams, self._grams_chars = [], 0
        try:
            yield
            for _ in self.deferred(*_WRITES):
                pass
        finally:
            self._grams = None
            self._indexes = {}

    def deferred(self, *writes: str) -> Iterator[None]:
        """Inside ``bulk_load``, once a clean run is done with ``writes`` ("files": ``put_file``,
        "edges": ``replace_edges``, "centrality"): the held-back rows and index builds of the tables
        only those fill, a short step per item (rows a few hundred files at a time, then an index),
        in schema order. Each step is SQLite's C work, most of it without the GIL: the pipeline takes
        a step while it waits for its workers, and builds the last indexes beside centrality on
        another thread. What is left undone is done when the bulk load ends; rows a run adds after
        an index is built go into it as usual."""
        done = set(writes)
        if "files" in done:
            while self._grams:
                part, self._grams[:_GRAMS_STEP] = self._grams[:_GRAMS_STEP], []
                self.db.executemany("INSERT INTO files_grams (rowid, grams) VALUES (?, ?)", part)
                yield
            self._grams_chars = 0
        for name, (table, statement) in list(self._indexes.items()):
            if _FILLED_BY.get(table, _WRITES) <= done and self._indexes.pop(name, None) is not None:
                self.db.execute(statement)
                yield

    def _flush_grams(self) -> None:
        """Insert the gram rows a bulk load holds back. Interleaved with the other tables' rows, one
        file at a time, ``files_grams`` took 1.5–1.8 s of CPU on the stdlib; all at once 0.7–0.8 s
        (and the run's other inserts got cheaper too: the store's writes 8.0–9.0 → 6.6–6.7 s)."""
        if self._grams:
            self.db.executemany("INSERT INTO files_grams (rowid, grams) VALUES (?, ?)", self._grams)
            self._grams.clear()
            self._grams_chars = 0

    def close(self) -> None:
        self.db.close()
        if self.building is not None:  # never committed a run: nothing to keep
            self._abandon_build()

    def integrity_check(self) -> str:
        return self.db.execute("PRAGMA integrity_check").fetchone()[0]

    # ---- writes ----
    def put_file(
        self, record: FileRecord, mtime_ns: int, extraction: FileExtraction, text: str | FileText
    ) -> None:
        self.delete_file(record.path)
        stored = as_file_text(text)
        db = self.db
        file = db.execute(
            f"INSERT INTO files ({FILE_COLUMNS}, n_symbols) VALUES (?,?,?,?,?,?,?,?)",
            (*file_values(record, mtime_ns, extraction), len(extraction.symbols)),
        ).lastrowid
        db.execute("INSERT INTO files_text (id, text) VALUES (?, ?)", (file, stored.packed))
        if self._grams is None:
            db.execute("INSERT INTO files_grams (rowid, grams) VALUES (?, ?)", (file, stored.grams))
        else:  # a bulk load: held back, up to a bound on the memory they take
            self._grams.append((file, stored.grams))
            self._grams_chars += len(stored.grams)
            if self._grams_chars > GRAMS_HELD_CHARS:
                self._flush_grams()
        ids = self.names.lookup(lambda: extraction_strings(extraction))
        db.executemany(
            "INSERT INTO symbols VALUES (?,?,?,?,?,?,?,?,?,?,?)", symbol_values(file, extraction.symbols, ids)
        )
        db.executemany(
            "INSERT INTO refs VALUES (?,?,?,?,?,?,?,?,?,?)", ref_values(file, extraction.references, ids)
        )
        chunks = extraction.chunks
        if not chunks:
            self.names.flush()
            return
        first = db.execute("SELECT coalesce(max(id), 0) + 1 FROM chunks").fetchone()[0]
        db.executemany(
            "INSERT INTO chunks VALUES (?,?,?,?,?,?)",
            [
                (
                    first + i,
                    file,
                    c.start_line,
                    c.end_line,
                    None if c.symbol is None else ids[c.symbol],
                    ids[c.kind],
                )
                for i, c in enumerate(chunks)
            ],
        )
        lines = None
        if any(c.words is None for c in chunks):  # the words a delete recomputes: from the stored text
            lines = stored.text.splitlines()
        db.executemany(
            "INSERT INTO chunks_fts (rowid, words) VALUES (?, ?)",
            [
                (first + i, chunk_words(lines, c.start_line, c.end_line) if c.words is None else c.words)
                for i, c in enumerate(chunks)
            ],
        )
        self.names.flush()

    def touch_file(self, path: str, mtime_ns: int) -> None:
        self.db.execute("UPDATE files SET mtime_ns = ? WHERE path = ?", (mtime_ns, path))

    def delete_file(self, path: str) -> None:
        db = self.db
        row = db.execute("SELECT id FROM files WHERE path = ?", (path,)).fetchone()
        if row is None:
            return
        self._flush_grams()  # a contentless row's delete must follow its insert
        old = db.execute("SELECT text FROM files_text WHERE id = ?", row).fetchone()
        if old is not None:  # a contentless FTS5 row is deleted by giving back the tokens it was given
            text = unpack_text(old[0])
            db.execute(
                "INSERT INTO files_grams (files_grams, rowid, grams) VALUES ('delete', ?, ?)",
                (row[0], grams(text)),
            )
            chunks = db.execute("SELECT id, start_line, end_line FROM chunks WHERE file = ?", row).fetchall()
            if chunks:
                lines = text.splitlines()
                db.executemany(
                    "INSERT INTO chunks_fts (chunks_fts, rowid, words) VALUES ('delete', ?, ?)",
                    [(chunk, chunk_words(lines, start, end)) for chunk, start, end in chunks],
                )
        db.execute("DELETE FROM files_text WHERE id = ?", row)
        for table in ("chunks", "symbols", "refs"):
            db.execute(f"DELETE FROM {table} WHERE file = ?", row)
        db.execute("DELETE FROM files WHERE id = ?", row)

    def replace_edges(self, src_paths: Iterable[str], edges: Iterable[Edge]) -> None:
        src_paths, edges = set(src_paths), list(edges)
        if src_paths:
            where, args = f"src_path_id IN {_NAMES}", (json.dumps(sorted(src_paths)),)
            self._count_edges(where, args, -1)
            self.db.execute(f"DELETE FROM edges WHERE {where}", args)
        self._insert_edges(edges)
        resolved = Counter(e.src_path for e in edges if e.resolution in ("resolved", "inferred"))
        self.db.executemany(
            "UPDATE files SET n_edges = ? WHERE path = ?",
            [(resolved[path], path) for path in src_paths | {e.src_path for e in edges}],
        )

    def replace_reference_edges(self, edges: Iterable[Edge]) -> None:
        edges = list(edges)
        where = f"src_path_id = {_NAME} AND src_line = ? AND src_col = ? AND kind_id = {_NAME} AND name_id = {_NAME}"
        for key in {(e.src_path, e.src_line, e.src_col, e.kind, e.name) for e in edges}:
            self._count_edges(where, key, -1)
            self.db.execute(f"DELETE FROM edges WHERE {where}", key)
        self._insert_edges(edges)
        self._recount({e.src_path for e in edges})

    def _recount(self, paths: set[str]) -> None:
        # "+resolution_id": SQLite stays on the src_path index
        self.db.execute(
            f"UPDATE files SET n_edges = (SELECT count(*) FROM edges WHERE src_path_id = (SELECT n.id FROM"
            f" names n WHERE n.hash = name_hash(files.path) AND n.text = files.path)"
            f" AND +resolution_id IN {_RESOLVED})"
            f" WHERE path IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted(paths)),),
        )

    def _insert_edges(self, edges: list[Edge]) -> None:
        if not edges:
            return
        ids = self.names.lookup(lambda: edge_strings(edges))
        self.db.executemany(
            "INSERT INTO edges (kind_id, src_path_id, src_line, src_symbol_id, dst_path_id, dst_line,"
            " dst_symbol_id, name_id, resolution_id, reason_id, src_col) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            edge_values(edges, ids),
        )
        self.names.flush()
        self._bump_edge_counts(Counter(e.resolution for e in edges))

    def _count_edges(self, where: str, args, sign: int) -> None:
        """Take the edges matching ``where`` off the per-resolution totals (before they are deleted)."""
        rows = self.db.execute(
            f"SELECT n.text, c.k FROM (SELECT resolution_id, count(*) AS k FROM edges WHERE {where}"
            f" GROUP BY 1) c JOIN names n ON n.id = c.resolution_id",
            args,
        )
        self._bump_edge_counts({resolution: sign * k for resolution, k in rows})

    def _bump_edge_counts(self, delta) -> None:
        if not delta:
            return
        totals = Counter(self._edge_totals())
        totals.update(delta)
        self.db.execute(
            "INSERT OR REPLACE INTO meta VALUES ('edge_counts', ?)",
            (json.dumps({k: n for k, n in sorted(totals.items()) if n}),),
        )

    def _edge_totals(self) -> dict[str, int]:
        row = self.db.execute("SELECT value FROM meta WHERE key = 'edge_counts'").fetchone()
        return json.loads(row[0]) if row else {}

    def set_centrality(self, rows: Iterable[Centrality]) -> None:
        rows = list(rows)
        ids = self.names.intern(text for c in rows for text in (c.path, c.symbol or ""))
        self.db.execute("DELETE FROM centrality")
        self.db.executemany(
            "INSERT INTO centrality VALUES (?,?,?,?,?)",
            [(ids[c.path], ids[c.symbol or ""], c.pagerank, c.in_degree, c.out_degree) for c in rows],
        )

    def add_snapshot(self, snapshot: Snapshot) -> None:
        self.db.execute(
            "INSERT INTO snapshots (commit_sha, created_at, dirty) VALUES (?,?,?)",
            (snapshot.commit, snapshot.created_at, json.dumps(list(snapshot.dirty))),
        )

    def edge_counts(self) -> dict[str, int]:
        return dict(sorted(self._edge_totals().items()))


def _statements(script: str) -> Iterator[str]:
    """The complete SQL statements of ``script`` (a trigger body's ``;`` does not end one)."""
    current = ""
    for line in script.splitlines(keepends=True):
        if not current and (not line.strip() or line.lstrip().startswith("--")):
            continue
        current += line
        if sqlite3.complete_statement(current):
            yield current.strip()
            current = ""
