"""The PostgreSQL team store: many workspaces and repositories in one database (needs psycopg)."""
