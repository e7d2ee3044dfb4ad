"""Routing and weighted Reciprocal Rank Fusion (SPEC §8); pure functions over ranked hit lists.

contribution = weight × boost × 1 / (k + rank + 1), summed over the modalities that found a
file; boost = min(1 + 0.3·ln(1 + centrality), 1.5); vendor/build/archive/generated paths are
demoted; the best chunk per file represents it; ties break on path then line.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from maguyva.retrieve.hits import MODALITIES, Hit
from maguyva.retrieve.intent import FAST_PATH_CONFIDENCE, Intent

PRESETS = ("quick", "default", "thorough")
RRF_K = {"quick": 40, "default": 40, "thorough": 60}
DEMOTION = 0.35
BOOST_CAP = 1.5
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class FusedHit:
    """A hit after fusion, with the modalities that found it and their ranks."""

    hit: Hit
    score: float
    ranks: dict[str, int] = field(default_factory=dict)  # modality -> 0-based rank
    boost: float = 1.0
    demoted: bool = False


@dataclass(frozen=True, slots=True)
class Route:
    """Which retrievers to run, with which weights, and how to combine them."""

    strategy: str  # "direct" | "rrf"
    weights: dict[str, float]  # modality -> weight (only modalities that will run)
    k: int
    notes: tuple[str, ...] = field(default=())


def plan_route(
    intent: Intent,
    *,
    preset: str = "default",
    available: Iterable[str] = MODALITIES,
    modalities: Sequence[str] | None = None,
) -> Route:
    """Decide the route for a query.

    - quick: semantic only (text when no embeddings exist);
    - default: the three modalities with the highest weight for the intent;
    - thorough: all four, k = 60;
    - explicit ``modalities`` override the preset (weights still come from the intent);
    - confidence ≥ 0.85 with no explicit choice → the dominant modality alone ("direct").
    A modality that is not available (no embeddings) has its weight redistributed over the rest.
    """
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r} (choose one of {', '.join(PRESETS)})")
    usable = [m for m in MODALITIES if m in set(available)]
    weights = dict(intent.weights)
    notes: list[str] = []
    k = RRF_K[preset]
    if modalities:
        unknown = sorted(set(modalities) - set(MODALITIES))
        if unknown:
            raise ValueError(f"unknown modality {unknown[0]!r} (choose from {', '.join(MODALITIES)})")
        chosen = [m for m in MODALITIES if m in modalities]
    elif preset == "quick":
        chosen = ["semantic"] if "semantic" in usable else ["text"]
    elif intent.confidence >= FAST_PATH_CONFIDENCE and intent.dominant in usable:
        return Route(
            "direct",
            {intent.dominant: 1.0},
            k,
            (f"fast path: {intent.name} at confidence {intent.confidence:.2f}",),
        )
    elif preset == "thorough":
        chosen = list(MODALITIES)
    else:
        ranked = sorted(MODALITIES, key=lambda m: (-weights[m], MODALITIES.index(m)))
        missing = [m for m in ranked[:3] if m not in usable]
        chosen = [m for m in ranked if m in usable][:3] + missing
    missing = [m for m in chosen if m not in usable]
    for m in missing:
        notes.append(
            f"{m} modality unavailable"
            + (" (no embeddings in the index)" if m == "semantic" else "")
            + "; its weight was redistributed"
        )
    running = [m for m in chosen if m in usable] or ["text"]
    total = sum(weights[m] for m in running)
    if total <= 0:  # e.g. exact_match restricted to semantic: fall back to equal weights
        normalised = {m: 1.0 / len(running) for m in running}
    else:
        normalised = {m: weights[m] / total for m in running}
    normalised = {m: w for m, w in normalised.items() if w > 0} or {running[0]: 1.0}
    strategy = "direct" if len(normalised) == 1 else "rrf"
    return Route(strategy, normalised, k, tuple(notes))


def importance_boost(centrality: float) -> float:
    """min(1 + 0.3·ln(1 + centrality), 1.5); centrality is scaled so the median file is ~1."""
    return min(1.0 + 0.3 * math.log1p(max(centrality, 0.0)), BOOST_CAP)


def fuse(
    ranked: Mapping[str, Sequence[Hit]],
    route: Route,
    *,
    centrality: Callable[[Hit], float] = lambda hit: 0.0,
    demoted: Callable[[Hit], bool] = lambda hit: False,
    limit: int = 10,
) -> list[FusedHit]:
    """Combine per-modality ranked lists with weighted RRF; one entry (the best chunk) per file."""
    scores: dict[str, float] = {}
    ranks: dict[str, dict[str, int]] = {}
    best: dict[str, tuple[float, Hit]] = {}
    boosts: dict[str, float] = {}
    flags: dict[str, bool] = {}
    for modality, hits in ranked.items():
        weight = route.weights.get(modality, 0.0)
        if weight <= 0:
            continue
        seen_in_modality: set[str] = set()
        for rank, hit in enumerate(hits):
            key = _key(hit)
            boost = importance_boost(centrality(hit))
            contribution = weight * boost / (route.k + rank + 1)
            if key not in seen_in_modality:  # a file counts once per modality, at its best rank
                seen_in_modality.add(key)
                scores[key] = scores.get(key, 0.0) + contribution
                ranks.setdefault(key, {})[modality] = rank
            current = best.get(key)
            if (
                current is None
                or contribution > current[0]
                or (contribution == current[0] and (hit.line, hit.path) < (current[1].line, current[1].path))
            ):
                best[key] = (contribution, hit)
                boosts[key] = boost
    for key, (_, hit) in best.items():
        flags[key] = demoted(hit)
        if flags[key]:
            scores[key] *= DEMOTION
    fused = [
        FusedHit(best[key][1], round(scores[key], 8), ranks[key], boosts[key], flags[key]) for key in scores
    ]
    fused.sort(key=lambda f: (-f.score, f.hit.repo, f.hit.path, f.hit.line))
    return fused[:limit]


def _key(hit: Hit) -> str:
    return f"{hit.repo}\0{hit.path}"


def direct(
    hits: Sequence[Hit], *, demoted: Callable[[Hit], bool] = lambda hit: False, limit: int = 10
) -> list[FusedHit]:
    """The fast path: one modality's ranking, demotions applied, original order otherwise kept."""
    kept = [h for h in hits if not demoted(h)] + [h for h in hits if demoted(h)]
    return [FusedHit(h, h.score, {h.modality: i}, 1.0, demoted(h)) for i, h in enumerate(kept[:limit])]


def fuse_lists(
    lists: Sequence[Sequence[T]], *, k: int = RRF_K["default"], limit: int | None = None
) -> list[T]:
    """Reciprocal Rank Fusion of ranked lists whose scores are not comparable (one list per repository).

    An entry at 0-based rank ``r`` of a list scores 1 / (k + r + 1); entries are distinct across
    lists, so the fused order interleaves the lists by rank, earlier lists first on a tie.
    """
    scored = [
        (1.0 / (k + rank + 1), -which, -rank, entry)
        for which, entries in enumerate(lists)
        for rank, entry in enumerate(entries)
    ]
    scored.sort(key=lambda row: row[:3], reverse=True)
    fused = [row[3] for row in scored]
    return fused if limit is None else fused[:limit]
