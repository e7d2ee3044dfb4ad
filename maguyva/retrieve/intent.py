"""Intent classification: ordered heuristics, first match wins (SPEC §8).

Cheap on purpose — it runs on every query's critical path. The weights per intent are the
hand-chosen priors of the design, not learned values.
"""

from __future__ import annotations

import errno
import re
from dataclasses import dataclass

from maguyva.retrieve.query import is_question, parse

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

_DECLARATION = re.compile(
    r"^\s*(def|class|func|fn|function|import|from|interface|struct|enum|trait|type|module|package|const|var|"
    r"let|impl|namespace|public|private|protected)\s+\S",
    re.I,
)
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
_QUOTED = re.compile(r"\"[^\"\n]+\"|'[^'\n]{2,}'|`[^`\n]+`")  # single-line only: never across a fence
QUOTED_SHARE = 0.6  # the quoted-string rule fires only when the quoted part is most of the query
_ERRNO = "|".join(sorted(errno.errorcode.values(), key=len, reverse=True))  # ENOENT, EACCES … (not EDITOR)
_ERROR_TOKEN = re.compile(
    r"(?i:\b(traceback|exception|errno|stack\s*trace|segfault)\b|\b(error|panic|fatal):)"
    rf"|\b({_ERRNO})\b|\b[A-Z][a-zA-Z]+(Error|Exception)\b"
)
_SIMILAR = re.compile(
    r"\b(similar\s+to|like\s+this|same\s+as|resembl\w*|analogous|other\s+places\s+that)\b", re.I
)
_CAMEL = re.compile(r"\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b[A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*\b")
_SNAKE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")
_DOTTED = re.compile(r"\b[A-Za-z_]\w*(\.[A-Za-z_]\w*)+\(?\)?")
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


def classify(query: str) -> Intent:
    """Classify a query into one of six intents with a confidence (first matching rule wins).

    A long text (an issue, a task, a paragraph, anything with a code fence or a traceback)
    describes a task: it is never a literal lookup and never takes the fast path.
    """
    text = query.strip()
    parsed = parse(text)
    if parsed.is_task:
        return Intent("understand_code", 0.50, "task text")
    if _DECLARATION.match(text):
        return Intent("find_definition", 0.95, "declaration keyword")
    if _REFERENCES.search(text):
        return Intent("find_references", 0.90, "references phrase")
    if _IMPACT.search(text):
        return Intent("impact_analysis", 0.90, "impact phrase")
    question = is_question(text)  # "how are error handlers looked up for an exception" is no lookup
    if _QUOTED.search(text) and parsed.quoted_share >= QUOTED_SHARE:
        return Intent("exact_match", 0.90, "quoted string")
    if _ERROR_TOKEN.search(text) and not question:
        return Intent("exact_match", 0.85, "error token")
    if _SIMILAR.search(text):
        return Intent("find_similar", 0.80, "similarity phrase")
    identifier = _identifier_confidence(text)
    if identifier:
        return Intent("find_definition", identifier, "identifier")
    if _UNDERSTAND.search(text):
        return Intent("understand_code", 0.75, "question word")
    return Intent("understand_code", 0.40, "default")


def _identifier_confidence(text: str) -> float:
    """0.80 for a lone identifier, 0.70 for one inside a short phrase, 0.60 in a longer one."""
    words = text.split()
    has_identifier = bool(_CAMEL.search(text) or _SNAKE.search(text) or _DOTTED.search(text))
    if not has_identifier:
        # a lone capitalised word reads as a type name (``Workspace``); a lone lowercase word does not
        return 0.65 if len(words) == 1 and re.fullmatch(r"[A-Z][a-z0-9]{2,}", text) else 0.0
    if len(words) == 1:
        return 0.80
    return 0.70 if len(words) <= 4 else 0.60


_OBJECT = re.compile(
    r"\b(?:who\s+calls|callers?\s+of|usages?\s+of|uses\s+of|references?\s+to|invocations?\s+of|"
    r"(?:who|what)\s+(?:uses|imports|calls)|importers?\s+of|"
    r"what\s+depends\s+on|dependents\s+of|impact\s+of(?:\s+changing)?|blast\s+radius\s+of|"
    r"where\s+is|definition\s+of|affected\s+by)\s+`?([A-Za-z_][\w.:/-]*)",
    re.I,
)


def extract_terms(query: str) -> list[str]:
    """The identifiers and quoted literals a query names, most specific first."""
    quoted = [q.strip("\"'`") for q in _QUOTED.findall(query)]
    quoted += [
        m.group(1).rstrip(".:") for m in _OBJECT.finditer(query) if m.group(1).lower() not in ("the", "a")
    ]
    quoted += [
        m.group(0).rstrip(":")
        for m in _ERROR_TOKEN.finditer(query)
        if m.group(0)[0].isupper()
        and not m.group(0).lower().startswith(("traceback", "exception", "error", "panic", "fatal"))
    ]
    identifiers = [m.group(0).rstrip("()") for m in _DOTTED.finditer(query)]
    identifiers += [m.group(0) for m in _CAMEL.finditer(query)]
    identifiers += _SNAKE.findall(query)
    if _DECLARATION.match(query):
        declared = re.sub(r"^\s*\w+\s+", "", query).strip()
        identifiers.insert(0, re.split(r"[\s(:<{]", declared, maxsplit=1)[0])
    seen: dict[str, None] = {}
    for term in quoted + identifiers:
        if term and term not in seen:
            seen[term] = None
    return list(seen)
