"""The embedder interface and the factory that makes the configured one (settings: ``embed.settings``).

Every backend returns *packed sign bits* (uint8, dims/8 bytes per vector): the semantic
modality only ever stores and compares bits.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # annotations only: `code grep` and friends must not pay numpy's import
    import numpy as np

from maguyva.embed.settings import BACKENDS, EmbeddingError, EmbeddingSettings, estimate_tokens, settings_for

__all__ = [
    "BACKENDS",
    "Embedder",
    "EmbeddingError",
    "EmbeddingSettings",
    "estimate_tokens",
    "make_embedder",
    "settings_for",
    "shared_embedder",
]


class Embedder(Protocol):
    backend: str
    model: str
    dims: int

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """Packed sign bits, shape (len(texts), dims // 8), dtype uint8."""

    def embed_query(self, text: str) -> np.ndarray:
        """Packed sign bits of one query, shape (dims // 8,)."""

    def count_tokens(self, texts: Sequence[str]) -> int:
        """An estimate of the tokens ``texts`` cost (for ``code embed --estimate``)."""


def make_embedder(settings: EmbeddingSettings, environ: Mapping[str, str] = os.environ) -> Embedder | None:
    """The configured embedder, or None for the ``none`` backend."""
    if settings.backend == "none":
        return None
    if settings.backend == "voyage":
        from maguyva.embed.voyage import VoyageEmbedder

        return VoyageEmbedder(settings, api_key=environ.get(settings.api_key_env))
    from maguyva.embed.local import LocalEmbedder

    return LocalEmbedder(settings)


_SHARED: dict[EmbeddingSettings, Embedder] = {}


def shared_embedder(settings: EmbeddingSettings) -> Embedder:
    """One embedder per settings per process (loading a local model takes seconds)."""
    if settings not in _SHARED:
        embedder = make_embedder(settings)
        if embedder is None:
            raise EmbeddingError("embeddings are off (backend none)")
        _SHARED[settings] = embedder
    return _SHARED[settings]
