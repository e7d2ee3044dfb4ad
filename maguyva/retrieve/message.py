"""A pasted message (an error, a log line) → the lines of code that write it. Pure over a store.

A message as a user sees it has its values filled in: ``Error: Failed to lookup view "index" in
views directory "/srv/app/views"``. The code holds the format around those values
(``'Failed to lookup view "' + name + '" in views directory ' + dirs``, an f-string, a ``%s`` or
``{}`` template). So the message is cut at its values — quoted parts, parenthesised parts,
numbers, URLs, paths — and each remaining fragment is looked up literally. A line's share is how
much of the message (in characters) its fragments make up; the file's share counts each fragment
once. Only ordinary code counts: docs, changelogs, built bundles and vendored copies repeat the
message without writing it, and tests only expect it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maguyva.retrieve.query import ParsedQuery
    from maguyva.store.base import Store

MIN_LETTERS = 6  # a run between values with fewer letters ("for +", "at") says nothing and is everywhere
MAX_FRAGMENTS = 8
LINES_PER_FRAGMENT = 400
MAX_SHORTER = 4  # shorter runs of a fragment tried when the whole is written nowhere
BUDGET_S = 2.0  # literal look-ups stop after this long: the fragments found so far answer
MAX_LINE = 2_000  # characters of a matching line read for its string literals
TEST_SHARE = 0.3  # a test that spells the message out counts this much of a code line

_LEAD = re.compile(
    r"^\s*(?:(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception|Warning)|error|fatal|panic|warning|"
    r"critical|exception|E\d*)\s*(?:\[[^\]]*\])?\s*:\s*",
    re.I,
)
# the values a program fills in: quoted or bracketed parts, URLs, paths, numbers, hex ids
_VALUE = re.compile(
    r"'[^']*'|\"[^\"]*\"|`[^`]*`|\([^()]*\)|\[[^\[\]]*\]|<[^<>]*>|\{[^{}]*\}"
    r"|\b\w+://\S+|(?<!\w)(?:~|\.{1,2})?/[^\s'\"]+|\b0x[0-9a-fA-F]+\b|\b\d+(?:\.\d+)*\b"
)
_EDGE = " \t.,;:!?-–—=>"
_STRING = re.compile(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"|`([^`]*)`")
_WORDS = re.compile(r"[A-Za-z]{2,}")
_FORMAT = re.compile(r"%[-+ #0-9.]*[a-zA-Z]|\{[^{}]*\}|\$\{[^{}]*\}")
NO_STRING = 0.3  # a line holding the words outside any string (a comment, a name) writes no message


@dataclass(frozen=True, slots=True)
class MessageLines:
    """Where a pasted message is written: per file, its lines and each line's share (0..1)."""

    fragments: tuple[str, ...] = ()
    lines: dict[str, dict[int, float]] = field(default_factory=dict)
    files: dict[str, float] = field(default_factory=dict)  # each file's share of the message


def is_message(parsed: ParsedQuery) -> bool:
    """A short text pasted from a program's output rather than a question about the code."""
    text = parsed.text.strip()
    if parsed.is_task or not text or parsed.question:
        return False
    if _LEAD.match(text):
        return True
    words = text.split()
    return len(words) >= 4 and bool(_VALUE.search(text)) and not any(c in text for c in "(){}=;")


def _split(text: str) -> tuple[str, str, list[str]]:
    """A message's leading ``Error:``/``pkg.SomeError:`` (or ""), its body, and the runs of fixed text
    between the body's filled-in values."""
    lead = _LEAD.match(text.strip())
    body = text.strip()[lead.end() :] if lead else text.strip()
    return (lead.group(0).strip() if lead else ""), body, [run.strip(_EDGE) for run in _VALUE.split(body)]


def fragments(text: str) -> list[str]:
    """The message's fixed text: the runs between its filled-in values, longest first."""
    _, body, runs = _split(text)
    kept = [
        run
        for run in runs
        if len(re.findall(r"[A-Za-z]", run)) >= MIN_LETTERS and re.search(r"[A-Za-z]{3}", run)
    ]
    # a value in parentheses leaves the words before it: ``cookieParser("secret")`` keeps ``cookieParser(``
    calls = [m.group(1) + "(" for m in re.finditer(r"([A-Za-z_]\w{3,})\((?=[\"'`])", body)]
    return sorted(dict.fromkeys(kept + calls), key=len, reverse=True)[:MAX_FRAGMENTS]


QUOTED_WEIGHT = 0.5  # a phrase a question quotes counts half a pasted message
MAX_QUOTED = 3


def quoted(store: Store, parsed: ParsedQuery, kind: Callable[[str], str | None]) -> MessageLines:
    """Where the phrases a short question quotes are written (``'trust proxy'``, ``"Did you mean ...?"``):
    each looked up like a message, its shares halved. A quoted name (one word, ``ds.attrs``) is left to
    the definitions: where it is used says little."""
    if parsed.is_task:
        return MessageLines()
    phrases = [p for p in parsed.literals if len(p.split()) >= 2][:MAX_QUOTED]
    deadline = time.monotonic() + BUDGET_S  # one budget for every phrase
    found = [find(store, phrase, kind, deadline) for phrase in phrases]
    lines: dict[str, dict[int, float]] = {}
    files: dict[str, float] = {}
    for one in found:  # each place keeps its best share over the phrases, halved
        for path, share in one.files.items():
            files[path] = max(files.get(path, 0.0), share * QUOTED_WEIGHT)
        for path, shares in one.lines.items():
            into = lines.setdefault(path, {})
            for line, share in shares.items():
                into[line] = max(into.get(line, 0.0), share * QUOTED_WEIGHT)
    return MessageLines(tuple(f for one in found for f in one.fragments), lines, files)


def fixed_text(text: str) -> str:
    """The message with its values left out (what the ranker should read): ``Error: accepts 1
    arg(s), received 3`` → ``Error: accepts … arg … received``; the leading exception name stays."""
    lead, _, runs = _split(text)
    return " … ".join(part for part in (lead, *runs) if part)


def find(
    store: Store, text: str, kind: Callable[[str], str | None], deadline: float | None = None
) -> MessageLines:
    """Every line of ordinary code (and, weighed down, of tests) holding a fragment of the message;
    the look-ups stop at ``deadline`` (``time.monotonic``; default ``BUDGET_S`` from now)."""
    found = fragments(text)
    total = sum(len(f) for f in found)
    if not total:
        return MessageLines()
    lines: dict[str, dict[int, float]] = {}
    files: dict[str, float] = {}
    words = {w.lower() for w in _WORDS.findall(text)}
    deadline = time.monotonic() + BUDGET_S if deadline is None else deadline
    for fragment in found:  # longest first: the most telling fragments are looked up within the budget
        if time.monotonic() > deadline:
            break
        seen_in: set[str] = set()
        written, spans = _written(store, fragment, kind, deadline)
        for span, what in spans:
            share = len(written) / total * (TEST_SHARE if what == "test" else 1.0) * _fit(span.text, words)
            per_line = lines.setdefault(span.path, {})
            per_line[span.line] = min(1.0, per_line.get(span.line, 0.0) + share)
            if span.path not in seen_in:
                seen_in.add(span.path)
                files[span.path] = min(1.0, files.get(span.path, 0.0) + share)
    return MessageLines(tuple(found), lines, files)


def _written(
    store: Store, fragment: str, kind: Callable[[str], str | None], deadline: float = float("inf")
) -> tuple[str, list]:
    """The code lines holding ``fragment`` — or, when none does, its longest run of whole words that
    some line holds (``Request failed with status code`` where the code writes ``Request failed with
    ${reason}``: the status was a value too); each with its file's kind."""
    words = fragment.split()
    tries = [fragment] + [
        " ".join(words[a:b])
        for size in range(len(words) - 1, 1, -1)
        for a, b in ((0, size), (len(words) - size, len(words)))
    ]
    only_tests: tuple[str, list] = (fragment, [])  # tests spell the message out whole: no writer
    for candidate in list(dict.fromkeys(tries))[: MAX_SHORTER + 1]:
        if len(re.findall(r"[A-Za-z]", candidate)) < MIN_LETTERS or time.monotonic() > deadline:
            break
        spans = [
            (span, what)
            for span in store.search_literal(candidate, limit=LINES_PER_FRAGMENT)
            # docs, changelogs, built or vendored copies only repeat the message
            if (what := kind(span.path)) in (None, "test")
        ]
        if any(what is None for _, what in spans):
            return candidate, spans
        if spans and not only_tests[1]:
            only_tests = (candidate, spans)
    return only_tests


_COMMENT = re.compile(r"^\s*(#|//|/\*|\*|--|;|%|<!--)")


def _fit(line: str, message_words: set[str]) -> float:
    """How well a line's string literals match the message: the share of their words it holds.

    ``"accepts %d arg(s), received %d"`` fits ``accepts 1 arg(s), received 3`` wholly, while
    ``"accepts at most %d arg(s) …"`` has two words the message lacks; format placeholders are
    left out. A line with no quote is read whole (the inside of a multi-line string); a comment
    scores ``NO_STRING``.
    """
    line = line[:MAX_LINE]
    if _COMMENT.match(line):
        return NO_STRING
    strings = _STRING.findall(line)
    literal = " ".join(a or b or c for a, b, c in strings) if strings else line
    own = {w.lower() for w in _WORDS.findall(_FORMAT.sub(" ", literal))}
    if not own:
        return NO_STRING
    return 0.4 + 0.6 * len(own & message_words) / len(own)
