"""Embedding a repository's index, as one library call (``maguyva embed`` is a thin layer over it).

The backend comes from ``maguyva.embeddings`` in orkestra.yaml unless ``backend`` names one;
vectors are cached apart from the index (``maguyva.embed.cache``), so nothing is paid twice.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from maguyva.embed.settings import EmbeddingError, EmbeddingSettings, settings_for

if TYPE_CHECKING:
    from maguyva.embed.cache import EmbeddingCache
    from maguyva.embed.pipeline import EmbedSummary, Estimate
    from maguyva.store.base import Store


def chosen_settings(root: Path, backend: str | None = None) -> EmbeddingSettings:
    """The repository's embedding settings, or ``backend``'s defaults; refuses the ``none`` backend."""
    settings = EmbeddingSettings.from_config({"backend": backend}) if backend else settings_for(root)
    if settings.backend == "none":
        raise EmbeddingError(
            "embeddings are off: set maguyva.embeddings.backend in orkestra.yaml "
            "(voyage or local) or pass --backend"
        )
    return settings


@contextmanager
def _opened(
    repo: Path | str, store: str | None, backend: str | None
) -> Iterator[tuple[Store, EmbeddingSettings, EmbeddingCache]]:
    from maguyva.embed.cache import EmbeddingCache, default_cache_path
    from maguyva.store import open_store
    from maguyva.store.location import repository_root, store_path

    root = repository_root(Path(repo), store)
    settings = chosen_settings(root, backend)
    index = open_store(store_path(root, store))
    try:
        with EmbeddingCache(default_cache_path()) as cache:
            yield index, settings, cache
    finally:
        index.close()


def estimate_repository(
    repo: Path | str = ".", store: str | None = None, *, backend: str | None = None
) -> Estimate:
    """Chunks, cached vectors, tokens and cost of embedding the index; embeds nothing."""
    from maguyva.embed.pipeline import estimate

    with _opened(repo, store, backend) as (index, settings, cache):
        return estimate(index, settings, cache)


def embed_repository(
    repo: Path | str = ".",
    store: str | None = None,
    *,
    backend: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> EmbedSummary:
    """Give every chunk of the index a binary-quantised vector (cache hits are free)."""
    from maguyva.embed.base import make_embedder
    from maguyva.embed.pipeline import embed_index

    with _opened(repo, store, backend) as (index, settings, cache):
        return embed_index(index, make_embedder(settings), cache, progress=progress)
