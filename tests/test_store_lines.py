"""Finding a literal's lines: numbered like tree-sitter numbers them, case-insensitive, bounded."""

from __future__ import annotations

from maguyva.store.filetext import gram_query
from maguyva.store.lines import matching_lines, split_lines


def test_lines_are_numbered_on_newlines_only_like_tree_sitter():
    content = "a = 1\r\n\x0cpage two = 2\nthird NEEDLE\n"
    assert split_lines(content) == ["a = 1", "\x0cpage two = 2", "third NEEDLE"]
    assert [(s.line, s.text) for s in matching_lines("f.py", content, "needle", 10)] == [(3, "third NEEDLE")]


def test_one_span_per_line_in_order_and_the_limit_holds():
    content = "x x x\nno\nx\n"
    assert [s.line for s in matching_lines("f", content, "x", 10)] == [1, 3]
    assert [s.line for s in matching_lines("f", content, "x", 1)] == [1]
    assert matching_lines("f", content, "absent", 10) == []
    assert matching_lines("f", content, "x", 0) == []


def test_unicode_case_folding_that_changes_length_still_finds_the_line():
    content = "header\nİstanbul office\n"  # "İ".lower() is two code points
    assert [s.line for s in matching_lines("f", content, "istanbul", 5)] == [2] or [
        s.line for s in matching_lines("f", content, "i̇stanbul", 5)
    ] == [2]


def test_the_gram_expression_ands_distinct_byte_trigrams_and_needs_three_bytes():
    assert gram_query("ab") is None
    assert gram_query("é") is None
    assert gram_query("aé") == "61c3a9"  # three bytes of UTF-8
    assert (
        gram_query('Say "hi"') == "736179 AND 617920 AND 792022 AND 202268 AND 226869 AND 686922"
    )  # lower-cased
    assert gram_query("aaaa") == "616161"  # each trigram once
