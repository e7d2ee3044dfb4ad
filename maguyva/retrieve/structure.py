"""Structural retrieval: definitions by name, qualified name, kind and signature (the AST index)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, ClassVar

from maguyva.retrieve.hits import Hit

if TYPE_CHECKING:
    from maguyva.models import Symbol
    from maguyva.retrieve.query import ParsedQuery
    from maguyva.store.base import Store


def symbol_hit(symbol: Symbol, score: float, modality: str = "structure") -> Hit:
    snippet = symbol.signature or symbol.name
    if symbol.doc:
        snippet = f"{snippet} — {symbol.doc}"[:240]
    return Hit(
        symbol.path,
        symbol.line,
        symbol.end_line,
        symbol.qualified_name,
        symbol.kind,
        snippet,
        score,
        modality,
    )


def find(store: Store, name: str, *, kind: str | None = None, limit: int = 20) -> list[Symbol]:
    """Exact lookup: a simple name, or a qualified name (``pkg.mod.Class.method``, ``Class.method``)."""
    found = list(store.find_symbols(name, kind=kind, limit=limit))
    if "." in name or "::" in name:
        dotted = name.replace("::", ".")
        found += store.find_symbols(dotted, kind=kind, qualified=True, limit=limit)
        tail = dotted.rsplit(".", 1)[-1]
        found += [
            s
            for s in store.find_symbols(tail, kind=kind, limit=limit * 5)
            if s.qualified_name.endswith("." + dotted)
        ]
        if not found:  # Class.member defined on a base class (maguyva.retrieve.inherited)
            from maguyva.retrieve import inherited

            found = [member for member, _ in inherited.find(store, dotted, kind=kind, limit=limit)]
    return _unique(found)[:limit]


def similar(store: Store, name: str, *, kind: str | None = None, limit: int = 20) -> list[Symbol]:
    """Fuzzy lookup (opt-in): prefix matches, case variants, then close spellings."""
    import difflib

    candidates: list[Symbol] = []
    for variant in dict.fromkeys([name, name.lower(), name[:1].upper() + name[1:], _snake(name)]):
        candidates += store.find_symbols(variant, kind=kind, limit=limit)
        candidates += store.find_symbols(variant, kind=kind, prefix=True, limit=limit)
    pool = _unique(candidates)
    if len(pool) < limit and len(name) >= 3:
        prefix_pool = store.find_symbols(name[:3], kind=kind, prefix=True, limit=500)
        names = sorted({s.name for s in prefix_pool})
        close = set(difflib.get_close_matches(name, names, n=limit, cutoff=0.6))
        pool = _unique(pool + [s for s in prefix_pool if s.name in close])
    ratio = lambda s: difflib.SequenceMatcher(None, name.lower(), s.name.lower()).ratio()  # noqa: E731
    return sorted(pool, key=lambda s: (-ratio(s), s.path, s.line))[:limit]


@dataclass(frozen=True, slots=True)
class StructureRetriever:
    """The structure modality: definitions named by the query's identifiers, then by its words.

    ``prefetch`` is handed every candidate's (path, symbol) before ``centrality`` is asked, so a
    caller can read them all in one store call."""

    store: Store
    centrality: Callable[[str, str | None], float] = lambda path, symbol: 0.0
    prefetch: Callable[[list[tuple[str, str | None]]], None] | None = None
    modality: ClassVar[str] = "structure"

    def retrieve(self, query: ParsedQuery, limit: int) -> list[Hit]:
        terms = query.terms
        exact: list[Symbol] = []
        for term in terms:
            exact += find(self.store, term, limit=limit)
        words = _content_words(query.word_tokens, exclude=terms)
        partial: list[tuple[int, Symbol]] = []
        for candidate in identifier_candidates(query.word_tokens, exclude=terms):
            joined = "_" in candidate or candidate[1:].lower() != candidate[1:]
            for symbol in self.store.find_symbols(candidate, limit=limit):
                # a plain word naming a symbol is weak evidence: keep it only when the symbol's own
                # text (qualified name, signature, doc) shares another word with the query
                overlap = _overlap(symbol, words)
                if joined or overlap >= 2:
                    partial.append((overlap + (2 if joined else 0), symbol))
        if self.prefetch is not None:
            self.prefetch([(s.path, s.qualified_name) for s in (*exact, *(symbol for _, symbol in partial))])
        order = lambda s: (-self.centrality(s.path, s.qualified_name), s.path, s.line)  # noqa: E731
        ranked = sorted(_unique(exact), key=order)
        taken = set(ranked)
        best: dict[Symbol, int] = {}
        for weight, symbol in partial:
            if symbol not in taken:
                best[symbol] = max(weight, best.get(symbol, 0))
        ranked += sorted(best, key=lambda s: (-best[s], *order(s)))
        return [symbol_hit(s, 1.0 / (1 + i)) for i, s in enumerate(ranked[:limit])]


_STOP = frozenset(
    [
        "the",
        "and",
        "for",
        "with",
        "from",
        "into",
        "that",
        "this",
        "what",
        "when",
        "where",
        "which",
        "while",
        "how",
        "does",
        "are",
        "was",
        "were",
        "can",
        "has",
        "have",
        "not",
        "all",
        "any",
        "our",
        "your",
        "their",
        "its",
        "out",
        "use",
        "used",
        "using",
        "about",
        "after",
        "before",
        "between",
        "there",
        "here",
        "then",
        "than",
        "them",
        "they",
        "some",
        "such",
        "only",
        "also",
        "just",
    ]
)


def _content_words(words: Sequence[str], exclude: Sequence[str] = ()) -> set[str]:
    return {w.lower() for w in words if len(w) >= 4 and w.lower() not in _STOP and w not in exclude}


def _overlap(symbol: Symbol, words: set[str]) -> int:
    own = f"{symbol.qualified_name} {symbol.signature} {symbol.doc}".lower()
    return sum(1 for word in words if word.rstrip("s") in own)


def identifier_candidates(words: Sequence[str], exclude: Sequence[str] = ()) -> list[str]:
    """Names a plain-words query may mean: its words, and adjacent pairs joined in each naming style.

    ``bytecode cache`` → ``bytecode``, ``cache``, ``bytecode_cache``, ``BytecodeCache``, ``bytecodeCache``.
    Only exact names are looked up: prefix matches on ordinary words bring noise, not answers.
    """
    words = [w for w in words if len(w) >= 4 and w.lower() not in _STOP and w not in exclude]
    found = list(words)
    for first, second in pairwise(words):
        a, b = first.lower(), second.lower()
        found += [f"{a}_{b}", f"{a.title()}{b.title()}", f"{a}{b.title()}"]
    return list(dict.fromkeys(found))


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", name).lower()


def _unique(symbols: list[Symbol]) -> list[Symbol]:
    seen: set[tuple[str, int, str]] = set()
    out = []
    for symbol in symbols:
        key = (symbol.path, symbol.line, symbol.qualified_name)
        if key not in seen:
            seen.add(key)
            out.append(symbol)
    return out
