"""Helpers for the Maguyva index tests: write a tree of files, commit it, dump an index."""

from __future__ import annotations

import json
import sqlite3
import textwrap
from pathlib import Path

from conftest import git


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write ``files`` (path → text, dedented, or bytes) under ``root``."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(textwrap.dedent(content).lstrip("\n"), encoding="utf-8")
    return root


def commit_all(repo: Path, message: str = "snapshot") -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def dump_index(db: Path) -> dict[str, list[tuple]]:
    """Every symbol, reference, edge and file hash of an index, sorted, for equality checks (through the
    schema's ``*_rows`` views, which give the rows their strings back)."""
    con = sqlite3.connect(db)
    con.execute("CREATE VIRTUAL TABLE temp.bm25_terms USING fts5vocab(main, chunks_fts, row)")
    try:
        return {
            "files": sorted(con.execute("SELECT path, language, hash, flags FROM files")),
            "symbols": sorted(
                con.execute(
                    "SELECT path, name, qualified_name, kind, line, end_line, col, signature, doc, "
                    "coalesce(parent, '') FROM symbol_rows"
                )
            ),
            "edges": sorted(
                con.execute(
                    "SELECT kind, src_path, src_line, coalesce(src_symbol, ''), coalesce(dst_path, ''), "
                    "coalesce(dst_line, 0), coalesce(dst_symbol, ''), name, resolution, reason FROM edge_rows"
                )
            ),
            "chunks": sorted(
                con.execute("SELECT path, start_line, end_line, coalesce(symbol, '') FROM chunk_rows")
            ),
            "refs": sorted(
                con.execute(
                    "SELECT path, name, kind, line, col, qualifier, coalesce(scope, ''), module, alias FROM ref_rows"
                )
            ),
            # the contentless BM25 index: a delete that gave back other words than it was given shows here
            "bm25_terms": sorted(con.execute("SELECT term, doc, cnt FROM temp.bm25_terms")),
            "edge_counts": json.loads(
                con.execute(
                    "SELECT coalesce((SELECT value FROM meta WHERE key = 'edge_counts'), '{}')"
                ).fetchone()[0]
            ),
        }
    finally:
        con.close()
