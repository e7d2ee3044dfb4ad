"""Hostile input for the type and value pass: long assignment chains, deep nesting, huge values."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "maguyva"))

from index_helpers import write_tree

from maguyva.index.extract import extract_source
from maguyva.index.pipeline import extract_tree
from maguyva.index.values import MAX_TEXT


def test_a_long_assignment_chain_is_cut_short_not_a_recursion_error(tmp_path):
    chain = "def f():\n    return 1\n\n\nx0 = f\n" + "".join(f"x{i} = x{i - 1}\n" for i in range(1, 3000))
    write_tree(tmp_path, {"chain.py": chain + "x2999()\nx10()\n"})
    _, edges = extract_tree(tmp_path)
    calls = {e.src_line: e for e in edges if e.kind == "calls"}
    assert calls[3005].resolution == "external"  # too deep to follow: said, not guessed
    assert (calls[3006].resolution, calls[3006].dst_symbol) == ("resolved", "chain.f")  # a short one still is


def test_mutually_assigned_names_and_self_returning_functions_terminate(tmp_path):
    write_tree(tmp_path, {"loop.py": "a = b\nb = a\n\n\ndef g():\n    return g()\n\n\na()\ng()()\n"})
    _, edges = extract_tree(tmp_path)
    assert {e.src_line: e.resolution for e in edges if e.kind == "calls" and e.name == "a"} == {9: "external"}


def test_a_huge_value_is_summarised_as_unknown_not_stored(tmp_path):
    source = ("x = [" + ", ".join(f"f{i}" for i in range(5000)) + "]\n").encode()
    refs = extract_source("big.py", "python", source).references
    assert all(len(r.qualifier) <= MAX_TEXT for r in refs)
    nested = ("y = " + "[" * 500 + "]" * 500 + "\n").encode()
    (bind,) = [r for r in extract_source("deep.py", "python", nested).references if r.kind == "bind"]
    assert bind.qualifier == "[" * 7 + "?" + "]" * 7  # the summary stops seven levels down
