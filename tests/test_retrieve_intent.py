"""The intent classifier follows SPEC §8's ordered heuristics, first match wins, over the parsed query."""

from __future__ import annotations

import pytest

from maguyva.retrieve.intent import WEIGHTS, classify
from maguyva.retrieve.query import parse
from maguyva.retrieve.rank import named_stems


@pytest.mark.parametrize(
    ("query", "intent", "confidence"),
    [
        ("def parse_config", "find_definition", 0.95),
        ("class Workspace", "find_definition", 0.95),
        ("func NewServer", "find_definition", 0.95),
        ("import numpy", "find_definition", 0.95),
        ("who calls parseConfig", "find_references", 0.90),
        ("usages of build_plan", "find_references", 0.90),
        ("references to Workspace", "find_references", 0.90),
        ("impact of changing load_registry", "impact_analysis", 0.90),
        ("blast radius of Store.write", "impact_analysis", 0.90),
        ("what depends on parse_yaml", "impact_analysis", 0.90),
        ('find "ECONNREFUSED"', "exact_match", 0.90),
        ("Traceback in sync", "exact_match", 0.85),
        ("KeyError when loading", "exact_match", 0.85),
        ("parseConfig", "find_definition", 0.80),
        ("Workspace", "find_definition", 0.65),
        ("where is build_plan", "find_definition", 0.70),
        ("the function that does load_registry for the workspace config", "find_definition", 0.60),
        ("how does authentication work", "understand_code", 0.75),
        ("explain the architecture", "understand_code", 0.75),
        ("code similar to this retry loop", "find_similar", 0.80),
        ("retries", "understand_code", 0.40),
    ],
)
def test_each_heuristic_gives_its_intent_and_confidence(query, intent, confidence):
    result = classify(parse(query))
    assert (result.name, result.confidence) == (intent, confidence)


def test_earlier_rules_win_over_later_ones():
    """A declaration keyword beats a quoted string; a references phrase beats an identifier."""
    assert classify(parse('def parse("x")')).name == "find_definition"
    assert classify(parse("who calls load_workspace")).name == "find_references"


def test_weight_table_matches_the_design_and_sums_to_one():
    assert WEIGHTS["exact_match"] == {"semantic": 0.0, "text": 0.9, "structure": 0.1, "graph": 0.0}
    assert WEIGHTS["impact_analysis"]["graph"] == 0.7
    for weights in WEIGHTS.values():
        assert sum(weights.values()) == pytest.approx(1.0)


def test_dominant_modality_per_intent():
    assert classify(parse("def x_y")).dominant == "structure"
    assert classify(parse("who calls f_g")).dominant == "graph"
    assert classify(parse('"literal text"')).dominant == "text"
    assert classify(parse("how does it work")).dominant == "semantic"


def test_terms_keep_quoted_literals_and_identifiers_in_order():
    assert parse('where is "no such table" raised in build_plan').terms == ("no such table", "build_plan")
    assert parse("def parse_config(path)").terms == ("parse_config",)
    assert parse("ECONNREFUSED from fetchUser").terms == ("ECONNREFUSED", "fetchUser")


def test_a_task_text_looks_nothing_up_by_name():
    """An issue text goes to the file ranker whole: no retriever looks its names up one by one."""
    parsed = parse("Saving fails in build_plan\n\n" + "the plan writer drops a field when it saves " * 4)
    assert parsed.is_task
    assert parsed.terms == ()
    assert "build_plan" in parsed.identifiers


@pytest.mark.parametrize("name", ["__init__", "__call__", "_private_name", "MAX_RETRIES", "fooBar_baz"])
def test_the_classifier_sees_the_identifiers_the_ranker_sees(name):
    """One set of token patterns: the classifier once missed ``__dunder__``, ``_private`` and upper-case
    snake names that the ranker and the definition lookup already read as identifiers."""
    parsed = parse(f"where is {name}")
    assert name in parsed.identifiers  # what the ranker stresses and looks up as a definition
    assert name in parsed.terms  # what the text, structure and graph retrievers look up
    assert (classify(parsed).name, classify(parsed).reason) == ("find_definition", "identifier")


def test_a_dunder_alone_is_a_lone_identifier_for_every_reader():
    parsed = parse("__init__")
    assert classify(parsed).confidence == 0.80
    assert parsed.terms == ("__init__",)
    assert "__init__" in parsed.stems  # the ranker's word for it, and the name it looks up
    assert parsed.names == ("__init__",)


def test_a_path_is_looked_up_whole_and_classified_as_a_name():
    """The classifier once took ``app.py`` out of ``src/flask/app.py``; every reader now takes the path."""
    parsed = parse("what does src/flask/app.py hold")
    assert parsed.paths == ("src/flask/app.py",)
    assert parsed.terms == ("src/flask/app.py",)
    assert classify(parsed).reason == "identifier"
    assert named_stems(["src/flask/app.py", "src/flask/cli.py"], parsed) == {}


def test_question_ness_is_read_once_for_the_classifier_and_the_message_lookup():
    from maguyva.retrieve.message import is_message

    asked = parse("Where is the KeyError raised?")
    pasted = parse("KeyError: 'name' not found in the registry")
    assert asked.question
    assert not pasted.question
    assert classify(asked).reason != "error token"
    assert not is_message(asked)
    assert classify(pasted).reason == "error token"
    assert is_message(pasted)
