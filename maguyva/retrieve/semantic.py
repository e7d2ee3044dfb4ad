"""Semantic retrieval: the query's sign bits against every chunk's, by Hamming distance."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from maguyva.embed.hamming import HammingIndex
from maguyva.embed.pipeline import model_key
from maguyva.retrieve.hits import Hit

if TYPE_CHECKING:
    from maguyva.retrieve.query import ParsedQuery
    from maguyva.store.base import Store

_QUERY_CACHE: OrderedDict[tuple[str, str], Any] = OrderedDict()
_QUERY_CACHE_SIZE = 256
_INDEXES: dict[tuple[int, str], tuple[int, HammingIndex]] = {}


def query_bits(embedder: Any, query: str):
    """The query embedded once per process (an LRU of recent queries)."""
    key = (model_key(embedder), query)
    if key in _QUERY_CACHE:
        _QUERY_CACHE.move_to_end(key)
        return _QUERY_CACHE[key]
    bits = embedder.embed_query(query)
    _QUERY_CACHE[key] = bits
    if len(_QUERY_CACHE) > _QUERY_CACHE_SIZE:
        _QUERY_CACHE.popitem(last=False)
    return bits


def vector_index(store: Store, key: str) -> HammingIndex:
    """The store's vectors for ``key`` as a Hamming index, rebuilt only when they changed."""
    version = store.vector_version(key)
    cached = _INDEXES.get((id(store), key))
    if cached and cached[0] == version:
        return cached[1]
    ids, packed = store.load_vectors(key)
    index = HammingIndex.build(ids, packed)
    _INDEXES[(id(store), key)] = (version, index)
    return index


@dataclass(frozen=True, slots=True)
class SemanticRetriever:
    """The semantic modality: chunks nearest the query's embedding (none without an embedder)."""

    store: Store
    embedder: Any  # maguyva.embed's embedder, or None when the index has no vectors to compare
    modality: ClassVar[str] = "semantic"

    def retrieve(self, query: ParsedQuery, limit: int) -> list[Hit]:
        return [] if self.embedder is None else _search(self.store, self.embedder, query.text, limit)


def _search(store: Store, embedder: Any, query: str, limit: int) -> list[Hit]:
    key = model_key(embedder)
    if store.searches_vectors:
        nearest = store.nearest_vectors(key, query_bits(embedder, query), limit)
    else:
        index = vector_index(store, key)
        if len(index) == 0:
            return []
        nearest = index.search(query_bits(embedder, query), limit)
    chunks = store.chunks_by_id([chunk_id for chunk_id, _ in nearest])
    hits = []
    bits = embedder.dims
    for chunk_id, distance in nearest:
        row = chunks.get(chunk_id)
        if row is None:
            continue
        snippet = f"{row.kind} {row.symbol}" if row.symbol else row.path
        hits.append(
            Hit(
                row.path,
                row.start_line,
                row.end_line,
                row.symbol,
                row.kind,
                snippet,
                1.0 - distance / bits,
                "semantic",
            )
        )
    return hits
