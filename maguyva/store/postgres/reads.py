"""What resolution and retrieval read from the PostgreSQL store (mixed into ``PostgresStore``).

Each query mirrors the SQLite backend's, ordering ties by insertion (``id``) where SQLite
returns rows in rowid order, so both backends give the same answers in the same order.
"""

from __future__ import annotations

import json

from maguyva.models import Edge, FileRecord, Reference, Symbol
from maguyva.store.base import Span
from maguyva.store.lines import matching_lines, prefilter, split_lines
from maguyva.store.postgres.bm25 import query_terms
from maguyva.store.rows import EDGE_COLUMNS, REF_COLUMNS, SYMBOL_COLUMNS, reference_from_row, symbol_from_row
from maguyva.store.values import Centrality, LanguageStats, Snapshot

# FTS5's bm25() with k1 = 1.2, b = 0.75; a phrase's frequency is counted in the chunk's token stream.
_BM25 = """
WITH q AS (SELECT * FROM unnest(%(terms)s::text[], %(sizes)s::int[], %(patterns)s::text[])
                         WITH ORDINALITY AS q(term, size, pattern, ord)),
hits AS (
    SELECT q.ord, t.chunk_id, t.tf FROM q JOIN chunk_terms t ON t.repo_id = %(repo)s AND t.term = q.term
    WHERE q.size = 1
    UNION ALL
    SELECT q.ord, c.id, regexp_count(c.stream, q.pattern) FROM q
    CROSS JOIN LATERAL (SELECT t.chunk_id FROM chunk_terms t
                        WHERE t.repo_id = %(repo)s AND t.term = ANY(string_to_array(q.term, ' '))
                        GROUP BY t.chunk_id
                        HAVING count(*) = cardinality(ARRAY(SELECT DISTINCT unnest(string_to_array(q.term, ' '))))
                        ) candidate
    JOIN chunks c ON c.id = candidate.chunk_id
    WHERE q.size > 1
),
found AS (SELECT * FROM hits WHERE tf > 0),
df AS (SELECT ord, count(*)::float8 AS n FROM found GROUP BY ord),
stats AS (SELECT count(*)::float8 AS n, sum(tokens)::float8 AS total FROM chunks WHERE repo_id = %(repo)s)
SELECT c.path, c.start_line, c.end_line, c.symbol,
       sum(CASE WHEN ln((stats.n - df.n + 0.5) / (df.n + 0.5)) <= 0 THEN 1e-6
                ELSE ln((stats.n - df.n + 0.5) / (df.n + 0.5)) END
           * (f.tf * 2.2) / (f.tf + 1.2 * (0.25 + 0.75 * c.tokens / (stats.total / stats.n)))) AS score
FROM found f JOIN df USING (ord) JOIN chunks c ON c.id = f.chunk_id CROSS JOIN stats
GROUP BY c.id, c.path, c.start_line, c.end_line, c.symbol
ORDER BY score DESC, c.id
LIMIT %(limit)s
"""


class PostgresReads:
    repo_id: int

    # ---- what resolution needs ----
    def known_paths(self):
        return dict(
            self._rows("SELECT path, language FROM files WHERE repo_id = %s ORDER BY id", (self.repo_id,))
        )

    def symbols_named(self, name: str):
        return self._symbols("name = %s ORDER BY id", (name,))

    def symbols_in(self, path: str):
        return self._symbols("path = %s ORDER BY id", (path,))

    def symbols_qualified(self, qualified_name: str):
        return self._symbols("qualified_name = %s ORDER BY id", (qualified_name,))

    def references_in(self, path: str):
        return self._references("path = %s", (path,))

    def references_named(self, names):
        return self._references("name = ANY(%s)", (sorted(set(names)),))

    def edges_named(self, names):
        return self._edges("name = ANY(%s)", (sorted(set(names)),))

    def paths_importing(self, fragments):
        found: set[str] = set()
        for fragment in set(fragments):
            pattern = "%" + fragment.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            found.update(
                p
                for (p,) in self._rows(
                    "SELECT DISTINCT path FROM refs WHERE repo_id = %s AND kind = 'import' AND "
                    "(module LIKE %s ESCAPE '\\' OR name LIKE %s ESCAPE '\\')",
                    (self.repo_id, pattern, pattern),
                )
            )
        return found

    def paths_inheriting_from(self, paths):
        rows = self._rows(
            "SELECT DISTINCT src_path FROM edges WHERE repo_id = %s AND kind = 'inherits' "
            "AND dst_path = ANY(%s)",
            (self.repo_id, sorted(set(paths))),
        )
        return {p for (p,) in rows}

    def all_edges(self, resolved_only: bool = True):
        where = " AND resolution IN ('resolved', 'inferred')" if resolved_only else ""
        return [
            Edge(*row)
            for row in self._rows(
                f"SELECT {EDGE_COLUMNS} FROM edges WHERE repo_id = %s{where} ORDER BY id", (self.repo_id,)
            )
        ]

    # ---- retrieval ----
    def find_symbols(self, name, *, kind=None, qualified=False, prefix=False, limit=50):
        column = "qualified_name" if qualified else "name"
        if prefix:
            clause, args = f"{column} >= %s AND {column} < %s", [name, name + "\U0010ffff"]
        else:
            clause, args = f"{column} = %s", [name]
        if kind:
            clause, args = clause + " AND kind = %s", [*args, kind]
        return self._symbols(clause + " ORDER BY path, line, id LIMIT %s", (*args, limit))

    def query_symbols(self, *, kind=None, name_glob=None, signature_like=None, path_prefix=None, limit=50):
        clauses, args = ["true"], []
        if kind:
            clauses.append("kind = %s")
            args.append(kind)
        if name_glob:
            clauses.append("name ~ %s")
            args.append(glob_regex(name_glob))
        if signature_like:
            clauses.append("strpos(lower(signature), lower(%s)) > 0")
            args.append(signature_like)
        if path_prefix:
            clauses.append("starts_with(path, %s)")
            args.append(path_prefix)
        return self._symbols(" AND ".join(clauses) + " ORDER BY path, line, id LIMIT %s", (*args, limit))

    def edges_out(self, path, symbol=None):
        if symbol is None:
            return self._edges("src_path = %s", (path,))
        return self._edges("src_path = %s AND src_symbol = %s", (path, symbol))

    def neighbour_files(self, paths):
        found: dict[str, set[str]] = {p: set() for p in paths}
        if not paths:
            return found
        rows = self._rows(
            "SELECT src_path, dst_path FROM edges WHERE repo_id = %s AND src_path = ANY(%s) "
            "AND dst_path IS NOT NULL AND dst_path != src_path UNION SELECT dst_path, src_path FROM edges "
            "WHERE repo_id = %s AND dst_path = ANY(%s) AND src_path != dst_path",
            (self.repo_id, list(paths), self.repo_id, list(paths)),
        )
        for path, other in rows:
            found[path].add(other)
        return found

    def edges_in(self, path=None, symbol=None):
        if symbol is not None and path is not None:
            return self._edges("dst_path = %s AND dst_symbol = %s", (path, symbol))
        if symbol is not None:
            return self._edges("dst_symbol = %s", (symbol,))
        return self._edges("dst_path = %s", (path,))

    def search_literal(self, text: str, limit: int = 50) -> list[Span]:
        if not text:
            return []
        needle = prefilter(text)  # matching_lines checks the whole literal
        pattern = "%" + needle.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = self._rows(
            "SELECT path, content FROM files WHERE repo_id = %s AND content ILIKE %s ESCAPE '\\' "
            "ORDER BY path",
            (self.repo_id, pattern),
        )
        spans: list[Span] = []
        for path, content in rows:
            spans += matching_lines(path, content, text, limit - len(spans))
            if len(spans) >= limit:
                break
        return spans

    def search_bm25(self, query: str, limit: int = 20) -> list[Span]:
        terms = query_terms(query)
        if not terms:
            return []
        rows = self._rows(
            _BM25,
            {
                "terms": [t.term for t in terms],
                "sizes": [t.size for t in terms],
                "patterns": [t.pattern for t in terms],
                "repo": self.repo_id,
                "limit": limit,
            },
        )
        contents = self.file_texts(row[0] for row in rows)  # every hit's file in one round trip
        texts: dict[str, list[str]] = {}
        spans = []
        for path, start, end, symbol, score in rows:
            if path not in texts:
                texts[path] = split_lines(contents.get(path) or "")
            body = "\n".join(texts[path][start - 1 : end])
            spans.append(Span(path=path, line=start, end_line=end, text=body, score=score, symbol=symbol))
        return spans

    def file_text(self, path: str) -> str | None:
        row = self._one("SELECT content FROM files WHERE repo_id = %s AND path = %s", (self.repo_id, path))
        return row[0] if row else None

    def file_record(self, path: str) -> FileRecord | None:
        row = self._one(
            "SELECT path, language, size, hash, flags FROM files WHERE repo_id = %s AND path = %s",
            (self.repo_id, path),
        )
        if row is None:
            return None
        return FileRecord(
            path=row[0],
            language=row[1],
            size=row[2],
            content_hash=row[3],
            flags=tuple(f for f in row[4].split(",") if f),
        )

    # ---- batched reads: an array parameter, so one round trip whatever the number of keys ----
    def file_records(self, paths):
        rows = self._rows(
            "SELECT path, language, size, hash, flags FROM files WHERE repo_id = %s AND path = ANY(%s)",
            (self.repo_id, list(dict.fromkeys(paths))),
        )
        return {
            r[0]: FileRecord(
                path=r[0],
                language=r[1],
                size=r[2],
                content_hash=r[3],
                flags=tuple(f for f in r[4].split(",") if f),
            )
            for r in rows
        }

    def file_texts(self, paths):
        return dict(
            self._rows(
                "SELECT path, content FROM files WHERE repo_id = %s AND path = ANY(%s) "
                "AND content IS NOT NULL",
                (self.repo_id, list(dict.fromkeys(paths))),
            )
        )

    def symbols_in_paths(self, paths):
        wanted = list(dict.fromkeys(paths))
        found: dict[str, list[Symbol]] = {p: [] for p in wanted}
        for symbol in self._symbols("path = ANY(%s) ORDER BY id", (wanted,)):
            found[symbol.path].append(symbol)
        return found

    def centralities(self, keys):
        wanted = list(dict.fromkeys(keys))
        rows = self._rows(
            "SELECT c.path, c.symbol, c.pagerank, c.in_degree, c.out_degree FROM centrality c "
            "JOIN unnest(%s::text[], %s::text[]) AS k(path, symbol) "
            "ON c.path = k.path AND c.symbol = k.symbol WHERE c.repo_id = %s",
            ([p for p, _ in wanted], [s or "" for _, s in wanted], self.repo_id),
        )
        return {(row[0], row[1] or None): _centrality(row) for row in rows}

    def snapshot(self) -> Snapshot | None:
        row = self._one(
            "SELECT commit_sha, created_at, dirty FROM snapshots WHERE repo_id = %s ORDER BY id DESC LIMIT 1",
            (self.repo_id,),
        )
        return Snapshot(row[0], row[1], tuple(json.loads(row[2]))) if row else None

    def centrality(self, path, symbol=None):
        row = self._one(
            "SELECT path, symbol, pagerank, in_degree, out_degree FROM centrality "
            "WHERE repo_id = %s AND path = %s AND symbol = %s",
            (self.repo_id, path, symbol or ""),
        )
        return _centrality(row) if row else None

    def top_central(self, limit=20, files=False):
        clause = "symbol = ''" if files else "symbol <> ''"
        rows = self._rows(
            "SELECT path, symbol, pagerank, in_degree, out_degree FROM centrality "
            f"WHERE repo_id = %s AND {clause} ORDER BY pagerank DESC, path, symbol LIMIT %s",
            (self.repo_id, limit),
        )
        return [_centrality(row) for row in rows]

    def language_stats(self) -> list[LanguageStats]:
        rows = self._rows(
            """
            SELECT coalesce(f.language, 'text'), count(*)::int,
                   coalesce(sum(s.n), 0)::int, coalesce(sum(e.n), 0)::int
            FROM files f
            LEFT JOIN (SELECT path, count(*) AS n FROM symbols WHERE repo_id = %(repo)s GROUP BY path) s
                   ON s.path = f.path
            LEFT JOIN (SELECT src_path, count(*) AS n FROM edges WHERE repo_id = %(repo)s
                       AND resolution IN ('resolved', 'inferred') GROUP BY src_path) e ON e.src_path = f.path
            WHERE f.repo_id = %(repo)s
            GROUP BY 1 ORDER BY 2 DESC, 1""",
            {"repo": self.repo_id},
        )
        return [LanguageStats(*row) for row in rows]

    def edge_counts(self) -> dict[str, int]:
        return dict(
            self._rows(
                "SELECT resolution, count(*)::int FROM edges WHERE repo_id = %s GROUP BY resolution "
                "ORDER BY 1",
                (self.repo_id,),
            )
        )

    # ---- helpers ----
    def _references(self, clause: str, args) -> list[Reference]:
        rows = self._rows(
            f"SELECT {REF_COLUMNS} FROM refs WHERE repo_id = %s AND {clause} "
            "ORDER BY path, line, col, kind, name, id",
            (self.repo_id, *args),
        )
        return [reference_from_row(r) for r in rows]

    def _symbols(self, clause: str, args) -> list[Symbol]:
        rows = self._rows(
            f"SELECT {SYMBOL_COLUMNS} FROM symbols WHERE repo_id = %s AND {clause}", (self.repo_id, *args)
        )
        return [symbol_from_row(r) for r in rows]

    def _edges(self, clause: str, args) -> list[Edge]:
        rows = self._rows(
            f"SELECT {EDGE_COLUMNS} FROM edges WHERE repo_id = %s AND {clause} "
            "ORDER BY src_path, src_line, id",
            (self.repo_id, *args),
        )
        return [Edge(*row) for row in rows]


def _centrality(row) -> Centrality:
    return Centrality(
        path=row[0], symbol=row[1] or None, pagerank=row[2], in_degree=row[3], out_degree=row[4]
    )


def glob_regex(glob: str) -> str:
    """SQLite GLOB (``*``, ``?``, ``[a-z]``, ``[^x]``; case-sensitive) as an anchored POSIX regex."""
    out, i = ["^"], 0
    while i < len(glob):
        char = glob[i]
        if char == "*":
            out.append(".*")
        elif char == "?":
            out.append(".")
        elif char == "[" and "]" in glob[i + 2 :]:
            end = glob.index("]", i + 2)
            body = glob[i + 1 : end]
            negate = body.startswith("^")
            body = body[1:] if negate else body
            out.append("[" + ("^" if negate else "") + body.replace("\\", "\\\\") + "]")
            i = end
        else:
            out.append("\\" + char if not char.isalnum() else char)
        i += 1
    return "".join(out) + "$"
