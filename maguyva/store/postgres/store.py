"""The PostgreSQL backend: one repository of one workspace, behind the same ``Store`` interface.

Writes are buffered and sent with ``COPY`` when a read needs them or the transaction ends, so a
full index costs a handful of round trips per thousand files. Every statement is parameterised
and every row is filtered by ``repo_id``: a store object can only see its own repository.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import psycopg

from maguyva.errors import StoreError
from maguyva.models import Edge, FileExtraction, FileRecord
from maguyva.store.base import Store
from maguyva.store.filetext import FileText
from maguyva.store.postgres import catalog
from maguyva.store.postgres.bm25 import postings
from maguyva.store.postgres.location import PostgresLocation
from maguyva.store.postgres.reads import PostgresReads
from maguyva.store.postgres.vectors import PostgresVectors
from maguyva.store.rows import (
    EDGE_COLUMNS,
    FILE_COLUMNS,
    REF_COLUMNS,
    SYMBOL_COLUMNS,
    edge_values,
    file_values,
)
from maguyva.store.values import Centrality, Snapshot

_FLUSH_ROWS = 20_000
_WRITE_LOCK = 0x6D677772  # with the repo id: one writer per repository at a time

_COPY = {
    "files": f"COPY files (repo_id, {FILE_COLUMNS}, content) FROM STDIN",
    "symbols": f"COPY symbols (repo_id, {SYMBOL_COLUMNS}) FROM STDIN",
    "refs": f"COPY refs (repo_id, {REF_COLUMNS}) FROM STDIN",
    "edges": f"COPY edges (repo_id, {EDGE_COLUMNS}) FROM STDIN",
    "chunks": "COPY chunks (id, repo_id, path, start_line, end_line, symbol, kind, tokens, stream) FROM STDIN",
    "chunk_terms": "COPY chunk_terms (chunk_id, repo_id, term, tf) FROM STDIN",
}


class PostgresStore(PostgresReads, PostgresVectors, Store):
    """A Maguyva index for ``location.repo`` in ``location.workspace`` on a PostgreSQL server."""

    def __init__(
        self,
        location: PostgresLocation | str,
        *,
        readonly: bool = False,
        conn: psycopg.Connection | None = None,
    ):
        self.location = PostgresLocation.parse(location)
        if self.location.whole_workspace:
            raise StoreError(f"{self.location}: name one repository (repo=NAME) to open a store")
        self.conn = conn or catalog.connect(self.location.conninfo, create=not readonly)
        self._owns_conn = conn is None
        workspace, repo = self.location.workspace, self.location.repo
        found = (
            catalog.find_repo(self.conn, workspace, repo)
            if readonly
            else catalog.ensure_repo(self.conn, workspace, repo)
        )
        if found is None:
            self.close()
            raise StoreError(
                f"no index for repository {repo!r} in workspace {workspace!r} "
                f"(run `orkestra code index --store URL` in CI first)"
            )
        self.repo_id: int = found
        self.hamming = "pgvector-hnsw" if catalog.has_pgvector(self.conn) else "bit_count"
        self._pending: dict[str, list[tuple]] = {table: [] for table in _COPY}
        self._pending_chunks: list[tuple] = []
        self._paths: set[str] | None = None
        self._in_transaction = False

    # ---- lifecycle ----
    @contextmanager
    def transaction(self) -> Iterator[None]:
        if self._in_transaction:
            yield
            return
        try:
            with self.conn.transaction():
                self._in_transaction = True
                self.conn.execute("SELECT pg_advisory_xact_lock(%s, %s)", (_WRITE_LOCK, self.repo_id))
                yield
                self._flush()
        except BaseException:
            self._discard()
            raise
        finally:
            self._in_transaction = False

    def close(self) -> None:
        if self._owns_conn and not self.conn.closed:
            self.conn.close()

    def integrity_check(self) -> str:
        orphans = self._one(
            "SELECT count(*) FROM symbols s WHERE s.repo_id = %s AND NOT EXISTS "
            "(SELECT 1 FROM files f WHERE f.repo_id = s.repo_id AND f.path = s.path)",
            (self.repo_id,),
        )[0]
        return "ok" if orphans == 0 else f"{orphans} symbols without a file"

    def clear(self) -> None:
        self._discard()
        for table in ("files", "symbols", "refs", "edges", "chunks", "snapshots", "centrality"):
            self.conn.execute(f"DELETE FROM {table} WHERE repo_id = %s", (self.repo_id,))  # chunks cascade
        self._paths = set()

    # ---- writes ----
    def file_states(self):
        rows = self._rows(
            "SELECT path, size, mtime_ns, hash FROM files WHERE repo_id = %s ORDER BY id", (self.repo_id,)
        )
        return {p: (s, m, h) for p, s, m, h in rows}

    def file_labels(self):
        rows = self._rows("SELECT path, language, flags FROM files WHERE repo_id = %s", (self.repo_id,))
        return {p: (language, tuple(f for f in flags.split(",") if f)) for p, language, flags in rows}

    def put_file(
        self, record: FileRecord, mtime_ns: int, extraction: FileExtraction, text: str | FileText
    ) -> None:
        if isinstance(text, FileText):  # compressed by a worker for SQLite; PostgreSQL keeps plain text
            text = text.text
        if record.path in self._known_paths():
            self.delete_file(record.path)
        repo = self.repo_id
        self._pending["files"].append((repo, *file_values(record, mtime_ns, extraction), _clean(text)))
        self._pending["symbols"] += [
            (
                repo,
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
        ]
        self._pending["refs"] += [
            (repo, r.path, r.name, r.kind, r.line, r.col, r.qualifier, r.scope, r.module, r.alias)
            for r in extraction.references
        ]
        self._pending_chunks += [
            (c.path, c.start_line, c.end_line, c.symbol, c.kind, postings(c.text, c.words))
            for c in extraction.chunks
        ]
        self._paths.add(record.path)
        self._written()

    def touch_file(self, path: str, mtime_ns: int) -> None:
        self._execute(
            "UPDATE files SET mtime_ns = %s WHERE repo_id = %s AND path = %s", (mtime_ns, self.repo_id, path)
        )

    def delete_file(self, path: str) -> None:
        self._flush()
        for table in ("files", "symbols", "refs", "chunks"):
            self.conn.execute(f"DELETE FROM {table} WHERE repo_id = %s AND path = %s", (self.repo_id, path))
        self._known_paths().discard(path)

    def replace_edges(self, src_paths: Iterable[str], edges: Iterable[Edge]) -> None:
        self._flush()
        self.conn.execute(
            "DELETE FROM edges WHERE repo_id = %s AND src_path = ANY(%s)", (self.repo_id, list(src_paths))
        )
        self._add_edges(edges)

    def replace_reference_edges(self, edges: Iterable[Edge]) -> None:
        edges = list(edges)
        self._flush()
        self.conn.execute(
            "DELETE FROM edges e USING unnest(%s::text[], %s::int[], %s::int[], %s::text[], %s::text[]) "
            "AS k(path, line, col, kind, name) WHERE e.repo_id = %s AND e.src_path = k.path "
            "AND e.src_line = k.line AND e.src_col = k.col AND e.kind = k.kind AND e.name = k.name",
            (
                [e.src_path for e in edges],
                [e.src_line for e in edges],
                [e.src_col for e in edges],
                [e.kind for e in edges],
                [e.name for e in edges],
                self.repo_id,
            ),
        )
        self._add_edges(edges)

    def _add_edges(self, edges: Iterable[Edge]) -> None:
        self._pending["edges"] += [(self.repo_id, *edge_values(e)) for e in edges]
        self._written()

    def set_centrality(self, rows: Iterable[Centrality]) -> None:
        self.conn.execute("DELETE FROM centrality WHERE repo_id = %s", (self.repo_id,))
        with self.conn.cursor().copy(
            "COPY centrality (repo_id, path, symbol, pagerank, in_degree, out_degree) FROM STDIN"
        ) as copy:
            for c in rows:
                copy.write_row((self.repo_id, c.path, c.symbol or "", c.pagerank, c.in_degree, c.out_degree))

    def add_snapshot(self, snapshot: Snapshot) -> None:
        self._execute(
            "INSERT INTO snapshots (repo_id, commit_sha, created_at, dirty) VALUES (%s, %s, %s, %s)",
            (self.repo_id, snapshot.commit, snapshot.created_at, json.dumps(list(snapshot.dirty))),
        )

    # ---- buffering ----
    def _known_paths(self) -> set[str]:
        if self._paths is None:
            self._paths = set(self.file_states())
        return self._paths

    def _written(self) -> None:
        pending = sum(map(len, self._pending.values())) + len(self._pending_chunks)
        if not self._in_transaction or pending >= _FLUSH_ROWS:
            self._flush()

    def _flush(self) -> None:
        """Send buffered rows with COPY (chunk ids are drawn from the sequence first)."""
        if self._pending_chunks:
            ids = [
                row[0]
                for row in self.conn.execute(
                    "SELECT nextval('chunks_id_seq') FROM generate_series(1, %s)",
                    (len(self._pending_chunks),),
                )
            ]
            for chunk_id, (path, start, end, symbol, kind, post) in zip(ids, self._pending_chunks):
                self._pending["chunks"].append(
                    (chunk_id, self.repo_id, path, start, end, symbol, kind, post.tokens, post.stream)
                )
                self._pending["chunk_terms"] += [
                    (chunk_id, self.repo_id, term, tf) for term, tf in post.tf.items()
                ]
            self._pending_chunks = []
        for table, statement in _COPY.items():
            rows = self._pending[table]
            if rows:
                with self.conn.cursor().copy(statement) as copy:
                    for row in rows:
                        copy.write_row(row)
                rows.clear()

    def _discard(self) -> None:
        for rows in self._pending.values():
            rows.clear()
        self._pending_chunks = []
        self._paths = None

    def _execute(self, sql: str, args: tuple) -> None:
        self._flush()
        self.conn.execute(sql, args)

    def _rows(self, sql: str, args) -> list[tuple]:
        self._flush()
        return self.conn.execute(sql, args).fetchall()

    def _one(self, sql: str, args) -> tuple | None:
        self._flush()
        return self.conn.execute(sql, args).fetchone()


def _clean(text: str) -> str:
    """PostgreSQL text cannot hold NUL; it becomes U+FFFD (the file is still searchable)."""
    return text.replace("\x00", "\ufffd") if "\x00" in text else text
