"""Text retrieval: trigram literals, regex (RE2, time-budgeted) with a literal pre-filter, BM25 over chunks."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from maguyva.retrieve.hits import Hit
from maguyva.retrieve.stopwords import FUNCTION_WORDS
from maguyva.store.lines import split_lines

if TYPE_CHECKING:
    from maguyva.retrieve.query import ParsedQuery
    from maguyva.store.base import Span, Store

MAX_SNIPPET = 240
_STOP = FUNCTION_WORDS | frozenset(
    [
        "do",
        "does",
        "i",
        "we",
        "where",
        "why",
        "find",
        "show",
        "me",
        "code",
        "function",
        "method",
        "class",
        "file",
    ]
)


def _hit(span: Span, kind: str, score: float) -> Hit:
    snippet = span.text.strip()[:MAX_SNIPPET]
    return Hit(span.path, span.line, span.end_line, span.symbol, kind, snippet, score, "text")


def literal(store: Store, text: str, limit: int = 50) -> list[Hit]:
    """Lines containing ``text`` (case-insensitive), in path order."""
    spans = store.search_literal(text, limit=max(limit * 4, 200))
    records = store.file_records(s.path for s in spans)  # one read for every matching file
    tests = {s.path: "test" in records[s.path].flags if s.path in records else False for s in spans}
    # where a literal is defined beats where tests repeat it
    ordered = sorted(spans, key=lambda s: tests[s.path])
    return [_hit(s, "line", 1.0) for s in ordered[:limit]]


REGEX_BUDGET_S = 5.0  # one regex query reads files until it has its hits or this much time went by


@dataclass(frozen=True, slots=True)
class RegexHits:
    hits: list[Hit] = field(default_factory=list)
    stopped: str | None = None  # why the scan ended before reading every candidate file


def regex(
    store: Store, pattern: str, *, limit: int = 50, case_sensitive: bool = False, max_files: int = 5000
) -> RegexHits:
    """Lines matching ``pattern`` (RE2: linear time, no backtracking); files are pre-filtered by the
    longest literal the regex requires, and the scan stops after ``REGEX_BUDGET_S`` seconds."""
    from maguyva.retrieve.safe_regex import compile_safe  # re2: only a regex search needs it

    compiled = compile_safe(pattern, case_sensitive=case_sensitive)
    deadline = time.monotonic() + REGEX_BUDGET_S
    needle = required_literal(pattern)
    if needle:
        candidates = sorted({s.path for s in store.search_literal(needle, limit=100_000)})
    else:
        candidates = sorted(store.known_paths())[:max_files]
    hits: list[Hit] = []
    for scanned, path in enumerate(candidates):
        if time.monotonic() >= deadline:
            return RegexHits(
                hits,
                f"stopped after {scanned} of {len(candidates)} files at the {REGEX_BUDGET_S:g} s "
                f"time budget; narrow it with path_prefix or a longer literal in the pattern",
            )
        text = store.file_text(path) or ""
        if not compiled.text.search(text):
            continue
        for number, line in enumerate(split_lines(text), start=1):
            if compiled.line.search(line):
                hits.append(Hit(path, number, number, None, "line", line.strip()[:MAX_SNIPPET], 1.0, "text"))
                if len(hits) >= limit:
                    return RegexHits(hits)
    return RegexHits(hits)


def required_literal(pattern: str) -> str:
    """The longest run of literal characters every match must contain ("" if none ≥ 3 chars)."""
    try:
        import re._parser as sre_parse  # Python ≥ 3.11
    except ImportError:  # pragma: no cover
        import sre_parse  # type: ignore[no-redef]
    if "[:" in pattern or "\\p" in pattern:  # RE2 classes Python would read as literals
        return ""
    try:
        parsed = sre_parse.parse(pattern)
    except (re.error, RecursionError, OverflowError, ValueError):
        return ""
    best, current = "", ""
    for op, value in parsed:
        if op is sre_parse.LITERAL:
            current += chr(value)
            continue
        best, current = max(best, current, key=len), ""
        if op is sre_parse.BRANCH or op is sre_parse.SUBPATTERN:
            continue  # alternatives and groups may not all contain the same literal
    best = max(best, current, key=len)
    return best if len(best) >= 3 else ""


def bm25(store: Store, words: Sequence[str], limit: int = 20) -> list[Hit]:
    """Chunks ranked by BM25 over identifier-split words, docstrings and comments (stop words left out)."""
    kept = [w for w in words if w.lower() not in _STOP]
    if not kept:
        return []
    return [_hit(s, "chunk", s.score) for s in store.search_bm25(" ".join(kept), limit=limit)]


@dataclass(frozen=True, slots=True)
class TextRetriever:
    """The text modality for fused search: exact literals of the query's terms first, then BM25."""

    store: Store
    modality: ClassVar[str] = "text"

    def retrieve(self, query: ParsedQuery, limit: int) -> list[Hit]:
        ranked: list[Hit] = []
        seen: set[tuple[str, int]] = set()
        for term in query.terms:
            if len(term) < 3:
                continue
            for hit in literal(self.store, term, limit=limit):
                if (hit.path, hit.line) not in seen:
                    seen.add((hit.path, hit.line))
                    ranked.append(hit)
        for hit in bm25(self.store, query.word_tokens, limit=limit):
            if (hit.path, hit.line) not in seen:
                seen.add((hit.path, hit.line))
                ranked.append(hit)
        return ranked[:limit]
