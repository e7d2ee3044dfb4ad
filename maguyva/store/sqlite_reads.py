"""The SQLite index's reads: the file states a scan compares, the resolution view an incremental
run resolves against (``maguyva.index.definitions``), retrieval (symbols, edges, literal and BM25
search, centrality) and batched reads (a JSON array parameter: one statement whatever the number
of keys). A mixin of ``SQLiteStore``, which owns the connection; it writes nothing."""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Iterable, Iterator
from operator import attrgetter
from typing import TYPE_CHECKING

from maguyva import models  # each record's module is imported by the first read that builds one
from maguyva.store.base import FileState, Span
from maguyva.store.filetext import gram_query, unpack_text
from maguyva.store.lines import matching_lines, prefilter, split_lines
from maguyva.store.rows import EDGE_COLUMNS, SYMBOL_COLUMNS, symbol_from_row
from maguyva.store.sqlite_names import IMPORT_ID
from maguyva.store.sqlite_rows import FILE as _FILE
from maguyva.store.sqlite_rows import NAME as _NAME
from maguyva.store.sqlite_rows import NAMES as _NAMES
from maguyva.store.sqlite_rows import RESOLVED as _RESOLVED

if TYPE_CHECKING:
    from maguyva.models import Edge, FileRecord, Reference, Symbol
    from maguyva.store.values import Centrality, LanguageStats, Snapshot

_MAX_VARS = 500
_new = tuple.__new__
_CENTRALITY_COLUMNS = "path, symbol, pagerank, in_degree, out_degree"
_SYMBOL_COLUMNS_S = ", ".join(f"s.{c}" for c in SYMBOL_COLUMNS.split(", "))


class SQLiteReads:
    """Every read of ``SQLiteStore`` (its ``db`` connection)."""

    db: sqlite3.Connection

    def file_states(self):
        return {
            p: (s, m, h) for p, s, m, h in self.db.execute("SELECT path, size, mtime_ns, hash FROM files")
        }

    def known_files(self):
        return self._known_files("", ())

    def _known_files(self, where: str, args: list[str] | tuple[()]) -> dict[str, FileState]:
        split: dict[str, tuple[str, ...]] = {}  # a few distinct flag strings across thousands of files
        # ``tuple.__new__``: the NamedTuple's own ``__new__`` is a Python call, 4x the cost of a row
        return {
            p: _new(
                FileState,
                (
                    size,
                    mtime_ns,
                    digest,
                    language,
                    split.get(flags) or split.setdefault(flags, tuple(f for f in flags.split(",") if f)),
                ),
            )
            for p, size, mtime_ns, digest, language, flags in self.db.execute(
                "SELECT path, size, mtime_ns, hash, language, flags FROM files" + where, args
            )
        }

    def known_files_of(self, paths):
        found: dict[str, FileState] = {}
        for batch in _batches(sorted(set(paths))):
            found.update(self._known_files(f" WHERE path IN ({_marks(batch)})", batch))
        return found

    # ---- resolution view ----
    def known_paths(self):
        return dict(self.db.execute("SELECT path, language FROM files"))

    def symbols_named(self, name: str):
        return self._symbols("name = ? ORDER BY file, seq", (name,))

    def symbols_in(self, path: str):
        return self._symbols(f"file = {_FILE} ORDER BY seq", (path,))

    def symbols_qualified(self, qualified_name: str):
        return self._symbols(f"qualified_id = {_NAME} ORDER BY file, seq", (qualified_name,))

    def references_in(self, path: str):
        return self._references(f"r.file = {_FILE}", (path,))

    def _references(self, clause: str, args) -> list[Reference]:
        """The references matching ``clause`` (on ``refs r``) ordered by path, line, col, kind, name and
        insertion. SQLite sorts by path, line, col and insertion (one join, to ``files``); the strings
        are looked up once each; the rare references sharing a place are then ordered by kind and name."""
        rows = self.db.execute(
            "SELECT f.path, r.name_id, r.kind_id, r.line, r.col, r.qualifier_id, r.scope_id, r.module_id,"
            f" r.alias_id FROM refs r JOIN files f ON f.id = r.file WHERE {clause}"
            " ORDER BY f.path, r.line, r.col, r.file, r.seq",
            args,
        ).fetchall()
        text = self._texts({i for r in rows for i in (r[1], r[2], r[5], r[6], r[7], r[8])})
        get = text.get
        found = [
            models.Reference(
                r[0],
                text[r[1]],
                text[r[2]],
                r[3],
                r[4],
                get(r[5], ""),
                get(r[6]),
                get(r[7], ""),
                get(r[8], ""),
            )
            for r in rows
        ]
        return _order_ties(found, attrgetter("path", "line", "col"), attrgetter("kind", "name"))

    def references_named(self, names: Iterable[str]) -> list[Reference]:
        found: list[Reference] = []
        for batch in _batches(sorted(set(names))):  # in batches, sorted per batch: as schema 7 did
            found += self._references(f"r.name_id IN {_NAMES}", (json.dumps(batch),))
        return found

    def edges_named(self, names: Iterable[str]) -> list[Edge]:
        found: list[Edge] = []
        for batch in _batches(sorted(set(names))):
            found += self._edges(f"name_id IN {_NAMES}", (json.dumps(batch),))
        return found

    def paths_importing(self, fragments: Iterable[str]) -> set[str]:
        found: set[str] = set()
        for fragment in set(fragments):
            pattern = "%" + fragment.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            found.update(
                p
                for (p,) in self.db.execute(
                    "SELECT DISTINCT f.path FROM refs r INDEXED BY refs_import JOIN files f ON f.id = r.file"
                    " JOIN names n ON n.id = r.name_id LEFT JOIN names m ON m.id = r.module_id"
                    f" WHERE r.kind_id = {IMPORT_ID} AND"
                    " (coalesce(m.text, '') LIKE ? ESCAPE '\\' OR n.text LIKE ? ESCAPE '\\')",
                    (pattern, pattern),
                )
            )
        return found

    def paths_inheriting_from(self, paths: Iterable[str]) -> set[str]:
        found: set[str] = set()
        for batch in _batches(sorted(set(paths))):
            found.update(
                p
                for (p,) in self.db.execute(
                    f"SELECT DISTINCT src_path FROM edge_rows WHERE kind_id = {_NAME} AND dst_path_id IN {_NAMES}",
                    ("inherits", json.dumps(batch)),
                )
            )
        return found

    def all_edges(self, resolved_only: bool = True):
        return self._edges(f"resolution_id IN {_RESOLVED}" if resolved_only else "1", (), by_id=True)

    # ---- retrieval ----
    def find_symbols(self, name, *, kind=None, qualified=False, prefix=False, limit=50):
        column = "qualified_name" if qualified else "name"
        if prefix:
            clause, args = f"{column} >= ? AND {column} < ?", [name, name + "\U0010ffff"]
        else:
            clause, args = (f"qualified_id = {_NAME}", [name]) if qualified else ("name = ?", [name])
        if kind:
            clause, args = clause + f" AND kind_id = {_NAME}", [*args, kind]
        return self._symbols(clause + " ORDER BY path, line, file, seq LIMIT ?", (*args, limit))

    def query_symbols(self, *, kind=None, name_glob=None, signature_like=None, path_prefix=None, limit=50):
        clauses, args = ["1"], []
        if kind:
            clauses.append(f"kind_id = {_NAME}")
            args.append(kind)
        if name_glob:
            clauses.append("name GLOB ?")
            args.append(name_glob)
        if signature_like:
            clauses.append("instr(lower(signature), lower(?)) > 0")
            args.append(signature_like)
        if path_prefix:
            clauses.append("substr(s.path, 1, ?) = ?")
            args += [len(path_prefix), path_prefix]
        # files first, in path order, so LIMIT stops the walk early; a glob's prefix is searched by name
        tables = "symbol_rows s" if name_glob else "files f CROSS JOIN symbol_rows s ON s.file = f.id"
        rows = self.db.execute(
            f"SELECT {_SYMBOL_COLUMNS_S} FROM {tables} WHERE {' AND '.join(clauses)}"
            " ORDER BY s.path, s.line, s.file, s.seq LIMIT ?",
            (*args, limit),
        )
        return [symbol_from_row(r) for r in rows]

    def edges_out(self, path, symbol=None):
        if symbol is None:
            return self._edges(f"src_path_id = {_NAME}", (path,))
        return self._edges(f"src_path_id = {_NAME} AND src_symbol_id = {_NAME}", (path, symbol))

    def neighbour_files(self, paths):
        found: dict[str, set[str]] = {p: set() for p in paths}
        if not paths:
            return found
        wanted = _json_list(paths)
        rows = self.db.execute(
            f"SELECT src_path, dst_path FROM edge_rows WHERE src_path_id IN {_NAMES} AND dst_path_id IS NOT NULL"
            f" AND dst_path_id != src_path_id UNION SELECT dst_path, src_path FROM edge_rows"
            f" WHERE dst_path_id IN {_NAMES} AND src_path_id != dst_path_id",
            (wanted, wanted),
        )
        for path, other in rows:
            found[path].add(other)
        return found

    def edges_in(self, path=None, symbol=None):
        if symbol is not None and path is not None:
            return self._edges(f"dst_symbol_id = {_NAME} AND dst_path_id = {_NAME}", (symbol, path))
        if symbol is not None:
            return self._edges(f"dst_symbol_id = {_NAME}", (symbol,))
        return self._edges(f"dst_path_id = {_NAME}", (path,))

    def search_literal(self, text: str, limit: int = 50) -> list[Span]:
        if not text:
            return []
        expression = gram_query(prefilter(text))
        if expression is None:  # under three bytes the gram index cannot help: check every file
            rows = self.db.execute("SELECT path, id FROM files ORDER BY path").fetchall()
        else:  # a superset of the files holding the text; read and checked one by one until ``limit`` lines
            rows = self.db.execute(
                "SELECT f.path, f.id FROM files_grams g JOIN files f ON f.id = g.rowid "
                "WHERE files_grams MATCH ? ORDER BY f.path",
                (expression,),
            ).fetchall()
        spans: list[Span] = []
        folded = text.lower()
        ascii_needle = folded.encode() if folded.isascii() else None
        for path, rowid in rows:
            packed = self.db.execute("SELECT text FROM files_text WHERE id = ?", (rowid,)).fetchone()
            if packed is None:
                continue
            data = zlib.decompress(packed[0])
            if ascii_needle is not None and data.isascii() and ascii_needle not in data.lower():
                continue  # an ASCII file lower-cases the same as bytes: most false candidates end here
            spans += matching_lines(path, data.decode("utf-8", "surrogatepass"), text, limit - len(spans))
            if len(spans) >= limit:
                break
        return spans

    def search_bm25(self, query: str, limit: int = 20) -> list[Span]:
        from maguyva.search_words import search_words  # its word patterns: only BM25 compiles them

        words = search_words(query).split()
        if not words:
            return []
        expression = " OR ".join('"' + w.replace('"', '""') + '"' for w in dict.fromkeys(words))
        rows = self.db.execute(
            "SELECT c.path, c.start_line, c.end_line, c.symbol, bm25(chunks_fts) AS score "
            "FROM chunks_fts JOIN chunk_rows c ON c.id = chunks_fts.rowid "
            "WHERE chunks_fts MATCH ? ORDER BY score LIMIT ?",
            (expression, limit),
        ).fetchall()
        spans = []
        for path, start, end, symbol, score in rows:
            text = self.file_text(path) or ""
            body = "\n".join(split_lines(text)[start - 1 : end])
            spans.append(Span(path=path, line=start, end_line=end, text=body, score=-score, symbol=symbol))
        return spans

    def file_text(self, path: str) -> str | None:
        row = self.db.execute(
            "SELECT t.text FROM files_text t JOIN files f ON f.id = t.id WHERE f.path = ?", (path,)
        ).fetchone()
        return unpack_text(row[0]) if row else None

    def file_record(self, path: str) -> FileRecord | None:
        row = self.db.execute(
            "SELECT path, language, size, hash, flags FROM files WHERE path = ?", (path,)
        ).fetchone()
        if row is None:
            return None
        return models.FileRecord(
            path=row[0],
            language=row[1],
            size=row[2],
            content_hash=row[3],
            flags=tuple(f for f in row[4].split(",") if f),
        )

    # ---- batched reads: a JSON array parameter, so one statement whatever the number of keys ----
    def file_records(self, paths):
        rows = self.db.execute(
            "SELECT path, language, size, hash, flags FROM files "
            "WHERE path IN (SELECT value FROM json_each(?))",
            (_json_list(paths),),
        )
        return {
            r[0]: models.FileRecord(
                path=r[0],
                language=r[1],
                size=r[2],
                content_hash=r[3],
                flags=tuple(f for f in r[4].split(",") if f),
            )
            for r in rows
        }

    def file_texts(self, paths):
        rows = self.db.execute(
            "SELECT f.path, t.text FROM files f JOIN files_text t ON t.id = f.id "
            "WHERE f.path IN (SELECT value FROM json_each(?))",
            (_json_list(paths),),
        )
        return {path: unpack_text(packed) for path, packed in rows}

    def symbols_in_paths(self, paths):
        wanted = list(dict.fromkeys(paths))
        found: dict[str, list[Symbol]] = {p: [] for p in wanted}
        for symbol in self._symbols(
            "file IN (SELECT f.id FROM json_each(?) j JOIN files f ON f.path = j.value) ORDER BY file, seq",
            (json.dumps(wanted),),
        ):
            found[symbol.path].append(symbol)
        return found

    def centralities(self, keys):
        wanted = [[path, symbol or ""] for path, symbol in dict.fromkeys(keys)]
        rows = self.db.execute(
            "SELECT p.text, s.text, c.pagerank, c.in_degree, c.out_degree FROM json_each(?) k "
            "CROSS JOIN names p CROSS JOIN names s CROSS JOIN centrality c "
            "WHERE p.hash = name_hash(k.value ->> 0) AND p.text = k.value ->> 0 "
            "AND s.hash = name_hash(k.value ->> 1) AND s.text = k.value ->> 1 "
            "AND c.path_id = p.id AND c.symbol_id = s.id",
            (json.dumps(wanted),),
        )
        return {(row[0], row[1] or None): _centrality(row) for row in rows}

    def snapshot(self) -> Snapshot | None:
        row = self.db.execute(
            "SELECT commit_sha, created_at, dirty FROM snapshots ORDER BY id DESC LIMIT 1"
        ).fetchone()
        from maguyva.store.values import Snapshot

        return Snapshot(row[0], row[1], tuple(json.loads(row[2]))) if row else None

    def centrality(self, path, symbol=None):
        row = self.db.execute(
            f"SELECT {_CENTRALITY_COLUMNS} FROM centrality_rows WHERE path_id = {_NAME} AND symbol_id = {_NAME}",
            (path, symbol or ""),
        ).fetchone()
        return _centrality(row) if row else None

    def top_central(self, limit=20, files=False):
        clause = f"symbol_id {'=' if files else '!='} {_NAME}"
        args: tuple = ("",)
        if limit > 0:  # the limit-th best pagerank bounds the rows joined to their names (ties included)
            clause += (
                f" AND pagerank >= coalesce((SELECT pagerank FROM centrality WHERE {clause}"
                " ORDER BY pagerank DESC LIMIT 1 OFFSET ?), -1e308)"
            )
            args = ("", "", limit - 1)
        rows = self.db.execute(
            f"SELECT {_CENTRALITY_COLUMNS} FROM centrality_rows WHERE {clause}"
            " ORDER BY pagerank DESC, path, symbol LIMIT ?",
            (*args, limit),
        )
        return [_centrality(row) for row in rows]

    def language_stats(self) -> list[LanguageStats]:
        rows = self.db.execute(
            "SELECT coalesce(language, 'text'), count(*), sum(n_symbols), sum(n_edges)"
            " FROM files GROUP BY 1 ORDER BY 2 DESC, 1"
        )
        from maguyva.store.values import LanguageStats

        return [LanguageStats(*row) for row in rows]

    # ---- helpers ----
    def _symbols(self, clause: str, args) -> list[Symbol]:
        rows = self.db.execute(f"SELECT {SYMBOL_COLUMNS} FROM symbol_rows WHERE {clause}", args)
        return [symbol_from_row(r) for r in rows]

    def _edges(self, clause: str, args, by_id: bool = False) -> list[Edge]:
        """The edges matching ``clause`` (on the ``edge_rows`` view) by source path, line and insertion
        (or by insertion only). Joined row by row: as fast as looking each string up once, here."""
        rows = self.db.execute(
            f"SELECT {EDGE_COLUMNS} FROM edge_rows WHERE {clause} ORDER BY "
            + ("id" if by_id else "src_path, src_line, id"),
            args,
        )
        return [models.Edge(*row) for row in rows]

    def _texts(self, ids: set) -> dict[int, str]:
        """id → text of ``names`` (None, a NULL column, is left out)."""
        ids.discard(None)
        return dict(
            self.db.execute(
                "SELECT n.id, n.text FROM json_each(?) j JOIN names n ON n.id = j.value",
                (json.dumps(sorted(ids)),),
            )
        )


def _order_ties(rows: list, place, tie) -> list:
    """``rows`` (sorted by ``place`` and insertion) with each run of equal places sorted by ``tie``."""
    places = list(map(place, rows))
    out: list = []
    start = 0
    for i in range(1, len(rows) + 1):
        if i == len(rows) or places[i] != places[start]:
            out += sorted(rows[start:i], key=tie) if i - start > 1 else rows[start:i]  # stable
            start = i
    return out


def _centrality(row) -> Centrality:
    from maguyva.store.values import Centrality  # a dict lookup once imported; grep never pays for it

    return Centrality(
        path=row[0], symbol=row[1] or None, pagerank=row[2], in_degree=row[3], out_degree=row[4]
    )


def _marks(batch) -> str:
    return ",".join("?" * len(batch))


def _batches(items: list) -> Iterator[list]:
    for start in range(0, len(items), _MAX_VARS):
        yield items[start : start + _MAX_VARS]


def _json_list(paths) -> str:
    return json.dumps(list(dict.fromkeys(paths)))
