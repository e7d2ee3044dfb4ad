"""The store is below the indexer and the embedder: nothing under maguyva/store/ imports maguyva.index,
maguyva.embed, maguyva.retrieve or the API (imports inside functions count). What both sides need
(BM25's words, the chunk rows, the git runner) lives in leaf modules below them."""

from __future__ import annotations

from test_architecture import import_graph

ABOVE_THE_STORE = ("maguyva.index", "maguyva.embed", "maguyva.retrieve", "maguyva.api", "maguyva.tools")


def test_no_store_module_imports_the_indexer_the_embedder_or_the_retrievers():
    graph = import_graph()
    store = {name: targets for name, targets in graph.items() if name.startswith("maguyva.store")}
    assert "maguyva.store.sqlite" in store  # the graph really holds the store's modules
    assert "maguyva.store.filetext" in store["maguyva.store.sqlite"]  # and their imports
    upward = sorted(
        f"{name} -> {target}"
        for name, targets in store.items()
        for target in targets
        if target.startswith(ABOVE_THE_STORE)
    )
    assert upward == []


def test_the_leaves_the_store_shares_with_the_indexer_import_no_maguyva_module():
    graph = import_graph()
    assert graph["maguyva.search_words"] == set()
    assert graph["maguyva.git"] == set()
