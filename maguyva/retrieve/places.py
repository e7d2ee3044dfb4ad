"""Which places of a ranked file to cite: the definitions that best answer the question.

The traceback's frames in the file come first, as they are. Every other candidate is a definition
of the file, scored on one scale (each part 0..1):

    place(d) = answer(d)          the definition's own BM25F score for the query (its name,
                                  signature, docstring and comments, and the identifiers and
                                  string literals of the lines it owns), over the file's best
             + W_NAMED · named(d) the query names it (weighted by how specific the name is)
             + W_FOUND · found(d) a routed retriever's hit falls inside it
             + W_LITERAL · literal(d) a pasted message's text is written inside it

A method that matches beats the class around it, because a class owns only its header,
docstring and attributes (``maguyva.retrieve.bm25f.own_lines``); a value (an import binding, a
constant) counts half.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from maguyva.retrieve.hits import Hit
from maguyva.retrieve.query import ParsedQuery, frame_paths, token_set
from maguyva.retrieve.structure import symbol_hit

if TYPE_CHECKING:
    from maguyva.models import Symbol
    from maguyva.store.base import Store

MAX_PLACES = 3  # the best place of a file, and up to two more
W_NAMED = 1.0
W_FOUND = 0.3
W_LITERAL = 2.0
_CONTAINERS = ("class", "interface", "struct", "module", "namespace")


def best_places(
    store: Store,
    path: str,
    named: list[tuple[float, Symbol]],
    found: Hit | None,
    parsed: ParsedQuery,
    words: Mapping[str, float],
    scores: Sequence[float] | None = None,
    literal_lines: Mapping[int, float] | None = None,
) -> list[Hit]:
    """One to ``MAX_PLACES`` hits in ``path``, best first (never empty).

    ``scores`` are the ranker's definition scores of the file, in ``symbols_in`` order (used when
    the file still has that many definitions); without them the definitions' words are compared
    with the query's here. ``literal_lines`` maps a line holding a pasted message's text to how
    much of the message it holds (0..1).
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
    place = _answer_scores(symbols, scores, words)
    top_named = max((value for value, _ in named), default=0.0)
    for value, symbol in named:
        i = _position(symbols, symbol)
        if i is not None:
            bonus = W_NAMED * value / top_named if top_named > 0 else 0.0
            place[i] += bonus * (0.5 if symbol.kind in _CONTAINERS else 1.0)
    loose: list[tuple[float, Hit]] = []  # places inside no definition
    if found is not None:
        inner = _enclosing_index(symbols, found.line)
        if inner is not None:
            place[inner] += W_FOUND
        else:
            loose.append((W_FOUND, found))
    cited_lines: dict[int, int] = {}  # definition → the message's line inside it
    for line, share in sorted((literal_lines or {}).items(), key=lambda ls: (-ls[1], ls[0])):
        inner = _enclosing_index(symbols, line)
        if inner is None:
            loose.append((W_LITERAL * share, Hit(path, line, line, None, "line", "", 1.0, "fusion")))
        elif inner not in cited_lines:
            place[inner] += W_LITERAL * share
            cited_lines[inner] = line
    ranked = sorted(
        [(value, symbol_hit(symbols[i], 1.0, "fusion"), i) for i, value in enumerate(place) if value > 0]
        + [(value, hit, None) for value, hit in loose],
        key=lambda v: (-v[0], v[1].line),
    )
    for _, hit, i in ranked[: MAX_PLACES * 2]:
        if i is not None and i in cited_lines:  # cite the raise/throw that writes the message
            hit = Hit(
                hit.path,
                cited_lines[i],
                symbols[i].end_line,
                hit.symbol,
                hit.kind,
                hit.snippet,
                1.0,
                "fusion",
            )
        chosen.append(hit)
    if not chosen:
        chosen.append(
            Hit(path, 1, min(60, max(1, len(symbols) and symbols[0].line)), None, "file", path, 1.0, "fusion")
        )
    unique: dict[tuple[int, str | None], Hit] = {}
    for hit in chosen:
        unique.setdefault((hit.line, hit.symbol), hit)
    return list(unique.values())[:MAX_PLACES]


def _answer_scores(symbols: list[Symbol], scores: Sequence[float] | None, words: Mapping[str, float]) -> list:
    """Each definition's answer score over the file's best (0..1)."""
    if scores is not None and len(scores) == len(symbols):
        raw = [float(v) for v in scores]
    else:
        raw = [_overlap(s, words) for s in symbols]
    top = max(raw, default=0.0)
    return [v / top if top > 0 else 0.0 for v in raw]


def _position(symbols: list[Symbol], symbol: Symbol) -> int | None:
    for i, candidate in enumerate(symbols):
        if candidate.line == symbol.line and candidate.qualified_name == symbol.qualified_name:
            return i
    return None


def _enclosing_index(symbols: list[Symbol], line: int) -> int | None:
    inside = [i for i, s in enumerate(symbols) if s.line <= line <= s.end_line]
    return min(inside, key=lambda i: symbols[i].end_line - symbols[i].line) if inside else None


def _enclosing(symbols: list[Symbol], line: int) -> Symbol | None:
    i = _enclosing_index(symbols, line)
    return symbols[i] if i is not None else None


def _overlap(symbol: Symbol, words: Mapping[str, float]) -> float:
    own = token_set(f"{symbol.qualified_name} {symbol.doc}")
    return sum(words.get(t, 0.0) for t in own)
