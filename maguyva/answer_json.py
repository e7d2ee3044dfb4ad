"""Answers as their JSON, built and bounded without the models (and without importing pydantic).

``maguyva.answers`` holds the typed models; this module holds what builds the dicts they
validate: token budgets, ``hit_dict`` and ``bound``. The dicts are built in the models' field
order (a ``Place``'s fields, then a ``Hit``'s, then the subclass's; a bounded answer's
``truncated`` / ``truncation_note`` first, as ``Bounded`` declares them), so the JSON the CLI prints
from a dict (``maguyva grep`` / ``maguyva symbol`` skip the models to start fast) is the JSON of
the model, key for key. tests/maguyva/test_answer_json.py checks that.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

DEFAULT_TOKENS = 8_000
MAX_TOKENS = 25_000
BOUNDED_KEYS = ("truncated", "truncation_note")  # ``Bounded``'s fields: the first of every bounded answer

A = TypeVar("A")


def estimate_tokens(value: Any) -> int:
    """Tokens an answer costs a model: ~4 characters per token of its JSON."""
    if hasattr(value, "model_dump"):
        value = value.model_dump(mode="json")
    return len(json.dumps(value, ensure_ascii=False)) // 4


def hit_dict(hit: Any, **extra: Any) -> dict:
    """A retrieved hit (``maguyva.retrieve.hits.Hit``) as the answers' ``Hit``, plus ``extra`` fields."""
    data = {
        "citation": hit.citation,
        "line": hit.line,
        "end_line": hit.end_line,
        "symbol": hit.symbol,
        "kind": hit.kind,
        **({"repo": hit.repo} if hit.repo else {}),
        "path": hit.path,
        "snippet": hit.snippet,
        "score": round(hit.score, 6),
        "modality": hit.modality,
    }
    data.update(extra)
    return data


def _fit(data: dict, key: str, max_tokens: int) -> tuple[int, str] | None:
    """None when ``data`` fits the budget; else (how many entries of ``key`` to keep, the note saying so)."""
    budget = max(200, min(max_tokens, MAX_TOKENS))
    if estimate_tokens(data) <= budget:
        return None
    items = data[key]
    low, high = 0, len(items)  # the longest prefix that fits (the size grows with the prefix)
    while low < high:
        middle = (low + high + 1) // 2
        if estimate_tokens({**data, key: items[:middle]}) <= budget:
            low = middle
        else:
            high = middle - 1
    dropped = len(items) - low
    note = (
        f"{dropped} more result(s) omitted to stay within {budget} tokens; "
        f"narrow the query or raise max_tokens"
    )
    return low, note


def bound(answer: A, key: str, max_tokens: int) -> A:
    """Drop trailing entries of ``answer.<key>`` until the answer fits ``max_tokens``; say so."""
    cut = _fit(answer.model_dump(mode="json"), key, max_tokens)  # type: ignore[attr-defined]
    if cut is None:
        return answer
    low, note = cut
    return answer.model_copy(  # type: ignore[attr-defined]
        update={key: getattr(answer, key)[:low], "truncated": True, "truncation_note": note}
    )


def bound_json(data: dict, key: str, max_tokens: int) -> dict:
    """``bound`` for an answer's JSON (a dict in the model's field order): the same cut, the same note."""
    cut = _fit(data, key, max_tokens)
    if cut is None:
        return data
    low, note = cut
    rest = {k: v for k, v in data.items() if k not in BOUNDED_KEYS}
    return {"truncated": True, "truncation_note": note, **rest, key: data[key][:low]}
