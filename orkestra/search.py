"""One weighted-field scorer shared by every registry kind (agents, skills, decisions, truths, packages).

Entries are tokenised once, when the index is built, into an inverted index
``token -> {entry: summed field weight}``. A query is split into terms; each term scores an
entry with the weight of every field holding it (a prefix match counts half). Ranking:

1. an exact id/name hit (the whole query equals the entry's key) comes first;
2. then entries matching more of the query's terms;
3. then the higher score (a multi-word query found verbatim in a field adds that field's weight);
4. ties break on kind order, then key — so the same query always gives the same order.

A compound term such as ``schema-migration`` matches the compound token, or else all of its parts.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field

# Field weights per kind. Truths follow SPEC §2.6 (id 6, statement 5, rationale 4, tags 3, evidence 2).
WEIGHTS: dict[str, dict[str, float]] = {
    "agent": {"id": 6, "description": 4, "category": 3, "domains": 3, "scopes": 3, "persona": 2, "skills": 1},
    "skill": {"id": 6, "description": 5, "tags": 3, "scope": 3, "facets": 2},
    "decision": {
        "id": 6,
        "title": 5,
        "summary": 4,
        "tags": 3,
        "rationale": 3,
        "context": 2,
        "files": 2,
        "guidance": 1,
    },
    "truth": {"id": 6, "statement": 5, "rationale": 4, "tags": 3, "evidence": 2, "guidance": 1},
    "package": {"id": 6, "path": 4, "description": 3},
}
KINDS = tuple(WEIGHTS)
PREFIX_FACTOR = 0.5

_TOKEN = re.compile(r"[a-z0-9]+(?:[-_./][a-z0-9]+)*")
_PART = re.compile(r"[a-z0-9]+")


def tokenize(text: str) -> list[str]:
    """Lower-case tokens: each compound (``dec-pl-142``, ``a/b.py``) plus its alphanumeric parts."""
    tokens = []
    for match in _TOKEN.finditer(text.lower()):
        word = match.group()
        tokens.append(word)
        parts = _PART.findall(word)
        if len(parts) > 1:
            tokens.extend(parts)
    return tokens


@dataclass(frozen=True, slots=True)
class Entry:
    """One searchable record: its kind, its key (id or name), a title, and text per weighted field."""

    kind: str
    key: str
    title: str
    fields: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class Hit:
    kind: str
    id: str
    title: str
    score: float
    matched_terms: int
    exact: bool

    def to_dict(self) -> dict:
        return {**asdict(self), "score": round(self.score, 3)}


@dataclass
class SearchIndex:
    """Entries tokenised once; ``search`` only looks tokens up."""

    entries: list[Entry]
    postings: dict[str, dict[int, float]] = field(default_factory=dict)
    vocabulary: list[str] = field(default_factory=list)
    lowered: list[dict[str, str]] = field(default_factory=list)

    @classmethod
    def build(cls, entries: Iterable[Entry]) -> SearchIndex:
        index = cls(entries=list(entries))
        for number, entry in enumerate(index.entries):
            weights = WEIGHTS[entry.kind]
            lowered = {name: text.lower() for name, text in entry.fields.items() if text}
            index.lowered.append(lowered)
            for name, text in lowered.items():
                weight = weights[name]
                for token in set(tokenize(text)):
                    slot = index.postings.setdefault(token, {})
                    slot[number] = slot.get(number, 0.0) + weight
        index.vocabulary = sorted(index.postings)
        return index

    def search(self, query: str, kinds: Iterable[str] | None = None, limit: int | None = None) -> list[Hit]:
        """Ranked hits for ``query``, best first, optionally restricted to some kinds."""
        wanted = set(kinds) if kinds else set(KINDS)
        terms = _query_terms(query)
        exact_key = query.strip().lower()
        if not terms:
            return []
        scores: dict[int, float] = {}
        matched: dict[int, int] = {}
        for term in terms:
            for number, score in self._term_scores(term).items():
                scores[number] = scores.get(number, 0.0) + score
                matched[number] = matched.get(number, 0) + 1
        phrase = " ".join(query.lower().split()) if len(terms) > 1 else ""
        hits = []
        for number, score in scores.items():
            entry = self.entries[number]
            if entry.kind not in wanted:
                continue
            if phrase:
                weights = WEIGHTS[entry.kind]
                score += sum(weights[name] for name, text in self.lowered[number].items() if phrase in text)
            hits.append(
                Hit(
                    entry.kind, entry.key, entry.title, score, matched[number], entry.key.lower() == exact_key
                )
            )
        hits.sort(key=lambda h: (not h.exact, -h.matched_terms, -h.score, KINDS.index(h.kind), h.id))
        return hits if limit is None else hits[:limit]

    def _term_scores(self, term: str) -> dict[int, float]:
        scores = self._token_scores(term)
        parts = _PART.findall(term)
        if len(parts) > 1:  # entries lacking the compound may still hold every part
            per_part = [self._token_scores(part) for part in parts]
            common = set.intersection(*(set(p) for p in per_part)) - set(scores)
            for number in common:
                scores[number] = sum(p[number] for p in per_part) / len(parts)
        return scores

    def _token_scores(self, token: str) -> dict[int, float]:
        """Exact postings at full weight, tokens that start with ``token`` at half weight."""
        scores = dict(self.postings.get(token, {}))
        start = bisect.bisect_right(self.vocabulary, token)
        for other in self.vocabulary[start:]:
            if not other.startswith(token):
                break
            for number, weight in self.postings[other].items():
                scores[number] = max(scores.get(number, 0.0), weight * PREFIX_FACTOR)
        return scores


def _query_terms(query: str) -> list[str]:
    """Whitespace-separated terms, each reduced to its compound token; duplicates dropped."""
    terms: list[str] = []
    for word in query.lower().split():
        found = _TOKEN.findall(word)
        for term in found:
            if term not in terms:
                terms.append(term)
    return terms
