"""Gap analysis: TF-IDF cosine over name + description + tags between a candidate and existing skills."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from maguyva.retrieve.stopwords import FUNCTION_WORDS

_WORD = re.compile(r"[a-z0-9]+")
STOPWORDS = FUNCTION_WORDS | frozenset(
    [
        "has",
        "have",
        "its",
        "that",
        "use",
        "used",
        "uses",
        "using",
        "you",
        "your",
        "skill",
        "skills",
        "will",
        "can",
        "should",
        "into",
        "over",
        "about",
        "after",
        "before",
        "via",
    ]
)
OVERLAP_THRESHOLD = 0.5  # at or above: the candidate duplicates an existing skill


@dataclass(frozen=True, slots=True)
class Similar:
    name: str
    ref: str
    score: float

    def to_dict(self) -> dict:
        return {"name": self.name, "ref": self.ref, "score": self.score}


def tokens(text: str) -> list[str]:
    """Lowercase word tokens without stopwords; hyphenated names split into words."""
    return [w for w in _WORD.findall(text.lower()) if w not in STOPWORDS and len(w) > 1]


def profile(name: str, description: str, tags: Iterable[str]) -> list[str]:
    """The text a skill is compared on; its name and tags count twice."""
    words = tokens(name.replace("-", " ")) * 2 + tokens(description)
    for tag in tags:
        words += tokens(tag.replace("-", " ")) * 2
    return words


def rank_similar(
    candidate: list[str], corpus: dict[tuple[str, str], list[str]], limit: int = 5
) -> list[Similar]:
    """Existing skills (keyed by (name, ref)) most similar to ``candidate``, best first."""
    documents = [*corpus.values(), candidate]
    frequency = Counter(word for doc in documents for word in set(doc))
    total = len(documents)

    def vector(words: list[str]) -> dict[str, float]:
        counts = Counter(words)
        return {w: c * (math.log((1 + total) / (1 + frequency[w])) + 1) for w, c in counts.items()}

    target = vector(candidate)
    target_norm = math.sqrt(sum(v * v for v in target.values())) or 1.0
    scored = []
    for (name, ref), words in corpus.items():
        other = vector(words)
        dot = sum(value * other.get(word, 0.0) for word, value in target.items())
        norm = math.sqrt(sum(v * v for v in other.values())) or 1.0
        score = round(dot / (target_norm * norm), 3)
        if score > 0:
            scored.append(Similar(name, ref, score))
    scored.sort(key=lambda s: (-s.score, s.name))
    return scored[:limit]
