"""The four retrievers answer one protocol, ``retrieve(parsed query, limit) -> list[Hit]``, and share one
result type; each reads the query's terms and words from the one parse."""

from __future__ import annotations

import pytest

from maguyva.retrieve.graph import GraphRetriever
from maguyva.retrieve.hits import MODALITIES, Hit, Retriever
from maguyva.retrieve.query import parse
from maguyva.retrieve.semantic import SemanticRetriever
from maguyva.retrieve.structure import StructureRetriever
from maguyva.retrieve.text import TextRetriever
from tests.maguyva_project import FILES, open_indexed


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    opened = open_indexed(tmp_path_factory.mktemp("protocol") / "repo", FILES)
    yield opened
    opened.close()


def four(store, intent: str) -> list[Retriever]:
    return [
        TextRetriever(store),
        StructureRetriever(store),
        GraphRetriever(store, intent),
        SemanticRetriever(store, None),
    ]


def test_each_modality_has_one_retriever_asked_the_same_way(api):
    parsed = parse("who calls apply_discount")
    retrievers = four(api.store, "find_references")
    assert all(isinstance(r, Retriever) for r in retrievers)
    assert sorted(r.modality for r in retrievers) == sorted(MODALITIES)
    for retriever in retrievers:
        hits = retriever.retrieve(parsed, 3)
        assert len(hits) <= 3
        assert all(isinstance(hit, Hit) for hit in hits)
        assert {hit.modality for hit in hits} <= {retriever.modality}


def test_the_retrievers_look_up_the_terms_of_the_one_parse(api):
    parsed = parse("who calls apply_discount")
    assert parsed.terms == ("apply_discount",)
    text, structure, graph, semantic = (r.retrieve(parsed, 20) for r in four(api.store, "find_references"))
    assert "shop/pricing.py:8" in {hit.citation for hit in text}  # the literal, where it is defined
    assert ("shop/pricing.py", "shop.pricing.apply_discount") in {(hit.path, hit.symbol) for hit in structure}
    callers = {(hit.path, hit.symbol) for hit in graph}
    assert ("shop/checkout.py", "shop.checkout.cart_total") in callers
    assert ("shop/pricing.py", "shop.pricing.price_with_tax") in callers
    assert semantic == []  # no embedder: the semantic retriever finds nothing and says so by an empty list


def test_a_task_text_gives_the_name_retrievers_nothing_to_look_up(api):
    """An issue text names ``apply_discount`` but is read whole by the file ranker, not looked up by name."""
    parsed = parse("Discounts are wrong\n\napply_discount rounds too early " + "when a coupon applies " * 6)
    assert parsed.is_task
    assert GraphRetriever(api.store, "understand_code").retrieve(parsed, 20) == []
    assert all(hit.kind == "chunk" for hit in TextRetriever(api.store).retrieve(parsed, 20))  # BM25 only
