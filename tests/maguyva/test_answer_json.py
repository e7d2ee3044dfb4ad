"""`maguyva grep` / `maguyva symbol` print the answer's JSON without building the model
(``search_text_json`` / ``find_symbol_json``): it must be the model's JSON, key for key and in order."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import git
from index_helpers import write_tree
from test_callgraph import FLASK_SHAPE

from maguyva.api import Maguyva
from maguyva.index.pipeline import index_repository

CORPUS = Path(__file__).resolve().parents[2] / "maguyva" / "retrieve"  # real code, many matching lines


@pytest.fixture(scope="module")
def indexed(tmp_path_factory):
    repo = tmp_path_factory.mktemp("answer-json") / "repo"
    shutil.copytree(CORPUS, repo / "retrieve", ignore=shutil.ignore_patterns("__pycache__"))
    write_tree(repo, FLASK_SHAPE)  # app/…: a member found on a base class
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", ".")
    git(repo, "commit", "-qm", "chore: corpus")
    index_repository(repo, repo.parent / "index.db")
    api = Maguyva.open(repo, str(repo.parent / "index.db"))
    yield api
    api.close()


def same(fast: dict, typed) -> None:
    assert json.dumps(fast, ensure_ascii=False) == json.dumps(typed.dump(), ensure_ascii=False)


TEXT_CASES = [
    ("def ", {}),
    ("import", {"limit": 5}),
    ("Hit", {"case_sensitive": True}),
    ("hit", {"case_sensitive": True, "path_prefix": "retrieve/fu"}),
    (r"def \w+\(self", {"regex": True}),
    (r"[A-Z]{3,}_[A-Z]+", {"regex": True, "case_sensitive": True}),
    ("no such text anywhere", {}),
    ("def ", {"max_tokens": 300}),  # cut to the budget: truncated and truncation_note come first
    (r"return \w+", {"regex": True, "max_tokens": 250, "limit": 200}),
]


@pytest.mark.parametrize(("pattern", "options"), TEXT_CASES)
def test_search_text_json_is_the_text_answers_json(indexed, pattern, options):
    fast = indexed.search_text_json(pattern, **options)
    same(fast, indexed.search_text(pattern, **options))
    if options.get("max_tokens"):
        assert list(fast)[:2] == ["truncated", "truncation_note"]
        assert fast["results"]
    elif pattern != "no such text anywhere":
        assert fast["results"]
        assert "truncated" not in fast


SYMBOL_CASES = [
    ("search", {}),
    ("Hit", {"kind": "class"}),
    ("serch_text", {"find_similar": True}),
    ("serch_text", {"find_similar": True, "exact_match": True}),
    ("Flask.register_blueprint", {}),  # defined on a base: inherited_by / inherited_from
    ("no_such_symbol", {}),
]


@pytest.mark.parametrize(("name", "options"), SYMBOL_CASES)
def test_find_symbol_json_is_the_symbol_answers_json(indexed, name, options):
    fast = indexed.find_symbol_json(name, **options)
    same(fast, indexed.find_symbol(name, **options))
    if name == "Flask.register_blueprint":
        assert fast["symbols"][0]["inherited_by"] == "app.app.Flask"
