"""Packed embedding bits per chunk, for the SQLite store (mixed into ``SQLiteStore``).

Vectors live beside the chunks they embed and are keyed by model (``backend/model/dims``).
A trigger drops a chunk's vectors when the chunk is deleted (a re-indexed file gets new
chunks), so a vector can never describe text it was not computed from.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the embedding modules are imported by the methods that build their rows
    import numpy as np

    from maguyva.store.values import ChunkRow

VECTOR_SCHEMA = """
CREATE TABLE IF NOT EXISTS vectors (
    chunk_id INTEGER NOT NULL, model TEXT NOT NULL, bits BLOB NOT NULL, PRIMARY KEY (chunk_id, model)
) WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS chunks_drop_vectors AFTER DELETE ON chunks
BEGIN DELETE FROM vectors WHERE chunk_id = old.id; END;
"""


class SQLiteVectors:
    db: sqlite3.Connection

    def chunks_without_vectors(self, model: str) -> list[ChunkRow]:
        from maguyva.store.values import ChunkRow

        rows = self.db.execute(
            "SELECT c.id, c.path, c.start_line, c.end_line, c.symbol, c.kind FROM chunk_rows c "
            "LEFT JOIN vectors v ON v.chunk_id = c.id AND v.model = ? WHERE v.chunk_id IS NULL "
            "ORDER BY c.path, c.start_line",
            (model,),
        )
        return [ChunkRow(*row) for row in rows]

    def put_vectors(self, model: str, rows: Iterable[tuple[int, bytes]]) -> None:
        self.db.executemany(
            "INSERT OR REPLACE INTO vectors (model, chunk_id, bits) VALUES (?,?,?)",
            [(model, chunk_id, bits) for chunk_id, bits in rows],
        )

    def load_vectors(self, model: str) -> tuple[np.ndarray, np.ndarray]:
        import numpy as np  # only semantic search needs it; keep store start-up light

        rows = self.db.execute(
            "SELECT chunk_id, bits FROM vectors WHERE model = ? ORDER BY chunk_id", (model,)
        ).fetchall()
        if not rows:
            return np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.uint8)
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        packed = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.uint8).reshape(len(rows), -1)
        return ids, packed

    def vector_version(self, model: str) -> tuple[int, int]:
        """Changes whenever vectors are added or dropped (count and id sum)."""
        return tuple(
            self.db.execute(
                "SELECT count(*), coalesce(sum(chunk_id), 0) FROM vectors WHERE model = ?", (model,)
            ).fetchone()
        )

    def vector_coverage(self, model: str) -> tuple[int, int]:
        """(chunks with a vector for ``model``, all chunks)."""
        with_vectors = self.db.execute("SELECT count(*) FROM vectors WHERE model = ?", (model,)).fetchone()[0]
        total = self.db.execute("SELECT count(*) FROM chunks").fetchone()[0]
        return with_vectors, total

    def chunks_by_id(self, ids: Sequence[int]) -> dict[int, ChunkRow]:
        from maguyva.store.values import ChunkRow

        found: dict[int, ChunkRow] = {}
        for start in range(0, len(ids), 500):
            part = list(ids[start : start + 500])
            marks = ",".join("?" * len(part))
            for row in self.db.execute(
                f"SELECT id, path, start_line, end_line, symbol, kind FROM chunk_rows WHERE id IN ({marks})",
                part,
            ):
                found[row[0]] = ChunkRow(*row)
        return found
