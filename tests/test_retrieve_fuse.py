"""Routing and weighted RRF: the arithmetic of SPEC §8, exactly."""

from __future__ import annotations

import math

import pytest

from maguyva.retrieve.fuse import DEMOTION, direct, fuse, importance_boost, plan_route
from maguyva.retrieve.hits import Hit
from maguyva.retrieve.intent import Intent, classify
from maguyva.retrieve.query import parse


def hit(path: str, line: int = 1, modality: str = "text", score: float = 1.0) -> Hit:
    return Hit(path, line, line, None, "chunk", f"{path}:{line}", score, modality)


def test_confident_queries_take_the_direct_path_to_the_dominant_modality():
    route = plan_route(classify(parse("def parse_config")))
    assert route.strategy == "direct"
    assert route.weights == {"structure": 1.0}


def test_default_preset_runs_the_three_heaviest_modalities_with_k40():
    route = plan_route(classify(parse("how does the sync planner work")))
    assert route.strategy == "rrf"
    assert route.k == 40
    assert set(route.weights) == {"semantic", "text", "structure"}
    assert sum(route.weights.values()) == pytest.approx(1.0)
    assert route.weights["semantic"] == pytest.approx(0.5 / 0.9)


def test_thorough_runs_all_four_with_k60_and_quick_only_semantic():
    intent = classify(parse("how does it work"))
    assert set(plan_route(intent, preset="thorough").weights) == {"semantic", "text", "structure", "graph"}
    assert plan_route(intent, preset="thorough").k == 60
    assert plan_route(intent, preset="quick").weights == {"semantic": 1.0}


def test_missing_semantic_weight_is_redistributed_and_reported():
    route = plan_route(classify(parse("how does it work")), available=("text", "structure", "graph"))
    assert "semantic" not in route.weights
    assert sum(route.weights.values()) == pytest.approx(1.0)
    assert any("semantic modality unavailable" in note for note in route.notes)
    assert plan_route(classify(parse("how does it work")), preset="quick", available=("text",)).weights == {
        "text": 1.0
    }


def test_explicit_modalities_override_the_preset_and_the_fast_path():
    route = plan_route(classify(parse("def parse_config")), modalities=["text", "graph"])
    assert route.strategy == "rrf"
    assert route.weights == pytest.approx({"text": 0.5, "graph": 0.5})
    with pytest.raises(ValueError, match="unknown modality"):
        plan_route(classify(parse("x")), modalities=["vibes"])
    with pytest.raises(ValueError, match="unknown preset"):
        plan_route(classify(parse("x")), preset="turbo")


def test_rrf_contribution_is_weight_over_k_plus_rank_plus_one():
    route = plan_route(Intent("understand_code", 0.4, "t"), modalities=["text", "structure"])
    ranked = {"text": [hit("a.py"), hit("b.py")], "structure": [hit("b.py", modality="structure")]}
    fused = fuse(ranked, route)
    w_text, w_struct = route.weights["text"], route.weights["structure"]
    assert [f.hit.path for f in fused] == ["b.py", "a.py"]  # agreement floats up
    assert fused[0].score == pytest.approx(w_text / (40 + 1 + 1) + w_struct / (40 + 0 + 1))
    assert fused[1].score == pytest.approx(w_text / (40 + 0 + 1))
    assert fused[0].ranks == {"text": 1, "structure": 0}


def test_importance_boost_is_logarithmic_and_capped():
    assert importance_boost(0) == 1.0
    assert importance_boost(1) == pytest.approx(1 + 0.3 * math.log(2))
    assert importance_boost(1e9) == 1.5


def test_central_files_rise_and_vendor_paths_sink():
    route = plan_route(Intent("understand_code", 0.4, "t"), modalities=["text"])
    ranked = {"text": [hit("vendor/lib.py"), hit("leaf.py"), hit("hub.py")]}
    fused = fuse(
        ranked,
        route,
        centrality=lambda h: 100.0 if h.path == "hub.py" else 0.0,
        demoted=lambda h: h.path.startswith("vendor/"),
    )
    assert [f.hit.path for f in fused] == ["hub.py", "leaf.py", "vendor/lib.py"]
    assert fused[-1].demoted
    assert fused[-1].score == pytest.approx(1.0 / 41 * DEMOTION)


def test_best_chunk_per_file_and_deterministic_ties():
    route = plan_route(Intent("understand_code", 0.4, "t"), modalities=["text", "structure"])
    ranked = {
        "text": [hit("a.py", 10), hit("a.py", 50), hit("c.py", 3)],
        "structure": [hit("c.py", 7, "structure"), hit("a.py", 12, "structure")],
    }
    fused = fuse(ranked, route)
    assert len({f.hit.path for f in fused}) == len(fused) == 2
    by_path = {f.hit.path: f.hit.line for f in fused}
    assert by_path["a.py"] == 10  # the chunk with the largest single contribution represents the file
    tie = fuse(
        {"text": [hit("z.py")], "structure": [hit("y.py", modality="structure")]},
        plan_route(Intent("understand_code", 0.4, "t"), modalities=["text", "structure"]),
    )
    assert [f.hit.path for f in tie] == ["y.py", "z.py"] or tie[0].score != tie[1].score


def test_direct_keeps_order_but_moves_demoted_paths_last():
    hits = [hit("build/x.py", modality="structure"), hit("src/x.py", modality="structure")]
    result = direct(hits, demoted=lambda h: h.path.startswith("build/"))
    assert [f.hit.path for f in result] == ["src/x.py", "build/x.py"]


def test_lists_from_different_repositories_are_fused_by_rank_not_by_raw_score():
    from maguyva.retrieve.fuse import fuse_lists

    big = [("a", 900.0), ("b", 800.0), ("c", 700.0)]  # one repository's scores dwarf the other's
    small = [("x", 0.9), ("y", 0.8)]
    fused = fuse_lists([big, small], k=60)
    assert [name for name, _ in fused] == ["a", "x", "b", "y", "c"]
    assert fuse_lists([small, big], k=60, limit=3) == [("x", 0.9), ("a", 900.0), ("y", 0.8)]
    assert fuse_lists([[], small]) == small
    assert fuse_lists([]) == []
