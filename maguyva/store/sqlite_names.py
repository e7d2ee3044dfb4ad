"""The SQLite store's string table: each distinct path, name, kind or reason once, rows hold its id.

``Names`` caches text → id for the writes of one transaction. The cache starts empty with every
write transaction (another process may have rewritten the table since, and a rolled-back one
may have dropped ids the cache handed out); after ``clear`` the table is empty, so the cache is
all of it, and so it is after ``load`` (a clean run's bulk load): a clean run never asks SQLite
whether a string is already there. A complete cache hands out ids as rows ask for them
(``lookup``: a dict whose misses take the next id), so a clean run's rows are numbered in one pass,
with no set of their strings first (stdlib: ~1 s of the parent's CPU); ``flush`` then stores the
new strings. The cache maps None to None (a NULL column).

Strings no row holds any more are deleted by ``settle`` at a commit, once enough are new.

A string is found by ``name_hash`` (a SQL function every store connection registers) and then by
its text. The commonest strings are stored first (``SEED``): ids under 128 take one byte in a row.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Callable, Iterable

# kinds, resolutions and the empty string: one of them in nearly every row
SEED = (
    "",
    *("calls", "imports", "inherits", "references"),
    *("resolved", "inferred", "external", "ambiguous", "unresolved"),
    *("call", "bind", "return", "import", "inherit", "iterate", "decorate", "arg", "param", "type"),
    *("method", "class", "function", "field", "variable", "constant", "heading", "struct", "interface"),
    *("enum", "trait", "module", "namespace", "symbol", "section", "text"),
)
IMPORT_ID = SEED.index("import") + 1  # fixed by SEED: the schema's partial index of imports names it
# an incremental run never deletes a string in passing (a reason naming candidates' lines changes with
# every edit): once a quarter of the table is new since the last count, a commit drops what no row uses
PRUNE_GROWTH = 0.25
PRUNE_MIN = 10_000
_HASH_BITS = 0x7FFFFF  # 23 bits: three bytes in a record, few collisions among a few 100k strings


def name_hash(text: str | None) -> int | None:
    """The ``names.hash`` of ``text``: CRC-32 of its UTF-8, 23 bits (stable across processes)."""
    if text is None:
        return None
    return zlib.crc32(str(text).encode("utf-8", "surrogatepass")) & _HASH_BITS


def register(db: sqlite3.Connection) -> None:
    db.create_function("name_hash", 1, name_hash, deterministic=True)


class _Ids(dict):
    """text → id; a miss takes the next id when the cache is complete (``Names.lookup``)."""

    __slots__ = ("names",)

    def __missing__(self, text: str) -> int:
        return self.names._allocate(text)


class Names:
    def __init__(self, db: sqlite3.Connection):
        self.db = db
        self.ids: dict[str, int] = self._cache()
        self._complete = False
        self._next = 0
        self._pending: list[tuple[int, str, int]] = []
        self.added = 0
        self._from_seed = False  # loaded when the table held the seed alone: every string since is in use

    def _cache(self, pairs=()) -> _Ids:
        ids = _Ids(pairs)
        ids.names = self
        ids[None] = None
        return ids

    def reset(self, *, empty: bool = False) -> None:
        """Forget the cache (a new transaction), or know the table is ``empty`` (just created): seed it."""
        self.ids = self._cache()
        self._complete = empty
        self._next = 0
        self._pending = []
        self.added = 0
        self._from_seed = False
        if empty:
            self.db.execute("DELETE FROM meta WHERE key = 'names'")  # a fresh table: counted at commit
            self._insert(list(SEED))

    def load(self) -> None:
        """Cache the whole table (a clean run's: the seed), so no string is looked up in SQLite again
        (a bulk load drops ``names_hash``; a lookup without it would scan the table)."""
        self.flush()
        self.ids = self._cache(self.db.execute("SELECT text, id FROM names"))
        self._complete = True
        # (read now, not from ``_allocate`` in the middle of an ``executemany`` that asks for ids)
        self._next = self._first_free()
        self._from_seed = self._next == len(SEED) + 1

    def lookup(self, texts: Callable[[], Iterable[str | None]]) -> dict[str, int]:
        """text → id for rows whose strings are ``texts()``. A complete cache skips them: each
        ``[text]`` it is asked for takes an id then (``flush`` after the rows are written)."""
        return self.ids if self._complete else self.intern(texts())

    def intern(self, texts: Iterable[str | None]) -> dict[str, int]:
        """Make sure every string of ``texts`` (None is skipped) has an id; return text → id."""
        ids = self.ids
        # ``set.difference(dict)`` probes the dict in C (``- ids.keys()`` would copy the keys, and a
        # comprehension runs Python per string: on the stdlib ~2x slower)
        missing = (texts if isinstance(texts, set) else set(texts)).difference(ids)
        if not missing:
            return ids
        if not self._complete:
            for text, key in self.db.execute(
                "SELECT n.text, n.id FROM json_each(?) j JOIN names n"
                " ON n.hash = name_hash(j.value) AND n.text = j.value",
                (json.dumps(sorted(missing)),),
            ):
                ids[text] = key
                missing.discard(text)
            if not missing:
                return ids
        self._insert(sorted(missing))
        return ids

    def _allocate(self, text: str) -> int:
        if not self._complete:
            raise KeyError(text)  # not interned first: a bug, not a new string
        if not self._next:
            self._next = self._first_free()
        key = self._next
        self._next += 1
        self.ids[text] = key
        self._pending.append((key, text, name_hash(text)))
        return key

    def _first_free(self) -> int:
        return self.db.execute("SELECT coalesce(max(id), 0) + 1 FROM names").fetchone()[0]

    def flush(self) -> None:
        """Store the strings ``lookup``'s cache numbered since the last flush."""
        if self._pending:
            rows, self._pending = self._pending, []
            self.added += len(rows)
            self.db.executemany("INSERT INTO names (id, text, hash) VALUES (?, ?, ?)", rows)

    def _insert(self, texts: list[str]) -> None:
        self.flush()
        if not self._next:
            self._next = self._first_free()
        rows = [(key, text, name_hash(text)) for key, text in enumerate(texts, self._next)]
        self._next += len(rows)
        self.added += len(rows)
        self.db.executemany("INSERT INTO names (id, text, hash) VALUES (?, ?, ?)", rows)
        self.ids.update((text, key) for key, text, _ in rows)

    def settle(self, columns: dict[str, tuple[str, ...]]) -> None:
        """Before a commit: count the strings added since the last count (a fresh table's size is the
        baseline); once they pass a quarter of it, delete the strings no column of ``columns``
        (table → its ``names`` id columns) holds any more, and start counting again.

        A bulk load into a table that held the seed alone (a clean run) has nothing to delete: its
        strings were numbered for the rows it wrote, and it deleted none. Its size is the new baseline
        (the query that finds unused strings reads every id column: 1.1 s on the stdlib)."""
        self.flush()
        if not self.added:
            return
        row = self.db.execute("SELECT value FROM meta WHERE key = 'names'").fetchone()
        state = json.loads(row[0]) if row else None
        if state is not None:
            state["added"] += self.added
        if (
            state is None
            or self._from_seed
            or state["added"] > max(PRUNE_MIN, PRUNE_GROWTH * state["baseline"])
        ):
            if state is not None and not self._from_seed:
                used = " UNION ".join(
                    f"SELECT {c} FROM {table} WHERE {c} IS NOT NULL"
                    for table, cs in columns.items()
                    for c in cs
                )
                self.db.execute(f"DELETE FROM names WHERE id > {len(SEED)} AND id NOT IN ({used})")
            state = {"baseline": self.db.execute("SELECT count(*) FROM names").fetchone()[0], "added": 0}
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('names', ?)", (json.dumps(state),))
        self.reset()
