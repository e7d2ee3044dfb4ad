"""Issue 31, class 8: a scalar its YAML tag cannot hold is a located error in every reader, not a traceback.

``!!int abc``, ``!!bool maybe``, ``!!float abc``, ``!!timestamp bad``, ``!!null x`` and numbers of
thousands of digits (Python's int() refuses over 4,300) used to raise ValueError/KeyError/AttributeError
out of PyYAML's constructors in every registry file, SKILL.md frontmatter, ``orkestra.yaml``, ground
truths and Maguyva's config. One checked loader (``maguyva.safe_yaml``) now serves both packages.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clirun import run_cli
from ork_workspace import SKILL, workspace

from maguyva.config_file import load_document
from maguyva.errors import ConfigError
from orkestra.workspace.source import SourceError, parse_yaml

BAD = {
    "int": ("!!int abc", "is not an integer"),
    "bool": ("!!bool maybe", "is not a boolean"),
    "float": ("!!float abc", "is not a number"),
    "timestamp": ("!!timestamp bad", "is not a date"),
    "null": ("!!null x", "is not null"),
    "empty-int": ('!!int ""', "is not an integer"),
    "5000-digits": ("9" * 5000, "a number of 5,000 characters"),
    "tagged-5000-digits": ("!!int " + "9" * 5000, "a number of 5,000 characters"),
    "hex-5000": ("0x" + "f" * 5000, "a number of 5,002 characters"),
    "binary-20000": ("0b" + "1" * 20000, "a number of 20,002 characters"),
    "sexagesimal": ("!!int 1" + ":59" * 2000, "a number of 6,001 characters"),
    "float-5000": ("!!float " + "9" * 5000, "a number of 5,000 characters"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_orkestra_reader_locates_a_bad_scalar_at_its_field(case):
    value, words = BAD[case]
    text = f"agents:\n  - name: a\n    count: {value}\n"
    with pytest.raises(SourceError) as info:
        parse_yaml(text, "registries/agents/x.yaml", line_offset=1)  # frontmatter: one line down
    d = info.value.diagnostic
    assert (d.path, d.line, d.col, d.field, d.code) == (
        "registries/agents/x.yaml",
        4,
        12,
        "agents.0.count",
        "yaml",
    )
    assert words in d.message


@pytest.mark.parametrize("case", list(BAD))
def test_maguyva_config_reader_locates_a_bad_scalar_at_its_field(case):
    value, words = BAD[case]
    with pytest.raises(ConfigError) as info:
        load_document(f"maguyva:\n  store: x.db\n  embeddings: {{batch: {value}}}\n", "orkestra.yaml")
    assert (info.value.line, info.value.field) == (3, "maguyva.embeddings.batch")
    assert str(info.value).startswith("orkestra.yaml:3: maguyva.embeddings.batch: ")
    assert words in str(info.value)


@pytest.mark.parametrize(
    "text, field",
    [
        ("!!int abc: 1\n", "abc"),  # a bad key is named by itself
        ("a: &x {b: !!bool maybe}\nc: *x\n", "a.b"),  # through an anchor
        ("base: &b {n: 1}\nm:\n  <<: *b\n  k: !!float nope\n", "m.k"),  # merge keys take the other path
        ("s: !!set {x: !!int q}\n", "s.x"),
    ],
)
def test_keys_anchors_merges_and_sets_are_checked_too(text, field):
    with pytest.raises(SourceError) as info:
        parse_yaml(text, "x.yaml")
    assert info.value.diagnostic.field == field
    assert "is not" in info.value.diagnostic.message


def test_good_scalars_still_load_as_before():
    doc = parse_yaml(
        "a: !!int 12\nb: 0x1f\nc: !!bool yes\nd: !!float 1.5\ne: 2026-01-31\nf: !!timestamp 2026-01-31\n"
        "g: !!null ''\nh: 1_000\ni: .inf\nj: 1:30\nk: ~\n",
        "x.yaml",
    ).data
    assert doc == {
        "a": 12,
        "b": 31,
        "c": True,
        "d": 1.5,
        "e": "2026-01-31",
        "f": "2026-01-31",
        "g": None,
        "h": 1000,
        "i": float("inf"),
        "j": 90,
        "k": None,
    }


FILES = [
    "orkestra.yaml",
    "registries/identities.yaml",
    "registries/metadata.yaml",
    "registries/agents/bio-analyst.yaml",
    f"{SKILL}/SKILL.md",
    "ai_assets/reference/ground_truths.yaml",
]


@pytest.mark.parametrize("rel", FILES)
@pytest.mark.parametrize("case", ["int", "bool", "5000-digits"])
def test_validate_reports_a_bad_scalar_in_any_file_with_file_line_col_and_field(tmp_path, rel, case):
    root = workspace(tmp_path)
    path = root / rel
    value, words = BAD[case]
    text = path.read_text()
    if rel.endswith(".md"):
        path.write_text(text.replace("---\n", f"---\nx_bad: {value}\n", 1))
        where = f"{rel}:2:8: x_bad: "
    else:
        path.write_text(f"x_bad: {value}\n{text}")
        where = f"{rel}:1:8: x_bad: "
    result = run_cli("validate", cwd=root)
    out = result.stdout + result.stderr
    assert result.returncode == 1, out[-3000:]
    assert "Traceback" not in out, out[-3000:]
    assert where in out, out[-3000:]
    assert words in out, out[-3000:]


@pytest.mark.parametrize("program, args", [("orkestra", ("code", "status")), ("maguyva", ("status",))])
def test_maguyva_commands_report_a_bad_scalar_in_their_config_section(tmp_path, program, args):
    root = workspace(tmp_path)
    config = root / "orkestra.yaml"
    config.write_text(config.read_text() + "maguyva:\n  store: !!int abc\n")
    lines = config.read_text().splitlines()
    result = run_cli(*args, cwd=root, program=program)
    out = result.stdout + result.stderr
    assert result.returncode != 0, out[-3000:]
    assert "Traceback" not in out, out[-3000:]
    assert f"orkestra.yaml:{len(lines)}" in out, out
    assert "maguyva.store" in out, out
    assert "is not an integer" in out, out
