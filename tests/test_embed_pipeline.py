"""Embedding an index: coverage, the cache across re-indexes, and the semantic modality in fusion."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("sentence_transformers", reason="the local extra is not installed")

from maguyva_project import make_project

from maguyva.api import FROM_CONFIG, Maguyva
from maguyva.embed.base import EmbeddingSettings, shared_embedder
from maguyva.embed.cache import EmbeddingCache
from maguyva.embed.pipeline import embed_index, estimate, model_key
from maguyva.index.pipeline import index_repository
from maguyva.store import open_store

SETTINGS = EmbeddingSettings.from_config({"backend": "local"}, environ={})


@pytest.fixture(scope="module")
def embedder():
    return shared_embedder(SETTINGS)


@pytest.fixture
def indexed(tmp_path) -> tuple[Path, Path]:
    root = make_project(tmp_path / "repo")
    store = tmp_path / "index.db"
    index_repository(root, store, workers=1)
    return root, store


def test_every_chunk_gets_a_vector_and_a_second_run_has_nothing_to_do(indexed, embedder, tmp_path):
    _, store_path = indexed
    store = open_store(store_path)
    with EmbeddingCache(tmp_path / "cache.sqlite") as cache:
        first = embed_index(store, embedder, cache)
        second = embed_index(store, embedder, cache)
    assert first.chunks > 5
    assert first.embedded == first.chunks
    assert first.coverage == 1.0
    assert (second.chunks, second.embedded) == (0, 0)
    _ids, packed = store.load_vectors(model_key(embedder))
    assert packed.shape == (first.chunks, 48)
    store.close()


def test_the_cache_survives_a_full_reindex_and_deleting_the_index(indexed, embedder, tmp_path):
    root, store_path = indexed
    with EmbeddingCache(tmp_path / "cache.sqlite") as cache:
        store = open_store(store_path)
        paid = embed_index(store, embedder, cache).embedded
        store.close()
        store_path.unlink()
        index_repository(root, store_path, full=True, workers=1)
        store = open_store(store_path)
        assert estimate(store, SETTINGS, cache).to_embed == 0
        again = embed_index(store, embedder, cache)
        store.close()
    assert paid > 0
    assert again.embedded == 0
    assert again.cache_hits == again.chunks == paid


def test_an_edited_file_only_needs_its_own_chunks_embedded(indexed, embedder, tmp_path):
    root, store_path = indexed
    with EmbeddingCache(tmp_path / "cache.sqlite") as cache:
        store = open_store(store_path)
        embed_index(store, embedder, cache)
        store.close()
        (root / "shop" / "pricing.py").write_text(
            '"""Prices."""\n\n\ndef surcharge(amount):\n    return amount * 1.05\n'
        )
        index_repository(root, store_path, workers=1)
        store = open_store(store_path)
        pending = store.chunks_without_vectors(model_key(embedder))
        assert {row.path for row in pending} == {"shop/pricing.py"}
        assert embed_index(store, embedder, cache).embedded == len(pending)
        store.close()


def test_semantic_joins_the_fusion_and_finds_code_by_meaning(indexed, embedder, tmp_path):
    root, store_path = indexed
    with EmbeddingCache(tmp_path / "cache.sqlite") as cache:
        store = open_store(store_path)
        embed_index(store, embedder, cache)
        store.close()
    api = Maguyva.open(root, str(store_path))
    api.embedder = embedder
    try:
        answer = api.intelligent_search("try the card again later when the provider times out")
        assert "semantic" in answer["modalities_used"]
        assert answer["results"][0]["path"] == "shop/checkout.py"
        quick = api.intelligent_search("where do we sleep between attempts", preset="quick")
        assert quick["modalities_used"] == ["semantic"]
        assert quick["results"]
    finally:
        api.close()


def test_cli_estimates_embeds_and_reports_coverage(indexed, tmp_path):
    """`code embed --estimate` spends nothing; `code embed` fills the index; `code status` shows coverage."""
    import json

    from clirun import run_cli

    root, store_path = indexed
    (root / "orkestra.yaml").write_text("maguyva:\n  embeddings:\n    backend: local\n")
    env = {"MAGUYVA_EMBED_CACHE": str(tmp_path / "cli-cache.sqlite")}
    args = ("--repo", str(root), "--store", str(store_path))
    estimate_run = run_cli("code", "embed", "--estimate", *args, cwd=root, env=env)
    assert estimate_run.returncode == 0, estimate_run.stderr
    planned = json.loads(estimate_run.stdout)
    assert planned["to_embed"] == planned["chunks"] > 0
    assert planned["estimated_cost_usd"] is None
    before = json.loads(run_cli("code", "status", str(root), "--store", str(store_path), cwd=root).stdout)
    assert before["embeddings"]["coverage"] == 0.0
    embedded = run_cli("code", "embed", *args, cwd=root, env=env)
    assert embedded.returncode == 0, embedded.stderr
    assert json.loads(embedded.stdout)["embedded"] == planned["chunks"]
    after = json.loads(run_cli("code", "status", str(root), "--store", str(store_path), cwd=root).stdout)
    assert after["embeddings"] == {
        "backend": "local",
        "model": "all-MiniLM-L6-v2",
        "dims": 384,
        "vectors": planned["chunks"],
        "chunks": planned["chunks"],
        "coverage": 100.0,
    }


def test_embed_refuses_when_no_backend_is_configured(indexed):
    from clirun import run_cli

    root, store_path = indexed
    result = run_cli("code", "embed", "--repo", str(root), "--store", str(store_path), cwd=root)
    assert result.returncode == 1
    assert "embeddings are off" in result.stderr


def test_the_repository_embedding_settings_are_read_on_first_use_not_by_a_grep(indexed):
    root, store_path = indexed
    (root / "orkestra.yaml").write_text("maguyva:\n  embeddings:\n    backend: local\n")
    api = Maguyva.open(root, str(store_path))
    try:
        assert api.search_text_json("def")["count"] > 0
        assert api.embedding_settings is FROM_CONFIG  # a grep never read them
        status = api.index_status().model_dump()
        assert status["embeddings"]["backend"] == "local"
        assert status["embeddings"]["coverage"] == 0.0
        assert api.embedding_settings.backend == "local"  # read once, now kept
    finally:
        api.close()
