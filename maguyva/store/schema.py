"""The SQLite schema. Paths are repo-relative POSIX; lines are 1-based.

Every repeated string of the graph tables (paths, names, qualified names, kinds, reasons, types)
is stored once, in ``names``; rows hold its integer id (``*_id`` columns). The rows a file owns
(symbols, references, chunks) hold ``files.id`` and are clustered by it (``WITHOUT ROWID``, key
``(file, seq)``), so a file's rows are read and deleted without a separate index, in insertion
order. The ``*_rows`` views join the strings back; the store reads through them (SQLite flattens
them into each query), so filters on the id columns still use the indexes. On the stdlib this
took the database from 334 MB (9x the source) to under 3x; see docs/BENCHMARKS.md.
"""

from maguyva.store.sqlite_names import IMPORT_ID

SCHEMA_VERSION = 9  # 9: interned strings, file-clustered rows, contentless BM25 (8: files.hash a git blob id)

# every table, in creation order; ``clear`` drops all but ``meta`` (fts5 shadow tables go with theirs)
TABLES = (
    "meta",
    "files",
    "names",
    "symbols",
    "refs",
    "edges",
    "chunks",
    "chunks_fts",
    "files_text",
    "files_grams",
    "snapshots",
    "centrality",
    "vectors",
)

# every column holding a ``names`` id, by table (what pruning ``names`` must keep)
NAME_COLUMNS = {
    "symbols": ("qualified_id", "kind_id", "parent_id"),
    "refs": ("name_id", "kind_id", "qualifier_id", "scope_id", "module_id", "alias_id"),
    "edges": (
        "kind_id",
        "src_path_id",
        "src_symbol_id",
        "dst_path_id",
        "dst_symbol_id",
        "name_id",
        "resolution_id",
        "reason_id",
    ),
    "chunks": ("symbol_id", "kind_id"),
    "centrality": ("path_id", "symbol_id"),
}

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, language TEXT, size INTEGER NOT NULL,
    -- mtime_ns: the stat stamp max(mtime, ctime) in ns, or 0 when it was too fresh to trust (racy)
    mtime_ns INTEGER NOT NULL, hash TEXT NOT NULL, flags TEXT NOT NULL, errors TEXT NOT NULL,
    -- kept by the store as rows change, so per-language totals never scan symbols or edges
    n_symbols INTEGER NOT NULL DEFAULT 0, n_edges INTEGER NOT NULL DEFAULT 0
);
-- each distinct string once; pruned of unused ones by the commit after a quarter of it is new.
-- Found by ``hash`` (maguyva.store.sqlite_names.name_hash, 23 bits) and then text: an index of the
-- hash is a quarter the size of one of the text. The first ids go to the commonest strings (SEED).
CREATE TABLE IF NOT EXISTS names (id INTEGER PRIMARY KEY, text TEXT NOT NULL, hash INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS names_hash ON names(hash);
-- (file, seq): files.id and the symbol's place in its file, so (file, seq) order is insertion order
CREATE TABLE IF NOT EXISTS symbols (
    file INTEGER NOT NULL, seq INTEGER NOT NULL, name TEXT NOT NULL, qualified_id INTEGER NOT NULL, kind_id INTEGER NOT NULL, line INTEGER NOT NULL,
    end_line INTEGER NOT NULL, col INTEGER NOT NULL, signature TEXT NOT NULL, doc TEXT NOT NULL,
    parent_id INTEGER, PRIMARY KEY (file, seq)
) WITHOUT ROWID;
-- the name as text: found by prefix too
CREATE INDEX IF NOT EXISTS symbols_name ON symbols(name);
CREATE INDEX IF NOT EXISTS symbols_qualified ON symbols(qualified_id);
CREATE TABLE IF NOT EXISTS refs (
    file INTEGER NOT NULL, seq INTEGER NOT NULL, name_id INTEGER NOT NULL, kind_id INTEGER NOT NULL,
    line INTEGER NOT NULL, col INTEGER NOT NULL, qualifier_id INTEGER, scope_id INTEGER,
    module_id INTEGER, alias_id INTEGER, PRIMARY KEY (file, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS refs_name ON refs(name_id);
-- the imports (3 %), for the files importing a module: {import_id} is the id of 'import' (SEED)
CREATE INDEX IF NOT EXISTS refs_import ON refs(file) WHERE kind_id = {import_id};
-- paths are names (not files.id): an edge may outlive its file until the run re-resolves it.
-- Here and in refs a NULL reason, qualifier, module or alias is '' (no byte at all in the row).
CREATE TABLE IF NOT EXISTS edges (
    id INTEGER PRIMARY KEY, kind_id INTEGER NOT NULL, src_path_id INTEGER NOT NULL,
    src_line INTEGER NOT NULL, src_symbol_id INTEGER, dst_path_id INTEGER, dst_line INTEGER,
    dst_symbol_id INTEGER, name_id INTEGER NOT NULL, resolution_id INTEGER NOT NULL,
    reason_id INTEGER, src_col INTEGER NOT NULL
);
-- by file only: a file's edges out of one symbol are found among its few hundred
CREATE INDEX IF NOT EXISTS edges_src ON edges(src_path_id);
CREATE INDEX IF NOT EXISTS edges_name ON edges(name_id);
-- external and ambiguous edges (a third) have no destination: they are left out of these two
CREATE INDEX IF NOT EXISTS edges_dst ON edges(dst_path_id) WHERE dst_path_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS edges_dst_symbol ON edges(dst_symbol_id) WHERE dst_symbol_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS chunks (
    id INTEGER PRIMARY KEY, file INTEGER NOT NULL, start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL, symbol_id INTEGER, kind_id INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_file ON chunks(file);
-- rowid = chunks.id; identifier-split words for BM25, contentless: the words are recomputed from
-- the file text to delete a chunk (maguyva.store.sqlite_rows.chunk_words)
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(words, tokenize = 'unicode61', content = '');
-- id = files.id; the file's UTF-8 text, zlib-compressed (maguyva.store.filetext), for get-file and
-- for checking literal candidates exactly
CREATE TABLE IF NOT EXISTS files_text (id INTEGER PRIMARY KEY, text BLOB NOT NULL);
-- rowid = files.id; contentless, no positions: each file's distinct lower-cased byte trigrams as hex
-- tokens, so an AND of a literal's tokens gives a superset of the files holding it. On the stdlib
-- 6 MB and 0.9 s of parent CPU, against 106 MB and 3.7 s for a trigram-tokenised detail=full table.
CREATE VIRTUAL TABLE IF NOT EXISTS files_grams USING fts5(grams, tokenize = 'ascii', content = '',
                                                          detail = 'none');
CREATE TABLE IF NOT EXISTS snapshots (
    id INTEGER PRIMARY KEY, commit_sha TEXT, created_at TEXT NOT NULL, dirty TEXT NOT NULL
);
-- symbol_id is the id of '' for a file's own row
CREATE TABLE IF NOT EXISTS centrality (
    path_id INTEGER NOT NULL, symbol_id INTEGER NOT NULL, pagerank REAL NOT NULL,
    in_degree INTEGER NOT NULL, out_degree INTEGER NOT NULL, PRIMARY KEY (path_id, symbol_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS centrality_rank ON centrality(pagerank DESC);
CREATE VIEW IF NOT EXISTS symbol_rows AS
SELECT s.file, s.seq, f.path, s.name, q.text AS qualified_name, k.text AS kind, s.line,
       s.end_line, s.col, s.signature, s.doc, p.text AS parent, s.qualified_id, s.kind_id
FROM symbols s JOIN files f ON f.id = s.file JOIN names q ON q.id = s.qualified_id JOIN names k ON k.id = s.kind_id
LEFT JOIN names p ON p.id = s.parent_id;
CREATE VIEW IF NOT EXISTS ref_rows AS
SELECT r.file, r.seq, f.path, n.text AS name, k.text AS kind, r.line, r.col,
       coalesce(q.text, '') AS qualifier, s.text AS scope, coalesce(m.text, '') AS module,
       coalesce(a.text, '') AS alias, r.name_id, r.kind_id
FROM refs r JOIN files f ON f.id = r.file JOIN names n ON n.id = r.name_id
JOIN names k ON k.id = r.kind_id LEFT JOIN names q ON q.id = r.qualifier_id
LEFT JOIN names s ON s.id = r.scope_id LEFT JOIN names m ON m.id = r.module_id
LEFT JOIN names a ON a.id = r.alias_id;
CREATE VIEW IF NOT EXISTS edge_rows AS
SELECT e.id, k.text AS kind, sp.text AS src_path, e.src_line, ss.text AS src_symbol,
       dp.text AS dst_path, e.dst_line, ds.text AS dst_symbol, n.text AS name,
       r.text AS resolution, coalesce(w.text, '') AS reason, e.src_col, e.kind_id, e.src_path_id, e.src_symbol_id,
       e.dst_path_id, e.dst_symbol_id, e.name_id, e.resolution_id
FROM edges e JOIN names k ON k.id = e.kind_id JOIN names sp ON sp.id = e.src_path_id
LEFT JOIN names ss ON ss.id = e.src_symbol_id LEFT JOIN names dp ON dp.id = e.dst_path_id
LEFT JOIN names ds ON ds.id = e.dst_symbol_id JOIN names n ON n.id = e.name_id
JOIN names r ON r.id = e.resolution_id LEFT JOIN names w ON w.id = e.reason_id;
CREATE VIEW IF NOT EXISTS chunk_rows AS
SELECT c.id, f.path, c.start_line, c.end_line, s.text AS symbol, k.text AS kind, c.file
FROM chunks c JOIN files f ON f.id = c.file LEFT JOIN names s ON s.id = c.symbol_id
JOIN names k ON k.id = c.kind_id;
CREATE VIEW IF NOT EXISTS centrality_rows AS
SELECT p.text AS path, s.text AS symbol, c.pagerank, c.in_degree, c.out_degree, c.path_id,
       c.symbol_id
FROM centrality c JOIN names p ON p.id = c.path_id JOIN names s ON s.id = c.symbol_id;
""".replace("{import_id}", str(IMPORT_ID))
