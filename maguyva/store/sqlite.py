"""The SQLite backend: WAL, ``synchronous=NORMAL``, FTS5 gram tokens (substring) and unicode61 (BM25).

The only module that speaks SQL. An index run is one write transaction (a ``--full`` rebuild
drops and recreates the tables inside it), so a crash or kill -9 at any moment leaves the previous
index, and WAL readers keep reading the last committed state while a writer works. Read-only
connections never write, not even the schema check, so they never wait for the write lock.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from maguyva.errors import SchemaVersionError, StoreError
from maguyva.index.chunk import search_words
from maguyva.models import Edge, FileExtraction, FileRecord, Reference, Symbol
from maguyva.store.base import Centrality, LanguageStats, Snapshot, Span, Store
from maguyva.store.filetext import FileText, as_file_text, gram_query, grams, unpack_text
from maguyva.store.lines import matching_lines, prefilter, split_lines
from maguyva.store.rows import (
    EDGE_COLUMNS,
    REF_COLUMNS,
    SYMBOL_COLUMNS,
    edge_values,
    reference_from_row,
    symbol_from_row,
)
from maguyva.store.schema import SCHEMA, SCHEMA_VERSION, TABLES
from maguyva.store.sqlite_vectors import VECTOR_SCHEMA, SQLiteVectors

READ_BUSY_MS = 5_000  # readers only wait through brief WAL recovery or checkpoint steps
WRITE_BUSY_MS = 30_000  # a second writer waits this long for the running one, then gets a clear error
WAL_LIMIT_BYTES = 64 << 20  # the WAL is truncated back to this after a checkpoint (a rebuild grows it)

_MAX_VARS = 500


class SQLiteStore(SQLiteVectors, Store):
    """A Maguyva index in one SQLite file."""

    def __init__(self, path: Path | str, *, readonly: bool = False):
        self.path = Path(path)
        if readonly and not self.path.exists():
            raise StoreError(f"no index at {self.path} (run `orkestra code index` first)")
        self.readonly = readonly
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            self.db.execute(f"PRAGMA busy_timeout={READ_BUSY_MS if readonly else WRITE_BUSY_MS}")
            if readonly:
                self._check_version()
                return
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")
            self.db.execute("PRAGMA cache_size=-65536")  # 64 MiB, not 2: a cold index's B-tree updates
            # spill far less (stdlib: its file writes took 6.6 s instead of 7.9 s)
            if not self._check_version():
                with self.transaction():
                    self._create_schema()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.path}: {exc}") from exc

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

    def clear(self) -> None:
        """Forget every indexed row (``index --full``), inside the open transaction: until it commits,
        readers see the previous index, and a killed run rolls back to it."""
        for table in TABLES:
            if table != "meta":
                self.db.execute(f"DROP TABLE IF EXISTS {table}")
        self._edges_changed()
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
            raise
        self.db.execute("COMMIT")

    @contextmanager
    def bulk_load(self) -> Iterator[None]:
        """Inside the open transaction: drop the secondary indexes, yield for a clean run's inserts, then
        build them again from the filled tables (one sort each instead of a B-tree update per row; a
        failure rolls the transaction back, indexes and all). Only lookups by rowid or by
        ``files.path`` (its UNIQUE index stays) may run inside."""
        indexes = [
            (statement.split()[5], statement)
            for statement in _statements(SCHEMA)
            if statement.startswith("CREATE INDEX")
        ]
        for name, _ in indexes:
            self.db.execute(f"DROP INDEX IF EXISTS {name}")
        yield
        for _, statement in indexes:
            self.db.execute(statement)

    def close(self) -> None:
        self.db.close()

    def integrity_check(self) -> str:
        return self.db.execute("PRAGMA integrity_check").fetchone()[0]

    # ---- writes ----
    def file_states(self):
        return {
            p: (s, m, h) for p, s, m, h in self.db.execute("SELECT path, size, mtime_ns, hash FROM files")
        }

    def known_files(self):
        return self._known_files("", ())

    def _known_files(self, where: str, args: list[str] | tuple[()]) -> dict[str, tuple]:
        split: dict[str, tuple[str, ...]] = {}  # a few distinct flag strings across thousands of files
        return {
            p: (
                size,
                mtime_ns,
                digest,
                language,
                split.get(flags) or split.setdefault(flags, tuple(f for f in flags.split(",") if f)),
            )
            for p, size, mtime_ns, digest, language, flags in self.db.execute(
                "SELECT path, size, mtime_ns, hash, language, flags FROM files" + where, args
            )
        }

    def known_files_of(self, paths):
        found: dict[str, tuple] = {}
        for batch in _batches(sorted(set(paths))):
            found.update(self._known_files(f" WHERE path IN ({_marks(batch)})", batch))
        return found

    def indexed_paths(self):
        return [path for (path,) in self.db.execute("SELECT path FROM files")]  # its UNIQUE index covers it

    def put_file(
        self, record: FileRecord, mtime_ns: int, extraction: FileExtraction, text: str | FileText
    ) -> None:
        self.delete_file(record.path)
        stored = as_file_text(text)
        db = self.db
        cursor = db.execute(
            "INSERT INTO files (path, language, size, mtime_ns, hash, flags, errors, n_symbols)"
            " VALUES (?,?,?,?,?,?,?,?)",
            (
                record.path,
                record.language,
                record.size,
                mtime_ns,
                record.content_hash,
                ",".join(record.flags),
                json.dumps(list(extraction.errors)),
                len(extraction.symbols),
            ),
        )
        db.execute("INSERT INTO files_text (id, text) VALUES (?, ?)", (cursor.lastrowid, stored.packed))
        db.execute("INSERT INTO files_grams (rowid, grams) VALUES (?, ?)", (cursor.lastrowid, stored.grams))
        db.executemany(
            f"INSERT INTO symbols ({SYMBOL_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?)",
            [
                (
                    s.path,
                    s.name,
                    s.qualified_name,
                    s.kind,
                    s.line,
                    s.end_line,
                    s.col,
                    s.signature,
                    s.doc,
                    s.parent,
                )
                for s in extraction.symbols
            ],
        )
        db.executemany(
            f"INSERT INTO refs ({REF_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?)",
            [
                (r.path, r.name, r.kind, r.line, r.col, r.qualifier, r.scope, r.module, r.alias)
                for r in extraction.references
            ],
        )
        first = db.execute("SELECT coalesce(max(id), 0) + 1 FROM chunks").fetchone()[0]
        db.executemany(
            "INSERT INTO chunks (id, path, start_line, end_line, symbol, kind) VALUES (?,?,?,?,?,?)",
            [
                (first + i, c.path, c.start_line, c.end_line, c.symbol, c.kind)
                for i, c in enumerate(extraction.chunks)
            ],
        )
        db.executemany(
            "INSERT INTO chunks_fts (rowid, words) VALUES (?, ?)",
            [
                (first + i, search_words(c.text) if c.words is None else c.words)
                for i, c in enumerate(extraction.chunks)
            ],
        )

    def touch_file(self, path: str, mtime_ns: int) -> None:
        self.db.execute("UPDATE files SET mtime_ns = ? WHERE path = ?", (mtime_ns, path))

    def delete_file(self, path: str) -> None:
        db = self.db
        row = db.execute("SELECT id FROM files WHERE path = ?", (path,)).fetchone()
        if row is None:
            return
        old = db.execute("SELECT text FROM files_text WHERE id = ?", row).fetchone()
        if old is not None:  # a contentless FTS5 row is deleted by giving back the tokens it was given
            db.execute(
                "INSERT INTO files_grams (files_grams, rowid, grams) VALUES ('delete', ?, ?)",
                (row[0], grams(unpack_text(old[0]))),
            )
        db.execute("DELETE FROM files_text WHERE id = ?", row)
        db.execute("DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE path = ?)", (path,))
        for table in ("chunks", "symbols", "refs"):
            db.execute(f"DELETE FROM {table} WHERE path = ?", (path,))
        db.execute("DELETE FROM files WHERE id = ?", row)

    def replace_edges(self, src_paths: Iterable[str], edges: Iterable[Edge]) -> None:
        src_paths, edges = set(src_paths), list(edges)
        self._edges_changed()
        for batch in _batches(sorted(src_paths)):
            self.db.execute(f"DELETE FROM edges WHERE src_path IN ({_marks(batch)})", batch)
        self._insert_edges(edges)
        resolved = Counter(e.src_path for e in edges if e.resolution in ("resolved", "inferred"))
        self.db.executemany(
            "UPDATE files SET n_edges = ? WHERE path = ?",
            [(resolved[path], path) for path in src_paths | {e.src_path for e in edges}],
        )

    def replace_reference_edges(self, edges: Iterable[Edge]) -> None:
        edges = list(edges)
        self._edges_changed()
        self.db.executemany(
            "DELETE FROM edges WHERE src_path = ? AND src_line = ? AND src_col = ? AND kind = ? AND name = ?",
            [(e.src_path, e.src_line, e.src_col, e.kind, e.name) for e in edges],
        )
        self._insert_edges(edges)
        self._recount({e.src_path for e in edges})

    def _recount(self, paths: set[str]) -> None:
        # "+resolution" keeps SQLite on the src_path index (the resolution index matches most rows)
        for batch in _batches(sorted(paths)):
            self.db.execute(
                f"UPDATE files SET n_edges = (SELECT count(*) FROM edges WHERE src_path = files.path"
                f" AND +resolution IN ('resolved', 'inferred')) WHERE path IN ({_marks(batch)})",
                batch,
            )

    def _insert_edges(self, edges: Iterable[Edge]) -> None:
        self.db.executemany(
            f"INSERT INTO edges ({EDGE_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            map(edge_values, edges),
        )

    def set_centrality(self, rows: Iterable[Centrality]) -> None:
        self.db.execute("DELETE FROM centrality")
        self.db.executemany(
            "INSERT INTO centrality VALUES (?,?,?,?,?)",
            [(c.path, c.symbol or "", c.pagerank, c.in_degree, c.out_degree) for c in rows],
        )

    def add_snapshot(self, snapshot: Snapshot) -> None:
        self.db.execute(
            "INSERT INTO snapshots (commit_sha, created_at, dirty) VALUES (?,?,?)",
            (snapshot.commit, snapshot.created_at, json.dumps(list(snapshot.dirty))),
        )

    # ---- resolution view ----
    def known_paths(self):
        return dict(self.db.execute("SELECT path, language FROM files"))

    def symbols_named(self, name: str):
        return self._symbols("name = ?", (name,))

    def symbols_in(self, path: str):
        return self._symbols("path = ?", (path,))

    def symbols_qualified(self, qualified_name: str):
        return self._symbols("qualified_name = ?", (qualified_name,))

    def references_in(self, path: str):
        return self._references("path = ?", (path,))

    def _references(self, clause: str, args) -> list[Reference]:
        rows = self.db.execute(
            f"SELECT {REF_COLUMNS} FROM refs WHERE {clause} ORDER BY path, line, col, kind, name, id", args
        )
        return [reference_from_row(r) for r in rows]

    def references_named(self, names: Iterable[str]) -> list[Reference]:
        found: list[Reference] = []
        for batch in _batches(sorted(set(names))):
            found += self._references(f"name IN ({_marks(batch)})", batch)
        return found

    def edges_named(self, names: Iterable[str]) -> list[Edge]:
        found: list[Edge] = []
        for batch in _batches(sorted(set(names))):
            found += self._edges(f"name IN ({_marks(batch)})", batch)
        return found

    def paths_importing(self, fragments: Iterable[str]) -> set[str]:
        found: set[str] = set()
        for fragment in set(fragments):
            pattern = "%" + fragment.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            found.update(
                p
                for (p,) in self.db.execute(
                    "SELECT DISTINCT path FROM refs WHERE kind = 'import' AND "
                    "(module LIKE ? ESCAPE '\\' OR name LIKE ? ESCAPE '\\')",
                    (pattern, pattern),
                )
            )
        return found

    def paths_inheriting_from(self, paths: Iterable[str]) -> set[str]:
        found: set[str] = set()
        for batch in _batches(sorted(set(paths))):
            found.update(
                p
                for (p,) in self.db.execute(
                    f"SELECT DISTINCT src_path FROM edges WHERE kind = 'inherits' AND dst_path IN ({_marks(batch)})",
                    batch,
                )
            )
        return found

    def all_edges(self, resolved_only: bool = True):
        where = "WHERE resolution IN ('resolved', 'inferred')" if resolved_only else ""
        return [
            Edge(*row) for row in self.db.execute(f"SELECT {EDGE_COLUMNS} FROM edges {where} ORDER BY id")
        ]

    # ---- retrieval ----
    def find_symbols(self, name, *, kind=None, qualified=False, prefix=False, limit=50):
        column = "qualified_name" if qualified else "name"
        if prefix:
            clause, args = f"{column} >= ? AND {column} < ?", [name, name + "\U0010ffff"]
        else:
            clause, args = f"{column} = ?", [name]
        if kind:
            clause, args = clause + " AND kind = ?", [*args, kind]
        return self._symbols(clause + " ORDER BY path, line, id LIMIT ?", (*args, limit))

    def query_symbols(self, *, kind=None, name_glob=None, signature_like=None, path_prefix=None, limit=50):
        clauses, args = ["1"], []
        if kind:
            clauses.append("kind = ?")
            args.append(kind)
        if name_glob:
            clauses.append("name GLOB ?")
            args.append(name_glob)
        if signature_like:
            clauses.append("instr(lower(signature), lower(?)) > 0")
            args.append(signature_like)
        if path_prefix:
            clauses.append("substr(path, 1, ?) = ?")
            args += [len(path_prefix), path_prefix]
        return self._symbols(" AND ".join(clauses) + " ORDER BY path, line, id LIMIT ?", (*args, limit))

    def edges_out(self, path, symbol=None):
        if symbol is None:
            return self._edges("src_path = ?", (path,))
        return self._edges("src_path = ? AND src_symbol = ?", (path, symbol))

    def neighbour_files(self, paths):
        found: dict[str, set[str]] = {p: set() for p in paths}
        if not paths:
            return found
        marks = ", ".join("?" * len(paths))
        rows = self.db.execute(
            f"SELECT src_path, dst_path FROM edges WHERE src_path IN ({marks}) AND dst_path IS NOT NULL "
            f"AND dst_path != src_path UNION SELECT dst_path, src_path FROM edges WHERE dst_path IN ({marks}) "
            f"AND src_path != dst_path",
            (*paths, *paths),
        )
        for path, other in rows:
            found[path].add(other)
        return found

    def edges_in(self, path=None, symbol=None):
        if symbol is not None and path is not None:
            return self._edges("dst_path = ? AND dst_symbol = ?", (path, symbol))
        if symbol is not None:
            return self._edges("dst_symbol = ?", (symbol,))
        return self._edges("dst_path = ?", (path,))

    def search_literal(self, text: str, limit: int = 50) -> list[Span]:
        if not text:
            return []
        expression = gram_query(prefilter(text))
        if expression is None:  # under three bytes the gram index cannot help: check every file
            rows = self.db.execute("SELECT path, id FROM files ORDER BY path").fetchall()
        else:  # a superset of the files holding the text; read and checked one by one until ``limit`` lines
            rows = self.db.execute(
                "SELECT f.path, f.id FROM files_grams g JOIN files f ON f.id = g.rowid "
                "WHERE files_grams MATCH ? ORDER BY f.path",
                (expression,),
            ).fetchall()
        spans: list[Span] = []
        folded = text.lower()
        ascii_needle = folded.encode() if folded.isascii() else None
        for path, rowid in rows:
            packed = self.db.execute("SELECT text FROM files_text WHERE id = ?", (rowid,)).fetchone()
            if packed is None:
                continue
            data = zlib.decompress(packed[0])
            if ascii_needle is not None and data.isascii() and ascii_needle not in data.lower():
                continue  # an ASCII file lower-cases the same as bytes: most false candidates end here
            spans += matching_lines(path, data.decode("utf-8", "surrogatepass"), text, limit - len(spans))
            if len(spans) >= limit:
                break
        return spans

    def search_bm25(self, query: str, limit: int = 20) -> list[Span]:
        words = search_words(query).split()
        if not words:
            return []
        expression = " OR ".join('"' + w.replace('"', '""') + '"' for w in dict.fromkeys(words))
        rows = self.db.execute(
            "SELECT c.path, c.start_line, c.end_line, c.symbol, bm25(chunks_fts) AS score "
            "FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid "
            "WHERE chunks_fts MATCH ? ORDER BY score LIMIT ?",
            (expression, limit),
        ).fetchall()
        spans = []
        for path, start, end, symbol, score in rows:
            text = self.file_text(path) or ""
            body = "\n".join(split_lines(text)[start - 1 : end])
            spans.append(Span(path=path, line=start, end_line=end, text=body, score=-score, symbol=symbol))
        return spans

    def file_text(self, path: str) -> str | None:
        row = self.db.execute(
            "SELECT t.text FROM files_text t JOIN files f ON f.id = t.id WHERE f.path = ?", (path,)
        ).fetchone()
        return unpack_text(row[0]) if row else None

    def file_record(self, path: str) -> FileRecord | None:
        row = self.db.execute(
            "SELECT path, language, size, hash, flags FROM files WHERE path = ?", (path,)
        ).fetchone()
        if row is None:
            return None
        return FileRecord(
            path=row[0],
            language=row[1],
            size=row[2],
            content_hash=row[3],
            flags=tuple(f for f in row[4].split(",") if f),
        )

    # ---- batched reads: a JSON array parameter, so one statement whatever the number of keys ----
    def file_records(self, paths):
        rows = self.db.execute(
            "SELECT path, language, size, hash, flags FROM files "
            "WHERE path IN (SELECT value FROM json_each(?))",
            (_json_list(paths),),
        )
        return {
            r[0]: FileRecord(
                path=r[0],
                language=r[1],
                size=r[2],
                content_hash=r[3],
                flags=tuple(f for f in r[4].split(",") if f),
            )
            for r in rows
        }

    def file_texts(self, paths):
        rows = self.db.execute(
            "SELECT f.path, t.text FROM files f JOIN files_text t ON t.id = f.id "
            "WHERE f.path IN (SELECT value FROM json_each(?))",
            (_json_list(paths),),
        )
        return {path: unpack_text(packed) for path, packed in rows}

    def symbols_in_paths(self, paths):
        wanted = list(dict.fromkeys(paths))
        found: dict[str, list[Symbol]] = {p: [] for p in wanted}
        for symbol in self._symbols(
            "path IN (SELECT value FROM json_each(?)) ORDER BY id", (json.dumps(wanted),)
        ):
            found[symbol.path].append(symbol)
        return found

    def centralities(self, keys):
        wanted = [[path, symbol or ""] for path, symbol in dict.fromkeys(keys)]
        rows = self.db.execute(
            "SELECT c.* FROM json_each(?) k JOIN centrality c "
            "ON c.path = json_extract(k.value, '$[0]') AND c.symbol = json_extract(k.value, '$[1]')",
            (json.dumps(wanted),),
        )
        return {(row[0], row[1] or None): _centrality(row) for row in rows}

    def snapshot(self) -> Snapshot | None:
        row = self.db.execute(
            "SELECT commit_sha, created_at, dirty FROM snapshots ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return Snapshot(row[0], row[1], tuple(json.loads(row[2]))) if row else None

    def centrality(self, path, symbol=None):
        row = self.db.execute(
            "SELECT * FROM centrality WHERE path = ? AND symbol = ?", (path, symbol or "")
        ).fetchone()
        return _centrality(row) if row else None

    def top_central(self, limit=20, files=False):
        clause = "symbol = ''" if files else "symbol != ''"
        rows = self.db.execute(
            f"SELECT * FROM centrality WHERE {clause} ORDER BY pagerank DESC, path, symbol LIMIT ?", (limit,)
        )
        return [_centrality(row) for row in rows]

    def language_stats(self) -> list[LanguageStats]:
        rows = self.db.execute(
            "SELECT coalesce(language, 'text'), count(*), sum(n_symbols), sum(n_edges)"
            " FROM files GROUP BY 1 ORDER BY 2 DESC, 1"
        )
        return [LanguageStats(*row) for row in rows]

    def edge_counts(self) -> dict[str, int]:
        # kept in meta between the runs that change edges (the count scans every edge: 36 ms on the
        # stdlib, 3× the whole no-change check's floor); every edge write drops it
        row = self.db.execute("SELECT value FROM meta WHERE key = 'edge_counts'").fetchone()
        if row is not None:
            return json.loads(row[0])
        counts = dict(
            self.db.execute("SELECT resolution, count(*) FROM edges GROUP BY resolution ORDER BY 1")
        )
        if self.db.in_transaction:
            self.db.execute("INSERT OR REPLACE INTO meta VALUES ('edge_counts', ?)", (json.dumps(counts),))
        return counts

    def _edges_changed(self) -> None:
        self.db.execute("DELETE FROM meta WHERE key = 'edge_counts'")

    # ---- helpers ----
    def _symbols(self, clause: str, args) -> list[Symbol]:
        rows = self.db.execute(f"SELECT {SYMBOL_COLUMNS} FROM symbols WHERE {clause}", args)
        return [symbol_from_row(r) for r in rows]

    def _edges(self, clause: str, args) -> list[Edge]:
        rows = self.db.execute(
            f"SELECT {EDGE_COLUMNS} FROM edges WHERE {clause} ORDER BY src_path, src_line, id", args
        )
        return [Edge(*row) for row in rows]


def _centrality(row) -> Centrality:
    return Centrality(
        path=row[0], symbol=row[1] or None, pagerank=row[2], in_degree=row[3], out_degree=row[4]
    )


def _marks(batch) -> str:
    return ",".join("?" * len(batch))


def _batches(items: list) -> Iterator[list]:
    for start in range(0, len(items), _MAX_VARS):
        yield items[start : start + _MAX_VARS]


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


def _json_list(paths) -> str:
    return json.dumps(list(dict.fromkeys(paths)))
