"""File-level BM25F over code-aware tokens, built from what the store already holds.

One document per indexed file, five fields: the path, the definitions (names, qualified names,
signatures), docstrings and comments, the identifiers the file uses (its references), and the
body. A term's pseudo-frequency is the field-weighted, length-normalised sum of its field
frequencies (Robertson & Zaragoza's BM25F); the saturation ``tf / (k1 + tf)`` is applied once,
to that sum. Postings hold the pseudo-frequency per file, so a query costs one pass over the
postings of its distinct terms.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from maguyva.retrieve.query import tokens

if TYPE_CHECKING:
    from maguyva.store.base import Store

FIELDS = ("path", "defs", "docs", "uses", "body")
WEIGHTS = {"path": 3.0, "defs": 2.0, "docs": 1.0, "uses": 1.0, "body": 1.0}
B = {"path": 0.3, "defs": 0.6, "docs": 0.6, "uses": 0.6, "body": 0.75}
K1 = 1.2

_COMMENT = re.compile(r"(?:#|//)\s?(.*)$", re.M)
_DOCSTRING = re.compile(r'"""(.*?)"""|\'\'\'(.*?)\'\'\'', re.S)


@dataclass(frozen=True, slots=True)
class FileFields:
    path: str
    fields: Mapping[str, Counter]
    symbols: tuple[frozenset, ...] = ()  # each definition's own words: name, signature, docstring


def file_fields(path: str, text: str, symbols: Iterable, references: Iterable) -> FileFields:
    """The five fields of one file as token counters (pure)."""
    defs = " ".join(f"{s.qualified_name} {s.signature}" for s in symbols)
    docs = [s.doc for s in symbols if s.doc]
    docs += [a or b for a, b in _DOCSTRING.findall(text)]
    docs += _COMMENT.findall(text)
    uses = " ".join(f"{r.qualifier} {r.name}" for r in references)
    own = tuple(
        frozenset(tokens(f"{'.'.join(s.qualified_name.split('.')[-2:])} {s.signature} {s.doc}"))
        for s in symbols
    )
    return FileFields(
        path,
        {
            "path": Counter(tokens(path.replace("/", " ").replace(".", " "))),
            "defs": Counter(tokens(defs)),
            "docs": Counter(tokens("\n".join(docs))),
            "uses": Counter(tokens(uses)),
            "body": Counter(tokens(text)),
        },
        own,
    )


class FileIndex:
    """The postings of every file; ``score`` ranks files for a weighted bag of query terms."""

    def __init__(
        self,
        paths: list[str],
        postings: dict[str, tuple[np.ndarray, np.ndarray]],
        symbol_postings: dict[str, np.ndarray] | None = None,
        symbol_file: np.ndarray | None = None,
    ):
        self.paths = paths
        self.postings = postings
        self.position = {p: i for i, p in enumerate(paths)}
        self.symbol_postings = symbol_postings or {}  # term -> ids of the definitions whose own words hold it
        self.symbol_file = symbol_file if symbol_file is not None else np.zeros(0, dtype=np.int32)

    @classmethod
    def build(cls, documents: list[FileFields]) -> FileIndex:
        paths = [d.path for d in documents]
        n = max(1, len(documents))
        average = {f: (sum(sum(d.fields[f].values()) for d in documents) / n) or 1.0 for f in FIELDS}
        collected: dict[str, tuple[list[int], list[float]]] = {}
        by_symbol: dict[str, list[int]] = {}
        symbol_file: list[int] = []
        for index, doc in enumerate(documents):
            for words in doc.symbols:
                for term in words:
                    by_symbol.setdefault(term, []).append(len(symbol_file))
                symbol_file.append(index)
            pseudo: dict[str, float] = {}
            for f in FIELDS:
                counts = doc.fields[f]
                if not counts:
                    continue
                norm = WEIGHTS[f] / (1 - B[f] + B[f] * sum(counts.values()) / average[f])
                for term, tf in counts.items():
                    pseudo[term] = pseudo.get(term, 0.0) + tf * norm
            for term, value in pseudo.items():
                ids, values = collected.setdefault(term, ([], []))
                ids.append(index)
                values.append(value)
        postings = {
            t: (np.asarray(i, dtype=np.int32), np.asarray(v, dtype=np.float32))
            for t, (i, v) in collected.items()
        }
        symbols = {t: np.asarray(i, dtype=np.int32) for t, i in by_symbol.items()}
        return cls(paths, postings, symbols, np.asarray(symbol_file, dtype=np.int32))

    def idf(self, term: str) -> float:
        found = self.postings.get(term)
        df = len(found[0]) if found else 0
        n = len(self.paths)
        return math.log(1 + (n - df + 0.5) / (df + 0.5))

    def score(self, weighted_terms: Mapping[str, float]) -> np.ndarray:
        scores = np.zeros(len(self.paths), dtype=np.float64)
        for term, weight in weighted_terms.items():
            found = self.postings.get(term)
            if not found or weight <= 0:
                continue
            ids, pseudo = found
            scores[ids] += weight * self.idf(term) * pseudo / (K1 + pseudo)
        return scores

    def best_symbol(self, weighted_terms: Mapping[str, float]) -> np.ndarray:
        """Per file, its best single definition: the idf-weighted query terms in one symbol's own words."""
        per_symbol = np.zeros(len(self.symbol_file), dtype=np.float64)
        for term, weight in weighted_terms.items():
            ids = self.symbol_postings.get(term)
            if ids is not None and weight > 0:
                per_symbol[ids] += weight * self.idf(term)
        best = np.zeros(len(self.paths), dtype=np.float64)
        if len(per_symbol):
            np.maximum.at(best, self.symbol_file, per_symbol)
        self.last_symbol_scores = per_symbol
        return best

    def symbol_count(self, file: int) -> int:
        start, end = np.searchsorted(self.symbol_file, [file, file + 1])
        return int(end - start)

    def symbol_order(self, path: str) -> list[int]:
        """The last query's best definitions of ``path``, best first, as positions in the file's symbol list
        (the order the store returned them at build time); only definitions that matched."""
        scores = getattr(self, "last_symbol_scores", None)
        file = self.position.get(path)
        if scores is None or file is None or not len(self.symbol_file):
            return []
        start, end = np.searchsorted(self.symbol_file, [file, file + 1])
        own = scores[start:end]
        return [int(i) for i in np.argsort(-own, kind="stable") if own[i] > 0]


def build_from_store(store: Store) -> FileIndex:
    """Read every indexed file's text, definitions and references from the store and index them."""
    documents = []
    for path in sorted(store.known_paths()):
        text = store.file_text(path) or ""
        documents.append(file_fields(path, text, store.symbols_in(path), store.references_in(path)))
    return FileIndex.build(documents)
