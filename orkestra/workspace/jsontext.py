"""The JSON reader for repository content (``.claude/settings.json``, the sync manifest and journal, the
inspect cache, ``package.json``): ``json.loads``, except that nesting deep enough to exhaust the
interpreter's stack (``[[[[…`` 100,000 deep, a few hundred kilobytes) is a ``ValueError`` its callers
already report, not a ``RecursionError`` traceback."""

from __future__ import annotations

import json

TYPE_CHECKING = False  # typing is not imported: the inspect cache's hit path reads JSON through here
if TYPE_CHECKING:
    from typing import Any


def loads(data: str | bytes) -> Any:
    try:
        return json.loads(data)
    except RecursionError:
        raise ValueError("JSON nested too deeply to read") from None
