"""Brute-force top-k Hamming search over packed sign bits (FEASIBILITY §3).

Vectors are stored packed (2048 bits → 256 bytes). Rows are viewed as uint64 words so
``np.bitwise_count`` counts 64 bits per operation; large matrices are scanned in two halves
on two threads (numpy releases the GIL), which is where a 2-core machine gains ~2×.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

_PARALLEL_ROWS = 20_000


def pack_signs(vectors: np.ndarray) -> np.ndarray:
    """Float vectors (n, dims) → packed sign bits (n, dims/8) as uint8; bit = value > 0."""
    matrix = np.atleast_2d(np.asarray(vectors))
    if matrix.shape[1] % 8:
        raise ValueError(f"dimension {matrix.shape[1]} is not a multiple of 8")
    return np.packbits(matrix > 0, axis=1)


def _pad_to_words(packed: np.ndarray) -> np.ndarray:
    """Pad rows with zero bytes to a multiple of 8 bytes so they can be viewed as uint64."""
    width = packed.shape[1]
    padded_width = (width + 7) // 8 * 8
    if padded_width == width:
        return np.ascontiguousarray(packed)
    out = np.zeros((packed.shape[0], padded_width), dtype=np.uint8)
    out[:, :width] = packed
    return out


@dataclass
class HammingIndex:
    """Packed vectors with their ids, searchable by Hamming distance."""

    ids: np.ndarray  # (n,) int64
    words: np.ndarray  # (n, w) uint64 view of the padded packed bits
    nbytes: int  # packed bytes per vector before padding

    @classmethod
    def build(cls, ids: np.ndarray | list[int], packed: np.ndarray) -> HammingIndex:
        packed = np.asarray(packed, dtype=np.uint8)
        if packed.ndim != 2:
            raise ValueError("packed vectors must be a 2-D uint8 array")
        words = _pad_to_words(packed).view(np.uint64)
        return cls(np.asarray(ids, dtype=np.int64), words, packed.shape[1])

    def __len__(self) -> int:
        return len(self.ids)

    def distances(self, query: np.ndarray) -> np.ndarray:
        """Hamming distance from ``query`` (packed uint8) to every row."""
        q = _pad_to_words(np.asarray(query, dtype=np.uint8).reshape(1, -1)).view(np.uint64)
        if len(self.words) < _PARALLEL_ROWS:
            return np.bitwise_count(self.words ^ q).sum(axis=1, dtype=np.int32)
        half = len(self.words) // 2
        with ThreadPoolExecutor(max_workers=2) as pool:
            parts = pool.map(
                lambda block: np.bitwise_count(block ^ q).sum(axis=1, dtype=np.int32),
                (self.words[:half], self.words[half:]),
            )
            return np.concatenate(list(parts))

    def search(self, query: np.ndarray, k: int = 10) -> list[tuple[int, int]]:
        """Top-k (id, distance), nearest first; ties broken by id for determinism."""
        if len(self) == 0 or k <= 0:
            return []
        dist = self.distances(query)
        k = min(k, len(dist))
        candidates = np.argpartition(dist, k - 1)[:k] if k < len(dist) else np.arange(len(dist))
        # include every row tied with the k-th distance so the id tie-break is exact
        cutoff = dist[candidates].max()
        tied = np.nonzero(dist <= cutoff)[0]
        order = np.lexsort((self.ids[tied], dist[tied]))[:k]
        chosen = tied[order]
        return [(int(self.ids[i]), int(dist[i])) for i in chosen]


def brute_force(packed: np.ndarray, query: np.ndarray, k: int) -> list[tuple[int, int]]:
    """Reference implementation: unpack every bit and count differences (slow, for tests)."""
    bits = np.unpackbits(np.asarray(packed, dtype=np.uint8), axis=1)
    qbits = np.unpackbits(np.asarray(query, dtype=np.uint8))
    dist = (bits != qbits).sum(axis=1)
    order = sorted(range(len(dist)), key=lambda i: (int(dist[i]), i))[:k]
    return [(i, int(dist[i])) for i in order]
