"""BM25F over code-aware tokens at two levels, files and definitions, built from what the store holds.

Files: one document per indexed file, five fields: the path, the definitions (names, qualified
names, signatures), docstrings and comments, the identifiers the file uses (its references), and
the body. A term's pseudo-frequency is the field-weighted, length-normalised sum of its field
frequencies (Robertson & Zaragoza's BM25F); the saturation ``tf / (k1 + tf)`` is applied once,
to that sum. Postings hold the pseudo-frequency per file, so a query costs one pass over the
postings of its distinct terms.

Definitions (the places an answer cites): one document per function, method, class … with four
fields: its name (the last two parts of its qualified name, ``Class.method``), its signature, its
docstring and comments, and its own body — the identifiers and string literals of the lines it
owns, which are its lines less those of the definitions nested in it. So a class is its header,
docstring and attributes, and a method that matches the question beats the class around it.
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
DEF_FIELDS = ("name", "sig", "docs", "body")
DEF_WEIGHTS = {"name": 3.0, "sig": 1.0, "docs": 1.5, "body": 1.0}
DEF_B = {"name": 0.3, "sig": 0.5, "docs": 0.6, "body": 0.75}
# a definition that is a value (an import binding, a constant) or a declaration without behaviour (a type
# alias, an interface) is weaker evidence than a scope: questions ask where things happen
VALUE_KINDS = frozenset({"variable", "constant", "field", "property", "import", "type", "interface"})
VALUE_FACTOR = 0.5
# a class or struct owns its header and attributes: many words, rarely the lines that do the work
CONTAINER_KINDS = frozenset({"class", "struct", "trait", "enum", "module", "namespace"})
CONTAINER_FACTOR = 0.75
MAX_DEF_LINES = 4_000  # a definition's own body is read up to this many lines
MAX_TERM = 48  # longer tokens (hashes, base64, generated names) are never asked for: not indexed

_COMMENT = re.compile(r"(?:#|//)\s?(.*)$", re.M)
_DOCSTRING = re.compile(r'"""(.*?)"""|\'\'\'(.*?)\'\'\'', re.S)


@dataclass(frozen=True, slots=True)
class FileFields:
    path: str
    fields: Mapping[str, Counter]
    symbols: tuple[Mapping[str, Counter], ...] = ()  # each definition's own fields (DEF_FIELDS)
    factors: tuple[float, ...] = ()  # per definition: VALUE_FACTOR, CONTAINER_FACTOR or 1


def file_fields(path: str, text: str, symbols: Iterable, references: Iterable) -> FileFields:
    """The five fields of one file as token counters (pure)."""
    defs = " ".join(f"{s.qualified_name} {s.signature}" for s in symbols)
    docs = [s.doc for s in symbols if s.doc]
    docs += [a or b for a, b in _DOCSTRING.findall(text)]
    docs += _COMMENT.findall(text)
    uses = " ".join(f"{r.qualifier} {r.name}" for r in references)
    symbols = list(symbols)
    return FileFields(
        path,
        {
            "path": Counter(tokens(path.replace("/", " ").replace(".", " "))),
            "defs": Counter(tokens(defs)),
            "docs": Counter(tokens("\n".join(docs))),
            "uses": Counter(tokens(uses)),
            "body": Counter(tokens(text)),
        },
        definition_fields(symbols, text),
        tuple(
            VALUE_FACTOR if s.kind in VALUE_KINDS else CONTAINER_FACTOR if s.kind in CONTAINER_KINDS else 1.0
            for s in symbols
        ),
    )


def own_lines(symbols: list, n_lines: int) -> list[list[int]]:
    """Per definition, the 0-based lines it owns: its span less the spans of definitions nested in it."""
    owner = [-1] * n_lines
    # widest first, so each line ends with the innermost definition around it
    for i in sorted(range(len(symbols)), key=lambda i: symbols[i].line - symbols[i].end_line):
        s = symbols[i]
        first, last = max(0, s.line - 1), min(n_lines, s.end_line, s.line - 1 + MAX_DEF_LINES)
        owner[first:last] = [i] * max(0, last - first)
    lines: list[list[int]] = [[] for _ in symbols]
    for number, i in enumerate(owner):
        if i >= 0:
            lines[i].append(number)
    return lines


def definition_fields(symbols: list, text: str) -> tuple[Mapping[str, Counter], ...]:
    """Each definition's four fields as token counters (pure)."""
    if not symbols:
        return ()
    lines = text.splitlines()
    owned = own_lines(symbols, len(lines))
    out = []
    for symbol, mine in zip(symbols, owned):
        body = "\n".join(lines[n] for n in mine)
        comments = _COMMENT.findall(body)
        out.append(
            {
                "name": Counter(tokens(".".join(symbol.qualified_name.split(".")[-2:]))),
                "sig": Counter(tokens(symbol.signature)),
                "docs": Counter(tokens(f"{symbol.doc}\n" + "\n".join(comments))),
                "body": Counter(tokens(body)),
            }
        )
    return tuple(out)


Averages = tuple[dict[str, float], dict[str, float]]


def lengths(documents: list[FileFields]) -> np.ndarray:
    """Per file, what the field averages are summed from: the length of each of its FIELDS, the summed
    length of each DEF_FIELDS over its definitions, and its number of definitions."""
    out = np.zeros((len(documents), len(FIELDS) + len(DEF_FIELDS) + 1), dtype=np.float64)
    for row, d in enumerate(documents):
        out[row, : len(FIELDS)] = [sum(d.fields[f].values()) for f in FIELDS]
        out[row, len(FIELDS) : -1] = [
            sum(sum(fields[f].values()) for fields in d.symbols) for f in DEF_FIELDS
        ]
        out[row, -1] = len(d.symbols)
    return out


def averages(sizes: np.ndarray) -> Averages:
    """Each field's mean length over the files (FIELDS) and over their definitions (DEF_FIELDS), from
    the files' ``lengths``."""
    total = sizes.sum(axis=0) if len(sizes) else np.zeros(sizes.shape[1])
    n, n_defs = max(1, len(sizes)), max(1, int(total[-1]))
    average = {f: (float(total[i]) / n) or 1.0 for i, f in enumerate(FIELDS)}
    def_average = {f: (float(total[len(FIELDS) + i]) / n_defs) or 1.0 for i, f in enumerate(DEF_FIELDS)}
    return average, def_average


class ArrayPostings(Mapping):
    """Postings kept as flat arrays (as the cache stores them): the terms sorted, a term found by binary
    search and its row sliced when asked, so opening an index costs one read of the arrays and no
    object per term."""

    def __init__(self, terms: np.ndarray, offsets: np.ndarray, ids: np.ndarray, values: np.ndarray):
        self._terms = terms  # sorted ASCII bytes (search tokens are ASCII: maguyva.search_words)
        self._size = len(terms)
        self._offsets, self._ids, self._values = offsets, ids, values

    @property
    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The sorted terms, offsets, ids and values, as the cache stores them."""
        return self._terms, self._offsets, self._ids, self._values

    def _row(self, term: object) -> int | None:
        if not isinstance(term, str) or not self._size or not term.isascii():
            return None
        key = term.encode()
        row = int(np.searchsorted(self._terms, key))
        return row if row < self._size and self._terms[row] == key else None

    def __getitem__(self, term: str) -> tuple[np.ndarray, np.ndarray]:
        row = self._row(term)
        if row is None:
            raise KeyError(term)
        start, end = self._offsets[row], self._offsets[row + 1]
        return self._ids[start:end], self._values[start:end]

    def __contains__(self, term: object) -> bool:
        return self._row(term) is not None

    def __iter__(self):
        return (term.decode() for term in self._terms)

    def __len__(self) -> int:
        return self._size


class FileIndex:
    """The postings of every file; ``score`` ranks files for a weighted bag of query terms."""

    def __init__(
        self,
        paths: list[str],
        postings: Mapping[str, tuple[np.ndarray, np.ndarray]],
        symbol_postings: Mapping[str, tuple[np.ndarray, np.ndarray]] | None = None,
        symbol_file: np.ndarray | None = None,
        symbol_factor: np.ndarray | None = None,
    ):
        self.paths = paths
        self.postings = postings
        self.position = {p: i for i, p in enumerate(paths)}
        # term -> (ids of the definitions whose fields hold it, their pseudo-frequencies)
        self.symbol_postings = symbol_postings or {}
        self.symbol_file = symbol_file if symbol_file is not None else np.zeros(0, dtype=np.int32)
        self.symbol_factor = (
            symbol_factor if symbol_factor is not None else np.ones(len(self.symbol_file), dtype=np.float32)
        )
        # per file, what the ranker asks of the store for each candidate, kept with the index when known:
        # its PageRank (file node) and the kind that demotes it ("" for ordinary code)
        self.last_symbol_scores: np.ndarray | None = None  # the last query's (best_symbol), for citing
        self.pagerank: np.ndarray | None = None
        self.kinds: np.ndarray | None = None
        # the field averages (file level, definition level) the pseudo-frequencies were computed with
        self.averages: Averages | None = None
        self.lengths: np.ndarray | None = None  # per file, what the averages sum (``lengths``)

    @classmethod
    def build(cls, documents: list[FileFields], frozen: Averages | None = None) -> FileIndex:
        """Index ``documents``; ``frozen`` field averages (an incremental update's) replace their own."""
        paths = [d.path for d in documents]
        sizes = lengths(documents)
        average, def_average = frozen if frozen is not None else averages(sizes)
        collected: dict[str, tuple[list[int], list[float]]] = {}
        by_symbol: dict[str, tuple[list[int], list[float]]] = {}
        symbol_file: list[int] = []
        factor: list[float] = []
        for index, doc in enumerate(documents):
            for position, fields in enumerate(doc.symbols):
                for term, value in _pseudo(fields, DEF_FIELDS, DEF_WEIGHTS, DEF_B, def_average).items():
                    if len(term) > MAX_TERM:
                        continue
                    ids, values = by_symbol.setdefault(term, ([], []))
                    ids.append(len(symbol_file))
                    values.append(value)
                symbol_file.append(index)
                factor.append(doc.factors[position] if position < len(doc.factors) else 1.0)
            for term, value in _pseudo(doc.fields, FIELDS, WEIGHTS, B, average).items():
                if len(term) > MAX_TERM:
                    continue
                ids, values = collected.setdefault(term, ([], []))
                ids.append(index)
                values.append(value)
        postings = {
            t: (np.asarray(i, dtype=np.int32), np.asarray(v, dtype=np.float32))
            for t, (i, v) in collected.items()
        }
        symbols = {
            t: (np.asarray(i, dtype=np.int32), np.asarray(v, dtype=np.float32))
            for t, (i, v) in by_symbol.items()
        }
        built = cls(
            paths,
            postings,
            symbols,
            np.asarray(symbol_file, dtype=np.int32),
            np.asarray(factor, dtype=np.float32),
        )
        built.averages = (dict(average), dict(def_average))
        built.lengths = sizes
        return built

    def files_with(self, name: str) -> int:
        """How many files hold ``name`` (an identifier, lower-cased whole) in any field."""
        found = self.postings.get(name.lower())
        return len(found[0]) if found else 0

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

    def symbol_scores(self, weighted_terms: Mapping[str, float]) -> np.ndarray:
        """Every definition's BM25F score for the query (definition-level idf), values weighed down."""
        per_symbol = np.zeros(len(self.symbol_file), dtype=np.float64)
        n = len(self.symbol_file)
        for term, weight in weighted_terms.items():
            found = self.symbol_postings.get(term)
            if found is None or weight <= 0:
                continue
            ids, pseudo = found
            idf = math.log(1 + (n - len(ids) + 0.5) / (len(ids) + 0.5))
            per_symbol[ids] += weight * idf * pseudo / (K1 + pseudo)
        return per_symbol * self.symbol_factor

    def best_symbol(self, weighted_terms: Mapping[str, float]) -> np.ndarray:
        """Per file, the score of its best single definition (``symbol_scores``)."""
        per_symbol = self.symbol_scores(weighted_terms)
        best = np.zeros(len(self.paths), dtype=np.float64)
        if len(per_symbol):
            np.maximum.at(best, self.symbol_file, per_symbol)
        self.last_symbol_scores = per_symbol
        return best

    def symbol_scores_of(self, path: str) -> np.ndarray:
        """The last query's scores of ``path``'s definitions, in the file's symbol order."""
        scores = self.last_symbol_scores
        file = self.position.get(path)
        if scores is None or file is None or not len(self.symbol_file):
            return np.zeros(0)
        start, end = np.searchsorted(self.symbol_file, [file, file + 1])
        return scores[start:end]


def _pseudo(
    fields: Mapping[str, Counter],
    names: tuple[str, ...],
    weights: Mapping[str, float],
    b: Mapping[str, float],
    average: Mapping[str, float],
) -> dict[str, float]:
    """BM25F's pseudo-frequency of each term: field-weighted, length-normalised counts, summed."""
    pseudo: dict[str, float] = {}
    for f in names:
        counts = fields[f]
        if not counts:
            continue
        norm = weights[f] / (1 - b[f] + b[f] * sum(counts.values()) / average[f])
        for term, tf in counts.items():
            pseudo[term] = pseudo.get(term, 0.0) + tf * norm
    return pseudo


def documents_of(store: Store, paths: Iterable[str]) -> list[FileFields]:
    """The fields of each of ``paths`` (in that order), read from the store and tokenised."""
    documents = []
    for path in paths:
        text = store.file_text(path) or ""
        documents.append(file_fields(path, text, store.symbols_in(path), store.references_in(path)))
    return documents


def build_from_store(store: Store) -> FileIndex:
    """Read every indexed file's text, definitions and references from the store and index them."""
    return FileIndex.build(documents_of(store, sorted(store.known_paths())))
