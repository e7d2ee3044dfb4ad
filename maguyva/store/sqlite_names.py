"""The SQLite store's string table: each distinct path, name, kind or reason once, rows hold its id.

``Names`` caches text → id for the writes of one transaction. The cache starts empty with every
write transaction (another process may have rewritten the table since, and a rolled-back one
may have dropped ids the cache handed out); after ``clear`` the table is empty, so the cache is
all of it and a clean run never asks SQLite whether a string is already there.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable


class Names:
    def __init__(self, db: sqlite3.Connection):
        self.db = db
        self.ids: dict[str, int] = {}
        self._complete = False
        self._next = 0

    def reset(self, *, empty: bool = False) -> None:
        """Forget the cache (a new transaction), or know the table is ``empty`` (just created)."""
        self.ids = {}
        self._complete = empty
        self._next = 1 if empty else 0

    def intern(self, texts: Iterable[str | None]) -> dict[str, int]:
        """Make sure every string of ``texts`` (None is skipped) has an id; return text → id."""
        ids = self.ids
        missing = {t for t in texts if t is not None and t not in ids}
        if not missing:
            return ids
        if not self._complete:
            for text, key in self.db.execute(
                "SELECT text, id FROM names WHERE text IN (SELECT value FROM json_each(?))",
                (json.dumps(sorted(missing)),),
            ):
                ids[text] = key
                missing.discard(text)
            if not missing:
                return ids
        if not self._next:
            self._next = self.db.execute("SELECT coalesce(max(id), 0) + 1 FROM names").fetchone()[0]
        rows = list(enumerate(sorted(missing), self._next))
        self._next += len(rows)
        self.db.executemany("INSERT INTO names (id, text) VALUES (?, ?)", rows)
        ids.update((text, key) for key, text in rows)
        return ids
