"""``gather_task_context``: a retrieval's ranked search for a task, packed as cited snippets into a budget.

One packer for every retrieval (``maguyva.tools.protocol.Retrieval``): one repository's index or a
scope of several, whose fused search and ``result_texts`` it reads through their public methods.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from maguyva.answer_json import MAX_TOKENS, estimate_tokens
from maguyva.store.lines import split_lines

if TYPE_CHECKING:
    from maguyva.answers import ContextAnswer, Place, SearchResult
    from maguyva.tools.protocol import Retrieval

MAX_SNIPPET_LINES = 60


def gather_task_context(retrieval: Retrieval, task: str, token_budget: int) -> ContextAnswer:
    """Ranked, cited snippets for ``task``: every file's best place first, then the files' further places
    while the budget allows; a snippet too long for what is left is cut to its first 8 lines."""
    from maguyva.answers import ContextAnswer, Snippet

    budget = max(300, min(token_budget, MAX_TOKENS))
    found = retrieval.intelligent_search(task, limit=25, preset="thorough", max_tokens=MAX_TOKENS)
    snippets: list[Snippet] = []
    used = estimate_tokens({"task": task, "snippets": []})
    skipped = 0
    places = [(r, r) for r in found.results] + [(r, m) for r in found.results for m in r.get("more", [])]
    texts = retrieval.result_texts(found.results)
    for rank, (result, place) in enumerate(places):
        body = place_text(texts.get(text_key(result), ""), place)
        item = Snippet(
            citation=place.citation,
            symbol=place.symbol,
            kind=place.kind,
            score=result.score,
            text=body,
            **({"repo": result.repo} if "repo" in result else {}),
        )
        cost = estimate_tokens(item)
        if used + cost > budget:
            short = item.model_copy(update={"text": "\n".join(body.splitlines()[:8])})
            cost = estimate_tokens(short)
            if used + cost > budget:
                skipped += rank < len(found.results)
                continue
            item = short
        snippets.append(item)
        used += cost
    return ContextAnswer(
        task=task,
        intent=found.intent,
        token_budget=budget,
        tokens_used=used,
        snippets=snippets,
        omitted=skipped,
    )


def text_key(result: SearchResult) -> tuple[str | None, str]:
    """How ``Retrieval.result_texts`` keys a result's file: (its repository, or None in one index; path)."""
    return (result.repo if "repo" in result else None, result.path)


def place_text(content: str, place: Place, max_lines: int = MAX_SNIPPET_LINES) -> str:
    """The numbered lines of ``place`` in its file's ``content``, at most ``max_lines`` of them."""
    lines = split_lines(content)
    end = min(max(place.end_line, place.line), place.line + max_lines - 1)
    return "\n".join(f"{n}: {lines[n - 1]}" for n in range(place.line, min(end, len(lines)) + 1))
