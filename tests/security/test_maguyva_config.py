"""Hostile orkestra.yaml for maguyva's own reader (maguyva.config_file): size, depth, aliases, duplicates.

A cloned repository's orkestra.yaml is untrusted: every refusal names the file and line and
raises maguyva's ConfigError (exit 1), before anything is built from it.
"""

from __future__ import annotations

import pytest

from maguyva.config import load_maguyva_config
from maguyva.config_file import MAX_BYTES
from maguyva.errors import ConfigError


def write(tmp_path, text: str):
    (tmp_path / "orkestra.yaml").write_text(text, encoding="utf-8")
    return tmp_path


def test_a_duplicate_key_is_refused_with_both_lines(tmp_path):
    write(tmp_path, "maguyva:\n  store: a.db\n  store: b.db\n")
    with pytest.raises(
        ConfigError,
        match=r"orkestra.yaml:3: maguyva.store: duplicate key 'store' \(first defined on line 2\)",
    ):
        load_maguyva_config(tmp_path)


def test_broken_yaml_names_the_line(tmp_path):
    write(tmp_path, "maguyva:\n  store: [a\n  x: }\n")
    with pytest.raises(ConfigError, match=r"orkestra.yaml:\d+: "):
        load_maguyva_config(tmp_path)


def test_oversized_deep_and_alias_bomb_files_are_refused(tmp_path):
    write(tmp_path, "maguyva:\n  store: x\n#" + "a" * MAX_BYTES + "\n")
    with pytest.raises(ConfigError, match="larger than"):
        load_maguyva_config(tmp_path)
    write(tmp_path, "maguyva:\n  store: " + "[" * 200 + "]" * 200 + "\n")
    with pytest.raises(ConfigError, match="nested more than"):
        load_maguyva_config(tmp_path)
    bomb = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for level in "bcdefg":
        bomb.append(f"{level}: &{level} [{', '.join(['*' + chr(ord(level) - 1)] * 10)}]")
    write(tmp_path, "\n".join(bomb) + "\nmaguyva:\n  store: x\n")
    with pytest.raises(ConfigError, match="expand to more than"):
        load_maguyva_config(tmp_path)
