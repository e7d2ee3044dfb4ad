"""How Maguyva answers: hits as JSON-ready dicts, and answers bounded to a token budget."""

from __future__ import annotations

import json
from typing import Any

from maguyva.retrieve.hits import Hit

DEFAULT_TOKENS = 8_000
MAX_TOKENS = 25_000


def estimate_tokens(value: Any) -> int:
    """Tokens an answer costs a model: ~4 characters per token of its JSON."""
    return len(json.dumps(value, ensure_ascii=False)) // 4


def hit_dict(hit: Hit, **extra: Any) -> dict:
    data = {"citation": hit.citation, "path": hit.path, "line": hit.line, "end_line": hit.end_line,
            "symbol": hit.symbol, "kind": hit.kind, "snippet": hit.snippet, "score": round(hit.score, 6),
            "modality": hit.modality}
    if hit.repo:
        data["repo"] = hit.repo
    data.update(extra)
    return data


def bound(answer: dict, key: str, max_tokens: int) -> dict:
    """Drop trailing entries of ``answer[key]`` until the answer fits ``max_tokens``; say so."""
    budget = max(200, min(max_tokens, MAX_TOKENS))
    items = answer[key]
    if estimate_tokens(answer) <= budget:
        return answer
    kept = list(items)
    while kept and estimate_tokens({**answer, key: kept}) > budget:
        kept.pop()
    dropped = len(items) - len(kept)
    return {**answer, key: kept, "truncated": True,
            "truncation_note": f"{dropped} more result(s) omitted to stay within {budget} tokens; "
                               f"narrow the query or raise max_tokens"}
