"""Citation validity: hits sampled across tools on this repository all name a real file and line."""

from __future__ import annotations

import random

import pytest
from conftest import REPO

from maguyva.api import Maguyva


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    from maguyva.index.pipeline import index_repository

    store = tmp_path_factory.mktemp("self-index") / "index.db"
    index_repository(REPO, store)
    maguyva = Maguyva.open(REPO, str(store))
    yield maguyva
    maguyva.close()


def citations(answer: dict, key: str) -> list[str]:
    return [entry["citation"] for entry in answer[key] if "citation" in entry]


def test_two_hundred_sampled_hits_cite_existing_lines(api):
    rng = random.Random(1234)
    symbols = sorted(
        {s.name for path in api.store.known_paths() for s in api.store.symbols_in(path) if len(s.name) > 3}
    )
    sample = rng.sample(symbols, min(60, len(symbols)))
    cited: list[str] = []
    for name in sample:
        cited += citations(api.find_symbol(name), "symbols")
        cited += citations(api.find_references(name, limit=5), "references")
    for query in [
        "how does sync write files atomically",
        "who calls classify",
        "def plan_route",
        "what depends on Workspace",
        '"unknown client"',
        "embedding cache",
        "Hamming distance",
        "ledger file lock",
        "intent classifier weights",
        "tree-sitter parse budget",
    ]:
        cited += citations(api.intelligent_search(query, limit=10), "results")
    for literal in ["def ", "import ", "return ", "class ", "TODO"]:
        cited += citations(api.search_text(literal, limit=10), "results")
    assert len(cited) >= 200
    lines_of: dict[str, int] = {}
    for citation in cited:
        path, line = citation.rsplit(":", 1)
        if path not in lines_of:
            file = REPO / path
            assert file.is_file(), f"{citation}: no such file"
            lines_of[path] = len(file.read_text(encoding="utf-8", errors="replace").splitlines()) or 1
        assert 1 <= int(line) <= lines_of[path], f"{citation}: line outside 1..{lines_of[path]}"


def test_find_symbol_of_a_missing_name_is_empty_unless_similar_is_asked(api):
    assert api.find_symbol("plan_routte")["symbols"] == []
    assert api.find_symbol("plan_routte", find_similar=True)["symbols"]
