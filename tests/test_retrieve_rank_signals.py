"""The file ranker's second-round signals: compounds of prose words, settings named after their
module, what a task text asks for, versioned library copies, and the one-hop graph lift."""

from __future__ import annotations

import pytest

from maguyva.api import Maguyva
from maguyva.retrieve.query import parse
from maguyva.retrieve.rank import asked_in, compound_terms, file_kind, named_stems
from tests.maguyva_project import open_indexed

ISSUE = """Render fails for the man page builder

### Describe the bug
Here is an example, the docs say it should work, and a test would catch it:

```python
render(page)
```
"""


def test_adjacent_prose_words_the_code_spells_as_one_become_query_terms():
    parsed = parse(ISSUE)
    found = compound_terms(parsed, {"manpag": 1, "pagebuilder": 1})  # the index holds stems: manpage → manpag
    assert found == {"manpag": 1.0, "pagebuilder": 1.0}
    assert compound_terms(parsed, {"render": 1}) == {}  # only words the index knows, only joined pairs
    assert "theman" not in compound_terms(parse("the man page"), {"theman": 1})  # stop words never join


def test_the_ranker_and_the_places_read_the_words_of_the_one_parse():
    """The weighted stems are the parsed query's, worked out once: stop words out, suffixes off."""
    parsed = parse("Where are the registered handlers looked up?")
    assert parsed.stems == {"register": 1.0, "handler": 1.0, "look": 1.0, "up": 1.0}
    assert parsed.stems is parsed.stems
    titled = parse(
        "autodoc_typehints ignored for overloads\n\nThe overloaded signatures still show type hints"
    )
    assert titled.title_words == ("autodoc_typehints", "ignored", "for", "overloads")
    assert titled.plain_words[:3] == ("autodoc", "typehints", "ignored")  # an underscore splits prose words
    assert titled.stems["typehint"] > titled.stems["signatur"]  # the title counts once more


def test_a_task_text_asks_for_tests_or_docs_only_in_its_title():
    assert asked_in(parse(ISSUE)) == set()  # "example", "docs" and "test" in the body ask for nothing
    assert asked_in(
        parse(
            "Tests for the man page builder are flaky\n\nThey fail on CI with a timeout.\n"
            "It happens twice a week, more often on the slow runners."
        )
    ) >= {"test"}
    assert "docs" in asked_in(parse("where are the docs for render"))  # a short question asks in its text


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("pkg/themes/basic/static/jquery-3.5.1.js", "vendored"),
        ("web/lib/underscore.min.js", "vendored"),
        ("pkg/testutils/checker.py", "test"),
        ("release/fabfile.py", "ci"),
        ("pkg/release.py", None),
        ("pkg/static/app.js", None),
    ],
)
def test_copied_libraries_test_helpers_and_release_scripts_are_demoted(path, kind):
    assert file_kind(path, (), "python" if path.endswith(".py") else "javascript") == kind


def test_a_setting_named_after_its_module_points_at_that_module():
    parsed = parse("With `autodoc_typehints = 'description'` the return type is shown twice")
    known = ["pkg/ext/autodoc/__init__.py", "pkg/ext/autodoc/typehints.py", "pkg/typehints_old.py"]
    assert named_stems(known, parsed) == {"pkg/ext/autodoc/typehints.py": 0.5}


FILES = {
    "lib/__init__.py": "",
    "lib/api.py": '''"""The public entry points."""
from lib.engine import solve_system


def solve(equations, unknowns):
    """Solve the equations for the unknowns (the public API)."""
    return solve_system(list(equations), list(unknowns))
''',
    "lib/engine.py": '''def solve_system(rows, names):
    """Gaussian elimination over the rows."""
    pivot = rows[0]
    return {name: pivot for name in names}
''',
    "lib/other.py": """def unrelated_helper(equations):
    return [e for e in equations if e]
""",
}


@pytest.fixture(scope="module")
def api(tmp_path_factory) -> Maguyva:
    opened = open_indexed(tmp_path_factory.mktemp("graph") / "repo", FILES)
    yield opened
    opened.close()


def test_the_file_an_entry_point_calls_is_lifted_by_the_graph(api):
    query = (
        "solve gives wrong unknowns for equations\n\nCalling `solve` on two equations returns the same "
        "value for every unknown:\n\n```python\nfrom lib.api import solve\nsolve(['x+y=2', 'x-y=0'], "
        "['x', 'y'])\n```\n"
    )
    results = api.intelligent_search(query)["results"]
    by_path = {r["path"]: r for r in results}
    assert results[0]["path"] == "lib/api.py"
    assert "graph" in by_path["lib/engine.py"]["signals"]  # one call away from the strongest file
    assert "graph" not in by_path.get("lib/other.py", {"signals": {}})["signals"]
    order = [r["path"] for r in results]
    assert order.index("lib/engine.py") < order.index("lib/other.py") if "lib/other.py" in order else True


def test_neighbour_files_is_one_query_that_agrees_with_the_edge_lists(api):
    from maguyva.store.base import Store

    found = api.store.neighbour_files(["lib/api.py", "lib/engine.py", "lib/other.py"])
    assert found == {"lib/api.py": {"lib/engine.py"}, "lib/engine.py": {"lib/api.py"}, "lib/other.py": set()}
    assert Store.neighbour_files(api.store, list(found)) == found  # the generic edge-list version agrees
    assert api.store.neighbour_files([]) == {}


def test_a_task_text_uses_embeddings_as_a_ranker_signal_when_the_index_has_them(tmp_path):
    from maguyva.embed.cache import EmbeddingCache
    from maguyva.embed.pipeline import embed_index
    from tests.test_store_backends import HashEmbedder

    api = open_indexed(tmp_path / "repo", FILES)
    try:
        query = (
            "gaussian elimination pivots the wrong row\n\nWith two unknowns the pivot is always the first "
            "row, so the elimination returns the same value for every name.\nSeen on version 2."
        )
        plain = api.intelligent_search(query)
        assert plain["modalities_used"] == []  # no vectors: the file ranker alone, no routed retriever ran
        short = api.intelligent_search("how is elimination pivoted")  # not a task: its routed retrievers
        assert short["modalities_used"]
        assert set(short["modalities_used"]) <= set(short["weights"])
        api.embedder = HashEmbedder()
        with EmbeddingCache(tmp_path / "cache.db") as cache:
            embed_index(api.store, api.embedder, cache)
        answer = api.intelligent_search(query)
        assert answer["fusion_strategy"] == "ranked"
        assert "semantic" in answer["modalities_used"]
        engine = next(r for r in answer["results"] if r["path"] == "lib/engine.py")
        assert engine["signals"]["retrievers"] > 0  # the semantic hit feeds the ranker
        assert answer["results"][0]["path"] == "lib/engine.py"
    finally:
        api.close()
