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
