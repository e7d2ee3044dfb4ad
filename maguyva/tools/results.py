"""A ranked search's results as the answer's entries: each a ``maguyva.answers.SearchResult`` model.

``file_result`` is one file the file ranker scored, cited at its best place with its further places
under ``more``; ``fused_result`` is one hit of the retrievers' fusion (the fast path, or chosen
modalities).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from maguyva.answer_json import hit_dict

if TYPE_CHECKING:
    from maguyva.answers import SearchResult
    from maguyva.retrieve.bm25f import FileIndex
    from maguyva.retrieve.fuse import FusedHit
    from maguyva.retrieve.hits import Hit
    from maguyva.retrieve.query import ParsedQuery
    from maguyva.retrieve.rank import FileScore


def file_result(
    index: FileIndex,
    store: Any,
    scored: FileScore,
    named: list,
    found: Hit | None,
    parsed: ParsedQuery,
    words: dict[str, float],
    literal_lines: dict[int, float] | None = None,
) -> SearchResult:
    """A scored file at its best places (``maguyva.retrieve.places.best_places``): the first cited, the rest
    under ``more``; ``store`` reads its symbols (``maguyva.store.batch.SymbolsOf``)."""
    from maguyva.answers import Place, SearchResult
    from maguyva.retrieve.places import best_places

    chosen = best_places(
        store,
        scored.path,
        named,
        found,
        parsed,
        words,
        scores=index.symbol_scores_of(scored.path),
        literal_lines=literal_lines,
    )
    first, more = chosen[0], chosen[1:]
    return SearchResult(
        **hit_dict(
            first,
            score=round(scored.score, 6),
            found_by=sorted(scored.signals),
            signals=scored.signals,
            demoted=scored.demotion is not None,
            **({"demoted_as": scored.demotion} if scored.demotion else {}),
        ),
        more=[
            Place(citation=h.citation, line=h.line, end_line=h.end_line, symbol=h.symbol, kind=h.kind)
            for h in more
        ],
    )


def fused_result(fused: FusedHit) -> SearchResult:
    """A hit of the retrievers' fusion with its fused score, the retrievers that found it and its boost."""
    from maguyva.answers import SearchResult

    return SearchResult(
        **hit_dict(
            fused.hit,
            score=round(fused.score, 6),
            found_by=sorted(fused.ranks),
            boost=round(fused.boost, 3),
            demoted=fused.demoted,
        )
    )
