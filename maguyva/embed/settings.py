"""The settings that choose an embedding backend (``maguyva.embeddings`` in orkestra.yaml).

The backends (``local``, ``voyage``) import these; ``embed.base`` imports the backends lazily,
so the two never import each other.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from maguyva.errors import MaguyvaError

BACKENDS = ("voyage", "local", "none")


class EmbeddingError(MaguyvaError):
    """An embedding request that failed in a way the user must fix (key, request, backend)."""


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
    def from_config(
        cls, raw: Mapping[str, Any] | None, environ: Mapping[str, str] = os.environ
    ) -> EmbeddingSettings:
        data = dict(raw or {})
        if environ.get("MAGUYVA_EMBEDDINGS"):
            data["backend"] = environ["MAGUYVA_EMBEDDINGS"]
        backend = data.get("backend", "none")
        if backend not in BACKENDS:
            raise EmbeddingError(
                f"unknown embeddings backend {backend!r} (choose one of {', '.join(BACKENDS)})"
            )
        defaults = {"voyage": ("voyage-4-large", 2048), "local": ("all-MiniLM-L6-v2", 384), "none": ("", 0)}
        model, dims = defaults[backend]
        data.setdefault("model", model)
        data.setdefault("dims", dims)
        known = {f for f in cls.__slots__}  # type: ignore[attr-defined]
        unknown = sorted(set(data) - known)
        if unknown:
            raise EmbeddingError(f"unknown embeddings setting {unknown[0]!r}")
        return cls(**data)


def estimate_tokens(texts: Sequence[str]) -> int:
    """Rough token count for code: ~3.5 characters per token."""
    return sum(max(1, round(len(t) / 3.5)) for t in texts)


def settings_for(root: os.PathLike[str] | str, environ: Mapping[str, str] = os.environ) -> EmbeddingSettings:
    """The embedding settings of the repository at ``root`` (``maguyva.embeddings`` in orkestra.yaml)."""
    from maguyva.config_file import declares_section

    raw: Mapping[str, Any] | None = None
    if declares_section(root):  # the model (pydantic) is imported only when there is a section to check
        from maguyva.config import load_maguyva_config

        embeddings = load_maguyva_config(root).embeddings
        raw = embeddings.settings_mapping() if embeddings else None
    return EmbeddingSettings.from_config(raw, environ)
