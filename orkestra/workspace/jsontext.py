"""The JSON reader for repository content (``.claude/settings.json``, the sync manifest and journal, the
inspect cache, ``package.json``): ``json.loads``, except that what would only fail later is refused
here as a ``ValueError`` its callers already report: nesting deep enough to exhaust the interpreter's
stack (``[[[[…`` 100,000 deep, a few hundred kilobytes), and a ``\\ud800`` escape (a lone surrogate,
which no UTF-8 file can hold: writing it back raised ``UnicodeEncodeError``)."""

from __future__ import annotations

import json
import re

TYPE_CHECKING = False  # typing is not imported: the inspect cache's hit path reads JSON through here
if TYPE_CHECKING:
    from typing import Any

_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")  # only then is the decoded value checked


def loads(data: str | bytes) -> Any:
    try:
        value = json.loads(data)
    except RecursionError:
        raise ValueError("JSON nested too deeply to read") from None
    text = data if isinstance(data, str) else data.decode("utf-8", "replace")
    if _SURROGATE_ESCAPE.search(text):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ValueError(
                f"a lone surrogate ({exc.object[exc.start]!r}) in a string is not text"
            ) from None
    return value
