"""Embedding an index: chunks without vectors → units → cache or embedder → packed bits in the store."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from maguyva.embed.cache import EmbeddingCache, content_hash, embed_cached
from maguyva.embed.settings import EmbeddingSettings, estimate_tokens
from maguyva.embed.units import build_units

if TYPE_CHECKING:
    from maguyva.embed.base import Embedder
    from maguyva.store.base import Store


def model_key(embedder_or_settings) -> str:
    """The identity vectors are stored under: backend/model/dims."""
    return f"{embedder_or_settings.backend}/{embedder_or_settings.model}/{embedder_or_settings.dims}"


@dataclass(frozen=True, slots=True)
class EmbedSummary:
    model: str
    chunks: int  # chunks that needed vectors
    cache_hits: int
    embedded: int  # sent to the embedder (and paid for)
    coverage: float  # share of the index's chunks that now have vectors

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class Estimate:
    model: str
    chunks: int
    cached: int
    to_embed: int
    tokens: int
    estimated_cost_usd: float | None

    def to_dict(self) -> dict:
        return asdict(self)


def _pending_units(store: Store, key: str):
    rows = store.chunks_without_vectors(key)
    paths = sorted({r.path for r in rows})
    file_lines = {p: (store.file_text(p) or "").splitlines() for p in paths}
    return build_units(rows, file_lines)


def estimate(
    store: Store, settings: EmbeddingSettings, cache: EmbeddingCache, embedder: Embedder | None = None
) -> Estimate:
    """What ``embed_index`` would send, and (for Voyage) what it would cost — nothing is spent."""
    key = model_key(settings)
    units = _pending_units(store, key)
    probe = embedder or _KeyOnly(settings)
    known = cache.get_many(probe, [content_hash(u.text) for u in units])
    todo = [u for u in units if content_hash(u.text) not in known]
    tokens = estimate_tokens([u.text for u in todo])
    cost = (
        round(tokens / 1e6 * settings.price_per_million_tokens, 4) if settings.backend == "voyage" else None
    )
    return Estimate(key, len(units), len(units) - len(todo), len(todo), tokens, cost)


def embed_index(
    store: Store,
    embedder: Embedder,
    cache: EmbeddingCache,
    progress: Callable[[int, int], None] | None = None,
) -> EmbedSummary:
    """Give every chunk of the index a vector, embedding only what the cache lacks."""
    key = model_key(embedder)
    units = _pending_units(store, key)
    packed, stats = embed_cached(embedder, cache, [u.text for u in units], progress=progress)
    with store.transaction():
        store.put_vectors(key, [(u.chunk_id, packed[i].tobytes()) for i, u in enumerate(units)])
    with_vectors, total = store.vector_coverage(key)
    return EmbedSummary(
        key, len(units), stats.cache_hits, stats.embedded, round(with_vectors / total, 4) if total else 1.0
    )


@dataclass(frozen=True, slots=True)
class _KeyOnly:
    """Stands in for an embedder when only the cache key is needed (no model is loaded)."""

    settings: EmbeddingSettings

    @property
    def backend(self) -> str:
        return self.settings.backend

    @property
    def model(self) -> str:
        return self.settings.model

    @property
    def dims(self) -> int:
        return self.settings.dims


def embedding_status(store: Store, settings: EmbeddingSettings) -> dict:
    """Backend, model and coverage of the index's vectors, for ``code status`` and ``index_status``."""
    if settings.backend == "none":
        return {"backend": "none", "model": None, "dims": 0, "vectors": 0, "chunks": None, "coverage": None}
    key = model_key(settings)
    with_vectors, total = store.vector_coverage(key)
    return {
        "backend": settings.backend,
        "model": settings.model,
        "dims": settings.dims,
        "vectors": with_vectors,
        "chunks": total,
        "coverage": round(100.0 * with_vectors / total, 1) if total else 0.0,
    }
