"""Versioned schema migrations for the PostgreSQL store; applied in order, each exactly once.

Every row is keyed by repository (and every repository by workspace), so one database holds
many workspaces. Paths and names use the "C" collation: byte order, as in SQLite, so both
backends sort alike. A new version is appended here; released versions are never edited.
"""

from __future__ import annotations

MIGRATIONS: tuple[tuple[int, str], ...] = (
    (
        1,
        """
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE TABLE workspaces (
    id serial PRIMARY KEY, name text COLLATE "C" NOT NULL UNIQUE, created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE repos (
    id serial PRIMARY KEY, workspace_id int NOT NULL REFERENCES workspaces ON DELETE CASCADE,
    name text COLLATE "C" NOT NULL, UNIQUE (workspace_id, name)
);
CREATE TABLE files (
    id bigserial PRIMARY KEY, repo_id int NOT NULL REFERENCES repos ON DELETE CASCADE,
    path text COLLATE "C" NOT NULL, language text COLLATE "C", size bigint NOT NULL, mtime_ns bigint NOT NULL,
    hash text NOT NULL, flags text NOT NULL, errors text NOT NULL, content text NOT NULL,
    UNIQUE (repo_id, path)
);
CREATE INDEX files_content_trgm ON files USING gin (content gin_trgm_ops);
CREATE TABLE symbols (
    id bigserial PRIMARY KEY, repo_id int NOT NULL REFERENCES repos ON DELETE CASCADE,
    path text COLLATE "C" NOT NULL, name text COLLATE "C" NOT NULL, qualified_name text COLLATE "C" NOT NULL,
    kind text NOT NULL, line int NOT NULL, end_line int NOT NULL, col int NOT NULL,
    signature text NOT NULL, doc text NOT NULL, parent text COLLATE "C"
);
CREATE INDEX symbols_path ON symbols (repo_id, path);
CREATE INDEX symbols_name ON symbols (repo_id, name);
CREATE INDEX symbols_qualified ON symbols (repo_id, qualified_name);
CREATE TABLE refs (
    id bigserial PRIMARY KEY, repo_id int NOT NULL REFERENCES repos ON DELETE CASCADE,
    path text COLLATE "C" NOT NULL, name text COLLATE "C" NOT NULL, kind text NOT NULL, line int NOT NULL,
    col int NOT NULL, qualifier text NOT NULL, scope text, module text NOT NULL, alias text NOT NULL
);
CREATE INDEX refs_path ON refs (repo_id, path);
CREATE INDEX refs_name ON refs (repo_id, name);
CREATE TABLE edges (
    id bigserial PRIMARY KEY, repo_id int NOT NULL REFERENCES repos ON DELETE CASCADE,
    kind text NOT NULL, src_path text COLLATE "C" NOT NULL, src_line int NOT NULL, src_symbol text COLLATE "C",
    dst_path text COLLATE "C", dst_line int, dst_symbol text COLLATE "C", name text NOT NULL,
    resolution text NOT NULL, reason text NOT NULL, src_col int NOT NULL
);
CREATE INDEX edges_src ON edges (repo_id, src_path, src_symbol);
CREATE INDEX edges_name ON edges (repo_id, name);
CREATE INDEX edges_dst ON edges (repo_id, dst_path, dst_symbol);
CREATE INDEX edges_dst_symbol ON edges (repo_id, dst_symbol);
CREATE TABLE chunks (
    id bigserial PRIMARY KEY, repo_id int NOT NULL REFERENCES repos ON DELETE CASCADE,
    path text COLLATE "C" NOT NULL, start_line int NOT NULL, end_line int NOT NULL, symbol text COLLATE "C",
    kind text NOT NULL, tokens int NOT NULL, stream text NOT NULL
);
CREATE INDEX chunks_path ON chunks (repo_id, path);
-- BM25 postings: term frequency per chunk (FTS5 unicode61 tokens, plus multi-token words as phrases)
CREATE TABLE chunk_terms (
    chunk_id bigint NOT NULL REFERENCES chunks ON DELETE CASCADE, repo_id int NOT NULL,
    term text COLLATE "C" NOT NULL, tf int NOT NULL, PRIMARY KEY (chunk_id, term)
);
CREATE INDEX chunk_terms_term ON chunk_terms (repo_id, term);
CREATE TABLE snapshots (
    id bigserial PRIMARY KEY, repo_id int NOT NULL REFERENCES repos ON DELETE CASCADE,
    commit_sha text, created_at text NOT NULL, dirty text NOT NULL
);
CREATE TABLE centrality (
    repo_id int NOT NULL REFERENCES repos ON DELETE CASCADE, path text COLLATE "C" NOT NULL,
    symbol text COLLATE "C" NOT NULL, pagerank double precision NOT NULL, in_degree int NOT NULL,
    out_degree int NOT NULL, PRIMARY KEY (repo_id, path, symbol)
);
CREATE INDEX centrality_rank ON centrality (repo_id, pagerank DESC);
-- packed sign bits per chunk and model ("backend/model/dims"); Hamming search is bit_count(bits # q)
CREATE TABLE vectors (
    chunk_id bigint NOT NULL REFERENCES chunks ON DELETE CASCADE, repo_id int NOT NULL,
    model text NOT NULL, bits bit varying NOT NULL, PRIMARY KEY (chunk_id, model)
);
CREATE INDEX vectors_model ON vectors (repo_id, model);
-- API keys for the HTTP server: only a SHA-256 of the secret is stored
CREATE TABLE api_keys (
    id text PRIMARY KEY, workspace_id int NOT NULL REFERENCES workspaces ON DELETE CASCADE,
    name text NOT NULL, secret_sha256 text NOT NULL, created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
);
""",
    ),
)

LATEST = MIGRATIONS[-1][0]
_LOCK = 0x6D616775  # advisory lock id: concurrent first connections migrate one at a time


def migrate(conn) -> int:
    """Apply pending migrations in one transaction; return the schema version now in place."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            "version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        current = schema_version(conn)
        for version, sql in MIGRATIONS:
            if version > current:
                conn.execute(sql)
                conn.execute("INSERT INTO schema_migrations (version) VALUES (%s)", (version,))
    return LATEST


def schema_version(conn) -> int:
    """The highest applied migration, 0 for an empty database."""
    exists = conn.execute("SELECT to_regclass('schema_migrations') IS NOT NULL").fetchone()[0]
    if not exists:
        return 0
    return conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations").fetchone()[0]
