"""The intent classifier follows SPEC §8's ordered heuristics, first match wins."""

from __future__ import annotations

import pytest

from maguyva.retrieve.intent import WEIGHTS, classify, extract_terms


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
    result = classify(query)
    assert (result.name, result.confidence) == (intent, confidence)


def test_earlier_rules_win_over_later_ones():
    """A declaration keyword beats a quoted string; a references phrase beats an identifier."""
    assert classify('def parse("x")').name == "find_definition"
    assert classify("who calls load_workspace").name == "find_references"


def test_weight_table_matches_the_design_and_sums_to_one():
    assert WEIGHTS["exact_match"] == {"semantic": 0.0, "text": 0.9, "structure": 0.1, "graph": 0.0}
    assert WEIGHTS["impact_analysis"]["graph"] == 0.7
    for weights in WEIGHTS.values():
        assert sum(weights.values()) == pytest.approx(1.0)


def test_dominant_modality_per_intent():
    assert classify("def x_y").dominant == "structure"
    assert classify("who calls f_g").dominant == "graph"
    assert classify('"literal text"').dominant == "text"
    assert classify("how does it work").dominant == "semantic"


def test_terms_keep_quoted_literals_and_identifiers_in_order():
    assert extract_terms('where is "no such table" raised in build_plan') == ["no such table", "build_plan"]
    assert extract_terms("def parse_config(path)") == ["parse_config"]
    assert extract_terms("ECONNREFUSED from fetchUser") == ["ECONNREFUSED", "fetchUser"]
