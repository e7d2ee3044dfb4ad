"""Packed embedding bits per chunk in PostgreSQL ``bit varying`` columns (mixed into ``PostgresStore``).

Nearest neighbours are found in the database: exactly with ``bit_count(bits # query)``
(Hamming distance, FEASIBILITY §6), or — when the pgvector extension is installed — through
an HNSW ``bit_hamming_ops`` index per vector width, queried with ``<~>`` (approximate, with
iterative scans so a repository's filter still fills the top k). Ties go by chunk id, like
the in-memory ``HammingIndex``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from maguyva.store.values import ChunkRow

_CHUNK_COLUMNS = "c.id, c.path, c.start_line, c.end_line, c.symbol, c.kind"
# {dims} is an int computed from the data, never user text
HNSW_INDEX = (
    "CREATE INDEX IF NOT EXISTS vectors_hnsw_{dims} ON vectors USING hnsw "
    "((bits::bit({dims})) bit_hamming_ops) WHERE length(bits) = {dims}"
)
HNSW_NEAREST = (
    "SELECT chunk_id, (bits::bit({dims}) <~> %(q)s::bit({dims}))::int AS d FROM vectors "
    "WHERE length(bits) = {dims} AND repo_id = %(repo)s AND model = %(model)s "
    "ORDER BY bits::bit({dims}) <~> %(q)s::bit({dims}) LIMIT %(limit)s"
)
EXACT_NEAREST = (
    "SELECT chunk_id, bit_count(bits # %(q)s::varbit) AS d FROM vectors "
    "WHERE repo_id = %(repo)s AND model = %(model)s ORDER BY d, chunk_id LIMIT %(limit)s"
)


def to_bits(packed: bytes) -> str:
    """Packed bytes → PostgreSQL's bit-string text ("0101…")."""
    return "".join(f"{byte:08b}" for byte in packed)


def from_bits(bits: str) -> bytes:
    return int(bits, 2).to_bytes(len(bits) // 8, "big") if bits else b""


class PostgresVectors:
    repo_id: int
    hamming: str  # "pgvector-hnsw" when the extension is installed, else "bit_count"
    searches_vectors = True  # nearest_vectors runs in the database

    def chunks_without_vectors(self, model: str) -> list[ChunkRow]:
        rows = self._rows(
            f"SELECT {_CHUNK_COLUMNS} FROM chunks c LEFT JOIN vectors v "
            "ON v.chunk_id = c.id AND v.model = %s WHERE c.repo_id = %s AND v.chunk_id IS NULL "
            "ORDER BY c.path, c.start_line, c.id",
            (model, self.repo_id),
        )
        return [ChunkRow(*row) for row in rows]

    def put_vectors(self, model: str, rows: Iterable[tuple[int, bytes]]) -> None:
        self._flush()
        # only this repository's chunks: ids from elsewhere are dropped, never written
        wanted = {chunk_id: bits for chunk_id, bits in rows}
        mine = {
            row[0]
            for row in self._rows(
                "SELECT id FROM chunks WHERE repo_id = %s AND id = ANY(%s)", (self.repo_id, list(wanted))
            )
        }
        self.conn.execute(
            "DELETE FROM vectors WHERE model = %s AND chunk_id = ANY(%s)", (model, sorted(mine))
        )
        with self.conn.cursor().copy("COPY vectors (chunk_id, repo_id, model, bits) FROM STDIN") as copy:
            for chunk_id in sorted(mine):
                copy.write_row((chunk_id, self.repo_id, model, to_bits(wanted[chunk_id])))
        widths = {len(wanted[chunk_id]) * 8 for chunk_id in mine}
        if self.hamming == "pgvector-hnsw":
            for dims in sorted(widths):
                self.conn.execute(HNSW_INDEX.format(dims=int(dims)))

    def load_vectors(self, model: str) -> tuple[np.ndarray, np.ndarray]:
        rows = self._rows(
            "SELECT chunk_id, bits::text FROM vectors WHERE repo_id = %s AND model = %s ORDER BY chunk_id",
            (self.repo_id, model),
        )
        if not rows:
            return np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.uint8)
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        packed = np.frombuffer(b"".join(from_bits(r[1]) for r in rows), dtype=np.uint8).reshape(len(rows), -1)
        return ids, packed

    def vector_version(self, model: str) -> tuple[int, int]:
        return tuple(
            int(v)
            for v in self._one(
                "SELECT count(*), coalesce(sum(chunk_id), 0) FROM vectors WHERE repo_id = %s AND model = %s",
                (self.repo_id, model),
            )
        )

    def vector_coverage(self, model: str) -> tuple[int, int]:
        with_vectors = self._one(
            "SELECT count(*) FROM vectors WHERE repo_id = %s AND model = %s", (self.repo_id, model)
        )[0]
        total = self._one("SELECT count(*) FROM chunks WHERE repo_id = %s", (self.repo_id,))[0]
        return with_vectors, total

    def chunks_by_id(self, ids: Sequence[int]) -> dict[int, ChunkRow]:
        rows = self._rows(
            f"SELECT {_CHUNK_COLUMNS} FROM chunks c WHERE c.repo_id = %s AND c.id = ANY(%s)",
            (self.repo_id, [int(i) for i in ids]),
        )
        return {row[0]: ChunkRow(*row) for row in rows}

    def nearest_vectors(self, model: str, query: np.ndarray, limit: int) -> list[tuple[int, int]]:
        """Top-``limit`` (chunk id, Hamming distance) for packed ``query`` bits, nearest first."""
        bits = to_bits(np.asarray(query, dtype=np.uint8).tobytes())
        args = {"q": bits, "repo": self.repo_id, "model": model, "limit": limit}
        if self.hamming != "pgvector-hnsw":
            return [(int(i), int(d)) for i, d in self._rows(EXACT_NEAREST, args)]
        self._flush()
        with self.conn.transaction():
            self.conn.execute("SET LOCAL hnsw.iterative_scan = relaxed_order")
            rows = self.conn.execute(HNSW_NEAREST.format(dims=len(bits)), args).fetchall()
        return [(int(i), int(d)) for i, d in sorted(rows, key=lambda row: (row[1], row[0]))]
