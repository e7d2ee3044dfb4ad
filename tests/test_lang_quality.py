"""The language quality gate: fixtures scored against hand-written ground truth, and the manifest
that blocks a regression in any language."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
import yaml
from conftest import REPO

from maguyva.models import Edge, FileExtraction, Symbol

# the gate is a repository tool under bench/, not in the package
sys.path.insert(0, str(REPO / "bench"))
from lang_report import (
    Expected,
    Manifest,
    ManifestEntry,
    Score,
    classify,
    compare,
    lang_report,
    load_expected,
    read_manifest,
    regressions,
    status_of,
)

FIXTURES = REPO / "tests" / "fixtures" / "languages"
MANIFEST = REPO / "tests" / "quality" / "lang_manifest.json"
LANGUAGES = sorted(p.parent.name for p in FIXTURES.glob("*/expected.yaml"))


@pytest.fixture(scope="module")
def report():
    """One scoring run over every fixture, shared by the gate's tests."""
    return lang_report(FIXTURES, MANIFEST)


def test_no_language_falls_below_its_recorded_manifest(report):
    """The cross-language regression guard: P/R/F1 may not drop by > 0.001, status may not worsen."""
    assert report.regressions == ()
    recorded = sorted(read_manifest(MANIFEST).languages)
    assert recorded == sorted(r.language for r in report.languages), (
        "a fixture is not in the manifest: run `python bench/lang_report.py --write-manifest`"
    )


def test_at_least_twelve_languages_are_green(report):
    green = sorted(r.language for r in report.languages if r.status == "GREEN")
    others = {r.language: (r.status, r.mismatches) for r in report.languages if r.status != "GREEN"}
    assert len(green) >= 12, others


@pytest.mark.parametrize("language", LANGUAGES)
def test_fixture_has_twenty_edges_that_point_at_listed_definitions(language):
    """A transcription check on expected.yaml: ≥ 20 edges, each from a real source line to line 1
    of a real file or to a definition the fixture lists."""
    expected = load_expected(FIXTURES / language / "expected.yaml")
    src = FIXTURES / language / "src"
    lines = {
        p.relative_to(src).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
        for p in src.rglob("*")
        if p.is_file()
    }
    defined = {f"{d.path}:{d.line}" for d in expected.definitions}
    assert len(expected.edges) >= 20
    assert len({(e.kind, e.src, e.dst) for e in expected.edges}) == len(expected.edges), "duplicate edge"
    for edge in expected.edges:
        path, _, line = edge.src.rpartition(":")
        assert 1 <= int(line) <= lines[path], edge
        target, _, target_line = edge.dst.rpartition(":")
        assert target in lines, edge
        assert target_line == "1" or edge.dst in defined, edge
    for definition in expected.definitions:
        assert 1 <= definition.line <= lines[definition.path], definition


def _symbol(path: str, line: int, name: str, kind: str = "method") -> Symbol:
    return Symbol(path=path, name=name, qualified_name=name, kind=kind, line=line, end_line=line)


def _edge(
    src: str, dst: str | None, kind: str = "calls", resolution: str = "resolved", reason: str = ""
) -> Edge:
    src_path, src_line = src.split(":")
    dst_path, dst_line = dst.split(":") if dst else (None, None)
    return Edge(
        kind=kind,
        src_path=src_path,
        src_line=int(src_line),
        src_symbol=None,
        dst_path=dst_path,
        dst_line=int(dst_line) if dst_line else None,
        dst_symbol=None,
        name="x",
        resolution=resolution,
        reason=reason,
    )


def _expected(*edges: tuple[str, str, str]) -> Expected:
    return Expected.model_validate(
        {"definitions": [], "edges": [{"kind": kind, "from": src, "to": dst} for kind, src, dst in edges]}
    )


def test_each_kind_of_mismatch_is_classified_for_spot_checks():
    symbols = (
        _symbol("a.py", 3, "kind"),
        _symbol("b.py", 5, "kind"),
        _symbol("b.py", 9, "Book", "class"),
        _symbol("a.py", 20, "save"),
    )
    extraction = FileExtraction(path="a.py", language="python", symbols=symbols)
    expected = _expected(
        ("calls", "m.py:1", "a.py:3"),  # resolved to the other `kind`: SCOPE_ERROR
        ("calls", "m.py:2", "a.py:20"),  # resolved to a class instead: TYPE_ERROR
        ("calls", "m.py:4", "a.py:3"),  # right target, wrong edge kind: METADATA_ERROR
        ("calls", "m.py:6", "a.py:20"),
    )  # never produced: MISSING
    produced = [
        _edge("m.py:1", "b.py:5"),
        _edge("m.py:2", "b.py:9"),
        _edge("m.py:4", "a.py:3", "references"),
        _edge("m.py:6", None, resolution="ambiguous", reason="2 candidates"),
        _edge("m.py:8", "a.py:20"),
    ]  # no such call in the source: FALSE_POSITIVE
    result = compare("python", expected, [extraction], produced)
    assert [(m.category, m.src) for m in result.mismatches] == [
        ("SCOPE_ERROR", "m.py:1"),
        ("TYPE_ERROR", "m.py:2"),
        ("METADATA_ERROR", "m.py:4"),
        ("MISSING", "m.py:6"),
        ("FALSE_POSITIVE", "m.py:8"),
    ]
    assert result.mismatches[3].detail == "ambiguous: 2 candidates"
    assert (result.edges.matched, result.edges.precision, result.edges.recall) == (0, 0.0, 0.0)


def test_a_wrong_line_in_the_right_file_is_a_metadata_error():
    want = {("calls", "m.py:1", "a.py:3")}
    got = {("calls", "m.py:1", "a.py:4")}
    [mismatch] = classify(want, got, {("a.py", 3, "method", "kind")}, [])
    assert (mismatch.category, mismatch.expected_dst) == ("METADATA_ERROR", "a.py:3")


@pytest.mark.parametrize(
    ("expected", "matched", "found", "status"),
    [
        (20, 20, 20, "GREEN"),
        (19, 19, 19, "YELLOW"),  # too few expected edges to be GREEN
        (100, 99, 99, "GREEN"),  # recall 0.99 is enough
        (100, 98, 98, "YELLOW"),  # recall 0.98 is not
        (100, 99, 105, "YELLOW"),  # precision 0.943 is not
        (100, 60, 70, "RED"),
    ],
)
def test_status_thresholds_follow_the_spec(expected, matched, found, status):
    precision, recall = matched / found, matched / expected
    f1 = 2 * precision * recall / (precision + recall)
    assert status_of(Score(expected, found, matched, precision, recall, f1)) == status


def _entry(status: str, f1: float) -> ManifestEntry:
    return ManifestEntry(
        status=status,
        precision=f1,
        recall=f1,
        f1=f1,
        expected_edges=20,
        found_edges=20,
        matched_edges=20,
        edges_by_kind={"calls": 20},
        definition_precision=1.0,
        definition_recall=1.0,
    )


def test_regressions_ignore_noise_but_flag_drops_worse_status_and_lost_languages():
    recorded = Manifest(
        languages={"go": _entry("GREEN", 1.0), "rust": _entry("GREEN", 0.98), "java": _entry("GREEN", 1.0)}
    )
    current = Manifest(languages={"go": _entry("GREEN", 0.9995), "rust": _entry("YELLOW", 0.97)})
    assert regressions(recorded, current) == [
        "java: recorded in the manifest but not scored",
        "rust: status GREEN -> YELLOW",
        "rust: precision 0.9800 -> 0.9700",
        "rust: recall 0.9800 -> 0.9700",
        "rust: f1 0.9800 -> 0.9700",
    ]


def lang_report_cli(*args: str, cwd) -> subprocess.CompletedProcess:
    """``python bench/lang_report.py ARGS`` as a subprocess, importing this checkout's maguyva."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, str(REPO / "bench" / "lang_report.py"), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
    )


def test_lang_report_cli_writes_a_manifest_then_fails_on_a_regressed_fixture(tmp_path):
    """End to end through the real CLI: record a baseline, break the extraction's ground truth
    agreement (an edge the source does not have), and the next run exits 1 naming the language."""
    fixtures = tmp_path / "languages"
    shutil.copytree(FIXTURES / "go", fixtures / "go")
    manifest = tmp_path / "manifest.json"
    first = lang_report_cli(
        "--fixtures", str(fixtures), "--manifest", str(manifest), "--write-manifest", cwd=tmp_path
    )
    assert first.returncode == 0, first.stderr
    assert json.loads(manifest.read_text())["languages"]["go"]["status"] == "GREEN"
    expected = yaml.safe_load((fixtures / "go" / "expected.yaml").read_text())
    expected["edges"] = [e for e in expected["edges"] if e["from"] != "main.go:11"]
    (fixtures / "go" / "expected.yaml").write_text(yaml.safe_dump(expected))
    second = lang_report_cli(
        "--fixtures", str(fixtures), "--manifest", str(manifest), "--format", "table", cwd=tmp_path
    )
    assert second.returncode == 1
    found = len(expected["edges"]) + 2  # the two calls on main.go:11 are still produced
    assert f"regression: go: precision 1.0000 -> {(found - 2) / found:.4f}" in second.stderr


def test_lang_report_cli_names_the_known_languages_for_an_unknown_one(tmp_path):
    result = lang_report_cli(
        "--language",
        "cobol",
        "--fixtures",
        str(FIXTURES),
        "--manifest",
        str(tmp_path / "m.json"),
        cwd=tmp_path,
    )
    assert result.returncode == 1
    assert "cobol" in result.stderr
    assert "rust" in result.stderr
