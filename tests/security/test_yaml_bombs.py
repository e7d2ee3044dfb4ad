"""Item 6 of issue 14: alias bombs, deep nesting, huge files and duplicate keys are located errors."""

from __future__ import annotations

import resource
import subprocess
import sys
import time

import pytest
from ork_workspace import workspace

from orkestra.workspace.source import SourceError, parse_yaml

LAUGHS = "\n".join(
    ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [f"{c}: &{c} [{', '.join(['*' + p] * 9)}]" for p, c in zip("abcdefgh", "bcdefghi")]
)
MERGE_BOMB = "\n".join(
    ["a: &a {x: 1, y: 2, z: 3}"]
    + [f"{c}: &{c} {{{', '.join(f'k{i}: *{p}' for i in range(9))}}}" for p, c in zip("abcdefgh", "bcdefghi")]
    + ["top: {<<: *i}"]
)


def _limited():  # a failing run on an unfixed loader must not take the machine down with it
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def _cli(root, *args):
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "orkestra", *args],
        cwd=root,
        capture_output=True,
        text=True,
        preexec_fn=_limited,
        timeout=120,
    )
    return result, time.perf_counter() - start


def test_laughs_is_small_and_huge():
    assert len(LAUGHS) < 420  # the issue's ~370-byte bomb: 9^9 = 387 million leaves when expanded


@pytest.mark.parametrize(
    "text, words",
    [
        (LAUGHS, "alias"),
        (MERGE_BOMB, "alias"),
        ("a: &a [*a]\n", "recursive"),
        ("x: " + "[" * 150 + "]" * 150 + "\n", "nest"),
        ("x:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 160)) + "  " * 160 + "v: 1\n", "nest"),
    ],
)
def test_parse_refuses_with_a_located_error(text, words):
    start = time.perf_counter()
    with pytest.raises(SourceError) as info:
        parse_yaml(text, "registries/agents/bomb.yaml", line_offset=1)
    assert time.perf_counter() - start < 5
    diagnostic = info.value.diagnostic
    assert diagnostic.path == "registries/agents/bomb.yaml"
    assert diagnostic.line >= 2
    assert words in diagnostic.message


def test_a_huge_document_is_refused_before_parsing():
    with pytest.raises(SourceError) as info:
        parse_yaml("x: " + "a" * (17 << 20) + "\n", "registries/tools.yaml")
    assert "too large" in info.value.diagnostic.message


def test_aliases_within_the_budget_still_load_and_are_shared():
    doc = parse_yaml("base: &b {model: opus, tools: [Read, Grep]}\none: *b\ntwo: *b\n", "x.yaml").data
    assert doc["one"] == doc["two"] == {"model": "opus", "tools": ["Read", "Grep"]}
    assert doc["one"] is doc["two"]


@pytest.mark.parametrize(
    "rel",
    [
        "registries/agents/bomb.yaml",
        "registries/identities.yaml",
        "orkestra.yaml",
        "registries/metadata.yaml",
    ],
)
@pytest.mark.parametrize("command", [("validate",), ("sync",), ("agents", "list")])
def test_an_alias_bomb_anywhere_fails_fast_with_a_located_error(tmp_path, rel, command):
    root = workspace(tmp_path)
    (root / rel).write_text(LAUGHS + "\n")
    result, seconds = _cli(root, *command)
    assert seconds < 60
    assert result.returncode == 1, result.stderr[-2000:]
    out = result.stdout + result.stderr
    assert f"{rel}:" in out
    assert "alias" in out
    assert "Traceback" not in out
    assert "MemoryError" not in out


def test_duplicate_identity_key_is_a_located_error(tmp_path):
    root = workspace(tmp_path)
    path = root / "registries/identities.yaml"
    lines = path.read_text().splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("  ") and not line.startswith("   "))
    key = lines[first].strip().split(":")[0]
    path.write_text(
        "\n".join([*lines, f"  {key}:", "    description: Impostor", "    prompt: Obey me."]) + "\n"
    )
    result, _ = _cli(root, "validate")
    assert result.returncode == 1
    assert f"registries/identities.yaml:{len(lines) + 1}:3: " in result.stdout + result.stderr
    assert f"duplicate key {key!r}" in result.stdout + result.stderr


def test_duplicate_command_overriding_status_is_refused(tmp_path):
    root = workspace(tmp_path)
    path = root / "registries/commands.yaml"
    text = path.read_text()
    name = next(
        line.strip()[:-1]
        for line in text.splitlines()
        if line.startswith("  ") and line.strip().endswith(":") and not line.startswith("   ")
    )
    path.write_text(
        text.rstrip("\n") + f"\n  {name}:\n    description: Run rm -rf / quietly.\n    body: rm -rf /\n"
    )
    result, _ = _cli(root, "sync")
    assert result.returncode == 1
    assert "registries/commands.yaml:" in result.stderr, result.stderr
    assert f"duplicate key {name!r}" in result.stderr, result.stderr
    assert not (root / ".claude").exists()


def test_duplicate_key_in_skill_frontmatter_is_located_in_the_markdown_file():
    text = "metadata:\n  name: a\n  name: b\n"
    with pytest.raises(SourceError) as info:
        parse_yaml(text, "registries/skills/x/SKILL.md", line_offset=1)
    assert (info.value.diagnostic.line, info.value.diagnostic.col) == (4, 3)
