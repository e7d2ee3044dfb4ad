"""Text and definition listings over one repository's store: ``search_text`` (trigram literal or regex)
and ``search_structure`` (definitions by kind, name glob and signature text).

``search_text_json`` builds ``search_text``'s JSON without the answer model (``maguyva grep`` prints it
without importing pydantic; tests/maguyva/test_answer_json.py checks it is the model's JSON).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from maguyva.answer_json import bound_json, hit_dict
from maguyva.errors import MaguyvaError
from maguyva.retrieve import structure

if TYPE_CHECKING:
    from maguyva.answers import StructureAnswer
    from maguyva.store.base import Store

MAX_FILTER_CHARS = 2_000  # a search_structure filter (as a regex pattern: maguyva.retrieve.safe_regex)


def search_text_json(
    store: Store,
    pattern: str,
    *,
    regex: bool,
    case_sensitive: bool,
    path_prefix: str | None,
    limit: int,
    max_tokens: int,
) -> dict:
    """``search_text``'s answer as its JSON: one hit per matching line."""
    from maguyva.retrieve import text

    stopped = None
    if regex:
        found = text.regex(store, pattern, limit=limit * 4, case_sensitive=case_sensitive)
        hits, stopped = found.hits, found.stopped
    else:
        hits = text.literal(store, pattern, limit=limit * 4)
        if case_sensitive:
            hits = [h for h in hits if pattern in h.snippet]
    if path_prefix:
        hits = [h for h in hits if h.path.startswith(path_prefix)]
    answer = {
        **({"truncated": True, "truncation_note": stopped} if stopped else {}),
        "pattern": pattern,
        "regex": regex,
        "count": len(hits[:limit]),
        "results": [hit_dict(h) for h in hits[:limit]],
    }
    return bound_json(answer, "results", max_tokens)


def search_structure(
    store: Store,
    *,
    kind: str | None,
    name: str | None,
    signature_contains: str | None,
    path_prefix: str | None,
    limit: int,
) -> StructureAnswer:
    """Definitions filtered by kind, name (glob, e.g. ``parse_*``) and signature text."""
    from maguyva.answers import StructureAnswer

    if not (kind or name or signature_contains):
        raise MaguyvaError("give at least one of kind, name, signature_contains")
    filters = {
        "kind": kind,
        "name": name,
        "signature_contains": signature_contains,
        "path_prefix": path_prefix,
    }
    for field_name, value in filters.items():  # SQLite refuses LIKE/GLOB patterns over 50,000 bytes
        if value is not None and len(value) > MAX_FILTER_CHARS:
            raise MaguyvaError(
                f"{field_name} is {len(value)} characters, the limit is {MAX_FILTER_CHARS}; shorten it"
            )
    symbols = store.query_symbols(
        kind=kind, name_glob=name, signature_like=signature_contains, path_prefix=path_prefix, limit=limit
    )
    return StructureAnswer(
        count=len(symbols),
        results=[hit_dict(structure.symbol_hit(s, 1.0), signature=s.signature) for s in symbols],
    )
