"""The embedding cache: the one asset that costs money to rebuild.

Keyed by (backend, model, dims, content hash) and stored apart from the index (a user cache
directory by default), so it survives ``--full`` re-indexes, branch switches and deleting
the index. Unchanged chunks are never embedded twice.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from maguyva.embed.base import Embedder

_SCHEMA = """
CREATE TABLE IF NOT EXISTS embeddings (
    backend TEXT NOT NULL,
    model TEXT NOT NULL,
    dims INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    bits BLOB NOT NULL,
    PRIMARY KEY (backend, model, dims, content_hash)
) WITHOUT ROWID;
"""


def default_cache_path(environ: Mapping[str, str] = os.environ) -> Path:
    """``$MAGUYVA_EMBED_CACHE``, else ``$XDG_CACHE_HOME/maguyva/embeddings.sqlite`` (~/.cache by default)."""
    if environ.get("MAGUYVA_EMBED_CACHE"):
        return Path(environ["MAGUYVA_EMBED_CACHE"])
    base = Path(environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "maguyva" / "embeddings.sqlite"


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class EmbedStats:
    chunks: int
    cache_hits: int
    embedded: int


class EmbeddingCache:
    """A small SQLite file of packed vectors, safe to share between repositories."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> EmbeddingCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def get_many(self, embedder: Embedder, hashes: Sequence[str]) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        unique = list(dict.fromkeys(hashes))
        for start in range(0, len(unique), 500):
            part = unique[start : start + 500]
            marks = ",".join("?" * len(part))
            rows = self._db.execute(
                f"SELECT content_hash, bits FROM embeddings WHERE backend=? AND model=? AND dims=? "
                f"AND content_hash IN ({marks})",
                (embedder.backend, embedder.model, embedder.dims, *part),
            )
            found.update(rows)
        return found

    def put_many(self, embedder: Embedder, items: Mapping[str, bytes]) -> None:
        with self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO embeddings (backend, model, dims, content_hash, bits) VALUES (?,?,?,?,?)",
                [(embedder.backend, embedder.model, embedder.dims, h, bits) for h, bits in items.items()],
            )

    def count(self, embedder: Embedder | None = None) -> int:
        if embedder is None:
            return self._db.execute("SELECT count(*) FROM embeddings").fetchone()[0]
        return self._db.execute(
            "SELECT count(*) FROM embeddings WHERE backend=? AND model=? AND dims=?",
            (embedder.backend, embedder.model, embedder.dims),
        ).fetchone()[0]


def embed_cached(
    embedder: Embedder,
    cache: EmbeddingCache,
    texts: Sequence[str],
    *,
    batch: int = 256,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[np.ndarray, EmbedStats]:
    """Packed vectors for ``texts``, embedding only those the cache does not hold.

    New vectors are written to the cache batch by batch, so an interrupted run keeps what it paid for.
    """
    hashes = [content_hash(t) for t in texts]
    known = cache.get_many(embedder, hashes)
    missing = [h for h in dict.fromkeys(hashes) if h not in known]
    text_of = dict(zip(hashes, texts))
    done = 0
    for start in range(0, len(missing), batch):
        part = missing[start : start + batch]
        vectors = embedder.embed_documents([text_of[h] for h in part])
        fresh = {h: vectors[i].tobytes() for i, h in enumerate(part)}
        cache.put_many(embedder, fresh)
        known.update(fresh)
        done += len(part)
        if progress:
            progress(done, len(missing))
    width = embedder.dims // 8
    packed = np.zeros((len(texts), width), dtype=np.uint8)
    for i, h in enumerate(hashes):
        packed[i] = np.frombuffer(known[h], dtype=np.uint8)
    return packed, EmbedStats(
        len(texts), len(texts) - len([h for h in hashes if h in set(missing)]), len(missing)
    )
