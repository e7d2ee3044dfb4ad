"""Conventional Commits 1.0 conformance: every fixture message parses exactly as expected."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from orkestra.mining.conventional import parse_message

FIXTURES = Path(__file__).parent / "fixtures" / "conventional"
DEFAULTS = {
    "body": "",
    "footers": [],
    "breaking": False,
    "breaking_description": None,
    "is_revert": False,
    "reverts": None,
    "is_merge": False,
}
CASES = [
    (f"{path.stem}: {case['name']}", case)
    for path in sorted(FIXTURES.glob("*.yaml"))
    for case in yaml.safe_load(path.read_text(encoding="utf-8"))
]


def _as_dict(message: str) -> dict:
    parsed = parse_message(message)
    return {
        "type": parsed.type,
        "scope": parsed.scope,
        "description": parsed.description,
        "body": parsed.body,
        "footers": [[f.token, f.value] for f in parsed.footers],
        "breaking": parsed.breaking,
        "breaking_description": parsed.breaking_description,
        "is_revert": parsed.is_revert,
        "reverts": parsed.reverts,
        "is_merge": parsed.is_merge,
    }


def test_conformance_suite_has_at_least_forty_messages():
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[name for name, _ in CASES])
def test_message_parses_as_the_fixture_expects(case):
    assert _as_dict(case["message"]) == {**DEFAULTS, **case["expected"]}


def test_subject_is_the_first_line_even_for_plain_messages():
    assert parse_message("Tweak\n\nbody").subject == "Tweak"


PARAGRAPH_SHAPES = [
    "feat: only a subject",
    "fix(api): x\n\none paragraph\nwrapped\n\nanother\n\nRefs: #1\nCo-authored-by: A <a@b>",
    "fix: x\n\n\n\nafter three blank lines\n\n\n\nBREAKING CHANGE: first\n\n\nstill the value\nToken #7",
    "docs: x\nno blank line after the subject\n\nReviewed-by: Z",
    "feat!: x\r\n\r\nbody\r\n\r\nBREAKING-CHANGE: crlf\r\n",
    "chore: x\n\nRelease-As: 2.0.0\n\nnot a footer paragraph after footers",
    "feat: x\n\nBREAKING CHANGE: at once\n",
    "\n\nfeat: leading blank lines\n\n\nbody\n\n",
    "refactor: x\n\npara  \n\n  indented para\n\nFixes #12",
    "feat: x\n\n \nwhitespace-only line",
    "feat: x\n\npara\n\t\u2028\nother\n\nRefs: 9",
    "fix: x\n \t \nfirst body line after a line of spaces",
]


def test_cutting_paragraphs_on_empty_lines_reads_as_the_line_by_line_path(monkeypatch):
    """The fast path (paragraphs split on "\\n\\n") gives what the line-by-line reading gives."""
    import re

    from orkestra.mining import conventional

    fast = [parse_message(m) for m in PARAGRAPH_SHAPES]
    monkeypatch.setattr(conventional, "BLANKISH_FIRST_RE", re.compile(""))  # every message goes line by line
    assert [parse_message(m) for m in PARAGRAPH_SHAPES] == fast


def test_a_line_of_whitespace_separates_paragraphs_like_an_empty_one():
    parsed = parse_message("feat: x\n\npara one\n \t\npara two\n\u2028\nRefs: 1\n \nmore")
    assert parsed.body == "para one\n\npara two"
    assert [(f.token, f.value) for f in parsed.footers] == [("Refs", "1\n \nmore")]
    value = parse_message("fix: x\n\nBREAKING CHANGE: a\n\n\nb\nRefs: 2").footers[0].value
    assert value == "a\n\n\nb"  # a footer value keeps its blank lines
