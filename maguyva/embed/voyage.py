"""Voyage embeddings through the ``voyageai`` client (optional extra ``orkestra[voyage]``).

Binary output (``output_dtype="ubinary"``) arrives already packed: 2048 dims → 256 bytes.
Requests are batched within the API's limits and retried with exponential backoff on 429
and 5xx; 401/400 become clear errors.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

import numpy as np

from maguyva.embed.settings import EmbeddingError, EmbeddingSettings, estimate_tokens


class VoyageEmbedder:
    backend = "voyage"

    def __init__(
        self, settings: EmbeddingSettings, api_key: str | None, sleep: Callable[[float], None] = time.sleep
    ):
        if not api_key:
            raise EmbeddingError(f"the voyage backend needs an API key in ${settings.api_key_env}")
        try:
            import voyageai
        except ImportError as exc:
            raise EmbeddingError(
                "the voyage backend needs the voyageai package: pip install 'orkestra[voyage]'"
            ) from exc
        if settings.dims % 8:
            raise EmbeddingError(f"dims must be a multiple of 8, got {settings.dims}")
        self.settings = settings
        self.model = settings.model
        self.dims = settings.dims
        self.requests = 0
        self._sleep = sleep
        self._errors = voyageai.error
        # max_retries=0: we own the retry policy (backoff on 429/5xx only).
        self._client = voyageai.Client(api_key=api_key, max_retries=0, base_url=settings.base_url)

    def count_tokens(self, texts: Sequence[str]) -> int:
        return estimate_tokens(texts)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        rows = [self._embed(batch, "document") for batch in self._batches(list(texts))]
        if not rows:
            return np.zeros((0, self.dims // 8), dtype=np.uint8)
        return np.concatenate(rows)

    def embed_query(self, text: str) -> np.ndarray:
        return self._embed([text], "query")[0]

    def _batches(self, texts: list[str]) -> list[list[str]]:
        batches: list[list[str]] = []
        current: list[str] = []
        tokens = 0
        for text in texts:
            cost = estimate_tokens([text])
            if current and (
                len(current) >= self.settings.batch_size or tokens + cost > self.settings.max_batch_tokens
            ):
                batches.append(current)
                current, tokens = [], 0
            current.append(text)
            tokens += cost
        if current:
            batches.append(current)
        return batches

    def _embed(self, texts: list[str], input_type: str) -> np.ndarray:
        errors = self._errors
        retryable = (
            errors.RateLimitError,
            errors.ServerError,
            errors.ServiceUnavailableError,
            errors.APIConnectionError,
            errors.Timeout,
            errors.TryAgain,
        )
        delay = self.settings.backoff_seconds
        for attempt in range(self.settings.max_retries + 1):
            self.requests += 1
            try:
                result = self._client.embed(
                    texts,
                    model=self.model,
                    input_type=input_type,
                    output_dtype="ubinary",
                    output_dimension=self.dims,
                )
                return self._decode(result.embeddings, len(texts))
            except errors.AuthenticationError as exc:
                raise EmbeddingError(
                    f"Voyage rejected the API key (401): check ${self.settings.api_key_env}"
                ) from exc
            except (errors.InvalidRequestError, errors.MalformedRequestError) as exc:
                raise EmbeddingError(f"Voyage rejected the request (400): {exc}") from exc
            except retryable as exc:
                if attempt == self.settings.max_retries:
                    raise EmbeddingError(
                        f"Voyage kept failing after {attempt + 1} attempts: {type(exc).__name__}: {exc}"
                    ) from exc
                self._sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")

    def _decode(self, embeddings: list, expected: int) -> np.ndarray:
        packed = np.asarray(embeddings, dtype=np.int64)
        if (
            packed.shape != (expected, self.dims // 8)
            or packed.min(initial=0) < 0
            or packed.max(initial=0) > 255
        ):
            raise EmbeddingError(
                f"Voyage returned embeddings of shape {packed.shape}, "
                f"expected ({expected}, {self.dims // 8}) unsigned bytes"
            )
        return packed.astype(np.uint8)
