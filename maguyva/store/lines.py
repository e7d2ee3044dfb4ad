"""Finding a literal's lines inside file texts; shared by every store backend (pure)."""

from __future__ import annotations

import re

from maguyva.store.base import Span


def matching_lines(path: str, content: str, text: str, limit: int) -> list[Span]:
    """Up to ``limit`` lines of ``content`` containing ``text`` (case-insensitive), in order.

    One compiled case-insensitive scan of the whole text; line numbers are counted between
    matches only, so the cost follows the matches, not the number of lines in the file.
    """
    if limit <= 0 or not text:
        return []
    spans: list[Span] = []
    line, cursor, last_line = 1, 0, 0
    for match in re.compile(re.escape(text), re.IGNORECASE).finditer(content):
        position = match.start()
        line += content.count("\n", cursor, position)
        cursor = position
        if line == last_line:
            continue
        begin = content.rfind("\n", 0, position) + 1
        end = content.find("\n", position)
        spans.append(Span(path, line, line, content[begin:end if end >= 0 else len(content)].rstrip("\r")))
        last_line = line
        if len(spans) >= limit:
            break
    return spans


def phrase_match(text: str) -> str | None:
    """An FTS5 trigram MATCH expression for files containing ``text`` (None when shorter than three)."""
    if len(text) < 3:
        return None
    return '"' + text.replace('"', '""') + '"'


def split_lines(content: str) -> list[str]:
    """The lines of a file as tree-sitter numbers them: split on "\\n" only (not on form feeds)."""
    lines = content.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]
