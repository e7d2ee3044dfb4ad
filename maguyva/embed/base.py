"""The embedder interface and the settings that choose a backend.

Every backend returns *packed sign bits* (uint8, dims/8 bytes per vector): the semantic
modality only ever stores and compares bits.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping, Protocol, Sequence

if TYPE_CHECKING:  # annotations only: `code grep` and friends must not pay numpy's import
    import numpy as np

from maguyva.errors import MaguyvaError

BACKENDS = ("voyage", "local", "none")


class EmbeddingError(MaguyvaError):
    """An embedding request that failed in a way the user must fix (key, request, backend)."""


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


@dataclass(frozen=True, slots=True)
class EmbeddingSettings:
    """``maguyva.embeddings`` in orkestra.yaml (or MAGUYVA_EMBEDDINGS=backend in the environment)."""

    backend: str = "none"
    model: str = ""
    dims: int = 0
    base_url: str | None = None
    api_key_env: str = "VOYAGE_API_KEY"
    batch_size: int = 128
    max_batch_tokens: int = 100_000
    max_retries: int = 5
    backoff_seconds: float = 1.0
    price_per_million_tokens: float = 0.12  # list price used for estimates; configure to your contract

    @classmethod
    def from_config(cls, raw: Mapping[str, Any] | None, environ: Mapping[str, str] = os.environ
                    ) -> "EmbeddingSettings":
        data = dict(raw or {})
        if environ.get("MAGUYVA_EMBEDDINGS"):
            data["backend"] = environ["MAGUYVA_EMBEDDINGS"]
        backend = data.get("backend", "none")
        if backend not in BACKENDS:
            raise EmbeddingError(f"unknown embeddings backend {backend!r} (choose one of {', '.join(BACKENDS)})")
        defaults = {"voyage": ("voyage-4-large", 2048), "local": ("all-MiniLM-L6-v2", 384), "none": ("", 0)}
        model, dims = defaults[backend]
        data.setdefault("model", model)
        data.setdefault("dims", dims)
        known = {f for f in cls.__slots__}  # type: ignore[attr-defined]
        unknown = sorted(set(data) - known)
        if unknown:
            raise EmbeddingError(f"unknown embeddings setting {unknown[0]!r}")
        return cls(**data)


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


def estimate_tokens(texts: Sequence[str]) -> int:
    """Rough token count for code: ~3.5 characters per token."""
    return sum(max(1, round(len(t) / 3.5)) for t in texts)


def settings_for(root: "os.PathLike[str] | str", environ: Mapping[str, str] = os.environ) -> EmbeddingSettings:
    """The embedding settings of the repository at ``root`` (``maguyva.embeddings`` in orkestra.yaml)."""
    from maguyva.config_file import declares_section

    raw: Mapping[str, Any] | None = None
    if declares_section(root):  # the model (pydantic) is imported only when there is a section to check
        from maguyva.config import load_maguyva_config

        embeddings = load_maguyva_config(root).embeddings
        raw = embeddings.settings_mapping() if embeddings else None
    return EmbeddingSettings.from_config(raw, environ)
