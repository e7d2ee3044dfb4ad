"""Finding a literal's lines inside file texts; shared by every store backend (pure)."""

from __future__ import annotations

from collections.abc import Iterator

from maguyva.store.base import Span


def matching_lines(path: str, content: str, text: str, limit: int) -> list[Span]:
    """Up to ``limit`` lines of ``content`` containing ``text`` (case-insensitive), in order.

    One case-insensitive scan of the whole text in time linear in both lengths: ``str.find`` over
    lower-cased copies (CPython's two-way search; offsets mapped back when lower-casing changes
    a length).
    Python's ``re`` would take len(text) x len(content) on a periodic literal such as "abab…"
    (minutes for 40k characters). Line numbers are counted between matches only, so the cost
    follows the matches, not the number of lines in the file.
    """
    if limit <= 0 or not text:
        return []
    spans: list[Span] = []
    line, cursor, last_line = 1, 0, 0
    for position in _positions(content, text):
        line += content.count("\n", cursor, position)
        cursor = position
        if line == last_line:
            continue
        begin = content.rfind("\n", 0, position) + 1
        end = content.find("\n", position)
        spans.append(Span(path, line, line, content[begin : end if end >= 0 else len(content)].rstrip("\r")))
        last_line = line
        if len(spans) >= limit:
            break
    return spans


def _positions(content: str, text: str) -> Iterator[int]:
    """Start offsets of non-overlapping case-insensitive occurrences of ``text`` in ``content``."""
    needle = text.lower()
    folded = content.lower()
    origin = None
    if len(folded) != len(content):  # e.g. "İ" lower-cases to two code points: map back per character
        parts = [c.lower() for c in content]
        origin = [i for i, part in enumerate(parts) for _ in part]
        folded = "".join(parts)
    position = folded.find(needle)
    while position >= 0:
        yield position if origin is None else origin[position]
        position = folded.find(needle, position + max(1, len(needle)))


PREFILTER_CHARS = 64  # index pre-filters use this much of a literal; matching_lines checks all of it


def prefilter(text: str) -> str:
    """The part of a literal an index pre-filter looks for: a long phrase costs FTS5 (and LIKE)
    time quadratic in its length (40k characters: two minutes), while 64 are as selective; the
    SQLite store ANDs the grams of these characters (``maguyva.store.filetext.gram_query``)."""
    return text[:PREFILTER_CHARS]


def split_lines(content: str) -> list[str]:
    """The lines of a file as tree-sitter numbers them: split on "\\n" only (not on form feeds)."""
    lines = content.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]
