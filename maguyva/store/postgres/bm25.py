"""BM25 postings that rank exactly like SQLite FTS5's ``bm25()`` over the same words. Pure.

The SQLite store indexes ``search_words(chunk)`` with the unicode61 tokenizer and queries each
word as a quoted phrase. Words are lower-case ASCII identifiers, so unicode61's tokens are the
runs of ``[a-z0-9]``; a word of several tokens (``apply_discount``) is a phrase whose frequency
is counted over the chunk's token stream, kept beside the postings.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from maguyva.search_words import search_words

_TOKEN = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True, slots=True)
class Postings:
    stream: str  # the chunk's tokens, space-separated (phrase frequencies are counted here)
    tokens: int  # FTS5's column size for the chunk
    tf: dict[str, int]  # token → frequency


@dataclass(frozen=True, slots=True)
class QueryTerm:
    term: str  # a token, or the phrase's tokens joined by spaces
    size: int  # tokens in the phrase
    pattern: str  # a regex counting the phrase in a token stream (unused for single tokens)


def postings(text: str, words: str | None = None) -> Postings:
    """``words``: ``search_words(text)`` when already computed (by an extraction worker)."""
    tokens = _TOKEN.findall(search_words(text) if words is None else words)
    return Postings(" ".join(tokens), len(tokens), dict(Counter(tokens)))


def query_terms(query: str) -> list[QueryTerm]:
    """One term per distinct query word, in query order, as FTS5 sees ``"w1" OR "w2" …``.

    Two words may give the same phrase (``__init__`` and ``init``); FTS5 scores both, so do we.
    """
    terms = []
    for word in dict.fromkeys(search_words(query).split()):
        tokens = _TOKEN.findall(word)
        if tokens:
            phrase = " ".join(tokens)
            terms.append(QueryTerm(phrase, len(tokens), f"(?<![a-z0-9]){phrase}(?![a-z0-9])"))
    return terms
