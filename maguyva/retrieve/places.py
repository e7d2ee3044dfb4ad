"""Which places of a ranked file to cite: the definitions the query named, the traceback's frames,
a retriever's hit, else the definition whose own words best match the query."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from maguyva.retrieve.hits import Hit
from maguyva.retrieve.query import ParsedQuery, frame_paths, token_set
from maguyva.retrieve.structure import symbol_hit

if TYPE_CHECKING:
    from maguyva.models import Symbol
    from maguyva.store.base import Store

MAX_PLACES = 3  # the best place of a file, and up to two more
_CONTAINERS = ("class", "interface", "struct", "module", "namespace")


def best_places(
    store: Store,
    path: str,
    named: list[tuple[float, Symbol]],
    found: Hit | None,
    parsed: ParsedQuery,
    words: Mapping[str, float],
    matched: list[int] | None = None,
    expected: int | None = None,
) -> list[Hit]:
    """One to ``MAX_PLACES`` hits in ``path``, best first (never empty).

    ``matched`` lists the file's definitions by the ranker's symbol score (positions in
    ``symbols_in``, valid when the file still has ``expected`` definitions); without it the
    definitions' words are compared with the query's here.
    """
    symbols = list(store.symbols_in(path))
    chosen: list[Hit] = []
    for frame in reversed(parsed.frames):
        if any(path == c or path.endswith("/" + c) for c in frame_paths(frame)[:6]):
            inner = _enclosing(symbols, frame.line)
            chosen.append(
                symbol_hit(inner, 1.0, "fusion")
                if inner
                else Hit(
                    path, frame.line, frame.line, None, "line", f"{frame.function} (traceback)", 1.0, "fusion"
                )
            )
    for _, symbol in sorted(named, key=lambda vs: (-vs[0], vs[1].kind in _CONTAINERS, vs[1].line)):
        chosen.append(symbol_hit(symbol, 1.0, "fusion"))
    if found is not None:
        chosen.append(found)
    if len(chosen) < MAX_PLACES and matched is not None and expected == len(symbols):
        chosen += [symbol_hit(symbols[i], 1.0, "fusion") for i in matched[:MAX_PLACES]]
    elif len(chosen) < MAX_PLACES:
        overlap = sorted(((_overlap(s, words), s) for s in symbols), key=lambda vs: (-vs[0], vs[1].line))
        chosen += [symbol_hit(s, 1.0, "fusion") for value, s in overlap[:MAX_PLACES] if value > 0]
    if not chosen:
        chosen.append(
            Hit(path, 1, min(60, max(1, len(symbols) and symbols[0].line)), None, "file", path, 1.0, "fusion")
        )
    unique: dict[tuple[int, str | None], Hit] = {}
    for hit in chosen:
        unique.setdefault((hit.line, hit.symbol), hit)
    return list(unique.values())[:MAX_PLACES]


def _enclosing(symbols: list[Symbol], line: int) -> Symbol | None:
    inside = [s for s in symbols if s.line <= line <= s.end_line]
    return min(inside, key=lambda s: s.end_line - s.line) if inside else None


def _overlap(symbol: Symbol, words: Mapping[str, float]) -> float:
    own = token_set(f"{symbol.qualified_name} {symbol.doc}")
    return sum(words.get(t, 0.0) for t in own)
