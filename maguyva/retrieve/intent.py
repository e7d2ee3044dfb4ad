"""Intent classification: ordered heuristics, first match wins (SPEC §8).

Cheap on purpose — it runs on every query's critical path. The weights per intent are the
hand-chosen priors of the design, not learned values.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from maguyva.retrieve.query import ParsedQuery

INTENTS = (
    "find_definition",
    "find_references",
    "understand_code",
    "find_similar",
    "impact_analysis",
    "exact_match",
)

# (semantic, text, structure, graph) per intent.
WEIGHTS: dict[str, dict[str, float]] = {
    "find_definition": {"semantic": 0.2, "text": 0.1, "structure": 0.6, "graph": 0.1},
    "find_references": {"semantic": 0.1, "text": 0.2, "structure": 0.2, "graph": 0.5},
    "understand_code": {"semantic": 0.5, "text": 0.2, "structure": 0.2, "graph": 0.1},
    "find_similar": {"semantic": 0.4, "text": 0.3, "structure": 0.2, "graph": 0.1},
    "impact_analysis": {"semantic": 0.1, "text": 0.1, "structure": 0.1, "graph": 0.7},
    "exact_match": {"semantic": 0.0, "text": 0.9, "structure": 0.1, "graph": 0.0},
}

FAST_PATH_CONFIDENCE = 0.85

_REFERENCES = re.compile(
    r"\b(who\s+calls|callers?\s+of|usages?\s+of|uses\s+of|references?\s+to|"
    r"(who|what)\s+(uses|imports|calls)|importers?\s+of|"
    r"where\s+is\s+\S+\s+(used|called|imported)|called\s+from|invocations?\s+of)\b",
    re.I,
)
_IMPACT = re.compile(
    r"\b(impact|blast\s+radius|what\s+depends\s+on|depends\s+on|dependents\s+of|"
    r"what\s+(breaks|would\s+break)|affected\s+by|ripple)\b",
    re.I,
)
QUOTED_SHARE = 0.6  # the quoted-string rule fires only when the quoted part is most of the query
_SIMILAR = re.compile(
    r"\b(similar\s+to|like\s+this|same\s+as|resembl\w*|analogous|other\s+places\s+that)\b", re.I
)
_UNDERSTAND = re.compile(
    r"\b(how|why|explain|architecture|overview|what\s+is|what\s+does|where\s+do\s+we|"
    r"walk\s+me|describe|purpose)\b",
    re.I,
)


@dataclass(frozen=True, slots=True)
class Intent:
    name: str
    confidence: float
    reason: str  # which heuristic fired

    @property
    def weights(self) -> dict[str, float]:
        return WEIGHTS[self.name]

    @property
    def dominant(self) -> str:
        """The modality with the highest weight for this intent."""
        weights = self.weights
        return max(weights, key=lambda m: (weights[m], -("semantic", "text", "structure", "graph").index(m)))


def classify(query: ParsedQuery) -> Intent:
    """Classify a parsed query into one of six intents with a confidence (first matching rule wins).

    A long text (an issue, a task, a paragraph, anything with a code fence or a traceback)
    describes a task: it is never a literal lookup and never takes the fast path.
    """
    if query.is_task:
        return Intent("understand_code", 0.50, "task text")
    text = query.text.strip()
    if query.declared is not None:
        return Intent("find_definition", 0.95, "declaration keyword")
    if _REFERENCES.search(text):
        return Intent("find_references", 0.90, "references phrase")
    if _IMPACT.search(text):
        return Intent("impact_analysis", 0.90, "impact phrase")
    if query.quoted_share >= QUOTED_SHARE:
        return Intent("exact_match", 0.90, "quoted string")
    # "how are error handlers looked up for an exception" is no lookup
    if query.error_tokens and not query.question:
        return Intent("exact_match", 0.85, "error token")
    if _SIMILAR.search(text):
        return Intent("find_similar", 0.80, "similarity phrase")
    identifier = _identifier_confidence(query)
    if identifier:
        return Intent("find_definition", identifier, "identifier")
    if _UNDERSTAND.search(text):
        return Intent("understand_code", 0.75, "question word")
    return Intent("understand_code", 0.40, "default")


def _identifier_confidence(query: ParsedQuery) -> float:
    """0.80 for a lone identifier, 0.70 for one inside a short phrase, 0.60 in a longer one."""
    text = query.text.strip()
    words = text.split()
    if not query.identifiers and not query.paths:
        # a lone capitalised word reads as a type name (``Workspace``); a lone lowercase word does not
        return 0.65 if len(words) == 1 and re.fullmatch(r"[A-Z][a-z0-9]{2,}", text) else 0.0
    if len(words) == 1:
        return 0.80
    return 0.70 if len(words) <= 4 else 0.60
