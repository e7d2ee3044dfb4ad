"""The Voyage backend end to end: the real voyageai client against a local stub server."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("voyageai", reason="the voyage extra is not installed")

from stubs.voyage_stub import GOOD_KEY, VoyageStub, float_vector

from maguyva.embed.base import EmbeddingError, EmbeddingSettings, make_embedder
from maguyva.embed.cache import EmbeddingCache, embed_cached
from maguyva.embed.hamming import pack_signs


@pytest.fixture
def stub():
    with VoyageStub() as server:
        yield server


def embedder(stub: VoyageStub, key: str = GOOD_KEY, **overrides):
    settings = EmbeddingSettings.from_config(
        {"backend": "voyage", "base_url": stub.url, "backoff_seconds": 0.01, **overrides}, environ={}
    )
    return make_embedder(settings, environ={"VOYAGE_API_KEY": key})


def test_defaults_are_voyage_4_large_2048_ubinary_with_document_and_query_input_types(stub):
    emb = embedder(stub)
    emb.embed_documents(["def retry(): pass"])
    emb.embed_query("where do we retry")
    doc, query = stub.requests
    assert (doc["model"], doc["output_dimension"], doc["output_dtype"]) == ("voyage-4-large", 2048, "ubinary")
    assert (doc["input_type"], query["input_type"]) == ("document", "query")
    assert doc["path"] == "/v1/embeddings"
    assert doc["auth"] == f"Bearer {GOOD_KEY}"


def test_bits_round_trip_to_the_servers_sign_bits(stub):
    texts = ["alpha", "beta gamma", "def f(x): return x"]
    packed = embedder(stub).embed_documents(texts)
    assert packed.dtype == np.uint8
    assert packed.shape == (3, 256)
    expected = pack_signs(np.stack([float_vector(t, 2048) for t in texts]))
    assert np.array_equal(packed, expected)


def test_batches_stay_within_the_request_limits(stub):
    emb = embedder(stub, batch_size=4)
    packed = emb.embed_documents([f"text {i}" for i in range(10)])
    assert packed.shape == (10, 256)
    assert [len(r["input"]) for r in stub.requests] == [4, 4, 2]
    stub.requests.clear()
    emb = embedder(stub, max_batch_tokens=60)
    emb.embed_documents(["x" * 140] * 5)  # ~40 tokens each → one text per batch
    assert [len(r["input"]) for r in stub.requests] == [1, 1, 1, 1, 1]


def test_a_429_is_retried_with_backoff_then_succeeds(stub):
    stub.fail_next = [429, 503]
    sleeps: list[float] = []
    emb = embedder(stub)
    emb._sleep = sleeps.append
    assert emb.embed_documents(["x"]).shape == (1, 256)
    assert len(stub.requests) == 3
    assert sleeps == [0.01, 0.02]


def test_persistent_server_errors_give_up_with_a_clear_error(stub):
    stub.fail_next = [500] * 10
    emb = embedder(stub, max_retries=2)
    with pytest.raises(EmbeddingError, match="kept failing after 3 attempts"):
        emb.embed_documents(["x"])


def test_a_401_is_a_clear_error_naming_the_key_variable(stub):
    with pytest.raises(EmbeddingError, match=r"401.*VOYAGE_API_KEY"):
        embedder(stub, key="wrong").embed_documents(["x"])
    assert len(stub.requests) == 1  # never retried


def test_a_400_is_a_clear_error(stub):
    stub.max_inputs = 1
    with pytest.raises(EmbeddingError, match="400"):
        embedder(stub, batch_size=5).embed_documents(["a", "b"])


def test_missing_key_is_refused_before_any_request(stub):
    settings = EmbeddingSettings.from_config({"backend": "voyage", "base_url": stub.url}, environ={})
    with pytest.raises(EmbeddingError, match="needs an API key"):
        make_embedder(settings, environ={})
    assert stub.requests == []


def test_a_second_run_makes_zero_requests_thanks_to_the_cache(stub, tmp_path):
    texts = [f"chunk {i}" for i in range(20)]
    with EmbeddingCache(tmp_path / "cache.sqlite") as cache:
        first, stats1 = embed_cached(embedder(stub), cache, texts)
        requests_after_first = len(stub.requests)
        second, stats2 = embed_cached(embedder(stub), cache, texts + texts[:3])
    assert requests_after_first >= 1
    assert len(stub.requests) == requests_after_first
    assert (stats1.embedded, stats2.embedded, stats2.cache_hits) == (20, 0, 23)
    assert np.array_equal(first, second[:20])
