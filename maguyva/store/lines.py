"""Finding a literal's lines inside file texts; shared by every store backend (pure)."""

from __future__ import annotations

from bisect import bisect_right

from maguyva.store.base import Span


def matching_lines(path: str, content: str, text: str, limit: int) -> list[Span]:
    """Up to ``limit`` lines of ``content`` containing ``text`` (case-insensitive), in order.

    Searches the whole lowered text once and maps offsets to line numbers, instead of lowering
    and testing every line: the cost follows the matches, not the file length.
    """
    if limit <= 0 or not text:
        return []
    haystack, needle = content.lower(), text.lower()
    if len(haystack) != len(content):  # a case mapping changed lengths: fall back to line by line
        return [Span(path, n, n, line) for n, line in enumerate(split_lines(content), start=1)
                if needle in line.lower()][:limit]
    starts = [0]
    position = haystack.find(needle)
    if position < 0:
        return []
    index = content.find("\n")
    while index >= 0:
        starts.append(index + 1)
        index = content.find("\n", index + 1)
    spans: list[Span] = []
    last_line = 0
    while position >= 0 and len(spans) < limit:
        number = bisect_right(starts, position)
        if number != last_line:
            begin = starts[number - 1]
            end = content.find("\n", begin)
            spans.append(Span(path, number, number, content[begin:end if end >= 0 else len(content)].rstrip("\r")))
            last_line = number
        position = haystack.find(needle, position + 1)
    return spans


def trigram_match(text: str) -> str | None:
    """An FTS5 MATCH expression requiring every trigram of ``text`` (None when shorter than three).

    With ``detail=none`` phrase queries are unavailable, so this finds a superset of the files
    that contain ``text``; ``matching_lines`` then keeps only real matches.
    """
    lowered = text.lower()
    grams = list(dict.fromkeys(lowered[i:i + 3] for i in range(len(lowered) - 2)))
    if not grams:
        return None
    return " AND ".join('"' + gram.replace('"', '""') + '"' for gram in grams)


def split_lines(content: str) -> list[str]:
    """The lines of a file as tree-sitter numbers them: split on "\\n" only (not on form feeds)."""
    lines = content.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]
