"""The SQLite schema (version 1). Paths are repo-relative POSIX; lines are 1-based."""

SCHEMA_VERSION = 8  # 8: files.hash is the git blob id (7: compressed text + gram-token literal index)

# every table, in creation order; ``clear`` drops all but ``meta`` (fts5 shadow tables go with theirs)
TABLES = (
    "meta",
    "files",
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

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, language TEXT, size INTEGER NOT NULL,
    -- mtime_ns: the stat stamp max(mtime, ctime) in ns, or 0 when it was too fresh to trust (racy)
    mtime_ns INTEGER NOT NULL, hash TEXT NOT NULL, flags TEXT NOT NULL, errors TEXT NOT NULL,
    -- kept by the store as rows change, so per-language totals never scan symbols or edges
    n_symbols INTEGER NOT NULL DEFAULT 0, n_edges INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS symbols (
    id INTEGER PRIMARY KEY, path TEXT NOT NULL, name TEXT NOT NULL, qualified_name TEXT NOT NULL,
    kind TEXT NOT NULL, line INTEGER NOT NULL, end_line INTEGER NOT NULL, col INTEGER NOT NULL,
    signature TEXT NOT NULL, doc TEXT NOT NULL, parent TEXT
);
CREATE INDEX IF NOT EXISTS symbols_path ON symbols(path);
CREATE INDEX IF NOT EXISTS symbols_name ON symbols(name);
CREATE INDEX IF NOT EXISTS symbols_qualified ON symbols(qualified_name);
CREATE TABLE IF NOT EXISTS refs (
    id INTEGER PRIMARY KEY, path TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL,
    line INTEGER NOT NULL, col INTEGER NOT NULL, qualifier TEXT NOT NULL, scope TEXT,
    module TEXT NOT NULL, alias TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS refs_path ON refs(path);
CREATE INDEX IF NOT EXISTS refs_name ON refs(name);
CREATE TABLE IF NOT EXISTS edges (
    id INTEGER PRIMARY KEY, kind TEXT NOT NULL, src_path TEXT NOT NULL, src_line INTEGER NOT NULL,
    src_symbol TEXT, dst_path TEXT, dst_line INTEGER, dst_symbol TEXT, name TEXT NOT NULL,
    resolution TEXT NOT NULL, reason TEXT NOT NULL, src_col INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS edges_src ON edges(src_path, src_symbol);
CREATE INDEX IF NOT EXISTS edges_name ON edges(name);
CREATE INDEX IF NOT EXISTS edges_resolution ON edges(resolution);
CREATE INDEX IF NOT EXISTS edges_dst ON edges(dst_path, dst_symbol);
CREATE INDEX IF NOT EXISTS edges_dst_symbol ON edges(dst_symbol);
CREATE TABLE IF NOT EXISTS chunks (
    id INTEGER PRIMARY KEY, path TEXT NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,
    symbol TEXT, kind TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_path ON chunks(path);
-- rowid = chunks.id; identifier-split words for BM25
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(words, tokenize = 'unicode61');
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
CREATE TABLE IF NOT EXISTS centrality (
    path TEXT NOT NULL, symbol TEXT NOT NULL, pagerank REAL NOT NULL,
    in_degree INTEGER NOT NULL, out_degree INTEGER NOT NULL, PRIMARY KEY (path, symbol)
);
CREATE INDEX IF NOT EXISTS centrality_rank ON centrality(pagerank DESC);
"""
