"""The SQLite store behind the ``Store`` interface: writes, lookups, text search, snapshots, centrality."""

from __future__ import annotations

import sqlite3

import pytest

from maguyva.errors import StoreError
from maguyva.index.extract import extract_source
from maguyva.models import Edge, FileRecord, Symbol
from maguyva.store import open_store
from maguyva.store.base import FileState, Span
from maguyva.store.schema import SCHEMA_VERSION
from maguyva.store.values import Centrality, Snapshot

SOURCE = (
    "class UserService:\n"
    '    """Looks users up."""\n'
    "    def getUserName(self, user_id):\n"
    '        raise KeyError("no such user_id here")\n'
    "\n"
    "def get_user_names():\n"
    "    return [UserService().getUserName(1)]\n"
)


@pytest.fixture
def store(tmp_path):
    store = open_store(tmp_path / "index.db")
    extraction = extract_source("svc/users.py", "python", SOURCE.encode())
    with store.transaction():
        store.put_file(
            FileRecord("svc/users.py", "python", len(SOURCE), "h1", ("test",)), 7, extraction, SOURCE
        )
        store.replace_edges(
            ["svc/users.py"],
            [
                Edge(
                    "calls",
                    "svc/users.py",
                    7,
                    "svc.users.get_user_names",
                    "svc/users.py",
                    3,
                    "svc.users.UserService.getUserName",
                    "getUserName",
                ),
                Edge(
                    "calls",
                    "svc/users.py",
                    4,
                    "svc.users.UserService.getUserName",
                    None,
                    None,
                    None,
                    "KeyError",
                    "external",
                    "no definition of 'KeyError' in the repository",
                ),
            ],
        )
        store.set_centrality(
            [
                Centrality("svc/users.py", "svc.users.UserService.getUserName", 0.6, 1, 0),
                Centrality("svc/users.py", None, 1.0, 0, 0),
            ]
        )
        store.add_snapshot(Snapshot("abc123", "2026-01-01T00:00:00+00:00", ("svc/users.py",)))
    yield store
    store.close()


def test_the_database_uses_wal_and_passes_integrity_check(store, tmp_path):
    assert store.db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert store.db.execute("PRAGMA synchronous").fetchone() == (1,)  # NORMAL
    assert store.integrity_check() == "ok"


def test_symbols_are_found_by_exact_or_prefix_name_qualified_name_and_kind(store):
    assert [s.qualified_name for s in store.find_symbols("getUserName")] == [
        "svc.users.UserService.getUserName"
    ]
    assert [s.name for s in store.find_symbols("get", prefix=True)] == ["getUserName", "get_user_names"]
    assert [s.name for s in store.find_symbols("get", prefix=True, kind="function")] == ["get_user_names"]
    assert [s.name for s in store.find_symbols("svc.users.UserService", qualified=True, prefix=True)] == [
        "UserService",
        "getUserName",
    ]
    assert store.find_symbols("getuser") == []  # exact means exact
    service = store.find_symbols("UserService")[0]
    assert service == Symbol(
        "svc/users.py",
        "UserService",
        "svc.users.UserService",
        "class",
        1,
        4,
        0,
        "class UserService:",
        "Looks users up.",
        None,
    )


def test_structural_queries_filter_by_kind_name_glob_signature_and_path(store):
    found = store.query_symbols(kind="method", name_glob="get*", signature_like="USER_ID", path_prefix="svc/")
    assert [s.name for s in found] == ["getUserName"]
    assert store.query_symbols(path_prefix="other/") == []


def test_edges_are_listed_in_and_out_of_symbols_and_files(store):
    (into,) = store.edges_in(symbol="svc.users.UserService.getUserName")
    assert (into.src_path, into.src_line, into.src_symbol) == ("svc/users.py", 7, "svc.users.get_user_names")
    assert [e.name for e in store.edges_out("svc/users.py")] == ["KeyError", "getUserName"]
    assert [e.resolution for e in store.edges_out("svc/users.py", "svc.users.UserService.getUserName")] == [
        "external"
    ]
    assert [e.name for e in store.all_edges()] == ["getUserName"]


def test_literal_search_returns_path_line_spans_for_substrings(store):
    assert store.search_literal('KeyError("no such') == [
        Span("svc/users.py", 4, 4, '        raise KeyError("no such user_id here")')
    ]
    assert [s.line for s in store.search_literal("user_id")] == [3, 4]  # "_" is not a wildcard
    assert store.search_literal("DROP TABLE") == []


def test_bm25_search_matches_split_identifiers_and_docstrings(store):
    hits = store.search_bm25("name")  # appears only inside the camelCase identifier getUserName
    assert sorted((h.path, h.line, h.end_line, h.symbol) for h in hits) == [
        ("svc/users.py", 3, 5, "svc.users.UserService.getUserName"),
        ("svc/users.py", 6, 7, "svc.users.get_user_names"),
    ]
    assert {h.symbol for h in store.search_bm25("looks")} == {"svc.users.UserService"}


def test_file_text_record_snapshot_centrality_and_language_stats(store):
    assert store.file_text("svc/users.py") == SOURCE
    assert store.file_record("svc/users.py") == FileRecord(
        "svc/users.py", "python", len(SOURCE), "h1", ("test",)
    )
    assert store.snapshot() == Snapshot("abc123", "2026-01-01T00:00:00+00:00", ("svc/users.py",))
    assert store.centrality("svc/users.py").pagerank == 1.0
    assert [c.symbol for c in store.top_central()] == ["svc.users.UserService.getUserName"]
    assert [(s.language, s.files, s.symbols, s.edges) for s in store.language_stats()] == [
        ("python", 1, 3, 1)
    ]
    assert store.file_states() == {"svc/users.py": (len(SOURCE), 7, "h1")}


def test_known_files_are_typed_states_read_by_field(store):
    """What a scan compares is a ``FileState`` with named fields, never a tuple read by position."""
    state = store.known_files()["svc/users.py"]
    assert isinstance(state, FileState)
    assert state == FileState(size=len(SOURCE), mtime_ns=7, hash="h1", language="python", flags=("test",))
    assert state.labelled  # the scan then reads nothing of the file when its stamp stands
    assert store.known_files_of(["svc/users.py", "gone.py"]) == {"svc/users.py": state}


def test_a_state_without_labels_says_so():
    unlabelled = FileState(3, 7, "h1")  # a backend that knows no language or flags
    assert (unlabelled.language, unlabelled.flags, unlabelled.labelled) == (None, None, False)
    assert FileState(3, 7, "h1", None, ()).labelled  # no language and no flags, but known to be none


def test_deleting_a_file_removes_its_rows_from_every_table(store):
    with store.transaction():
        store.delete_file("svc/users.py")
        store.replace_edges(["svc/users.py"], [])
        store.set_centrality([])
    counts = [
        store.db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
        for t in ("files", "symbols", "refs", "chunks", "chunks_fts", "files_text", "edges", "centrality")
    ]
    assert counts == [0] * 8
    assert store.search_literal("KeyError") == []


def test_a_failed_transaction_leaves_the_store_unchanged(store):
    with pytest.raises(RuntimeError), store.transaction():
        store.delete_file("svc/users.py")
        raise RuntimeError("crash")
    assert store.file_text("svc/users.py") == SOURCE


def test_an_index_from_another_schema_version_is_refused(tmp_path):
    path = tmp_path / "old.db"
    open_store(path).close()
    con = sqlite3.connect(path)
    con.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'")
    con.commit()
    con.close()
    with pytest.raises(StoreError, match=f"schema version 0, expected {SCHEMA_VERSION}"):
        open_store(path)


def test_an_index_run_rebuilds_an_index_from_another_schema_version(tmp_path):
    from maguyva.index.pipeline import index_repository

    repo = tmp_path / "repo"
    (repo / "svc").mkdir(parents=True)
    (repo / "svc" / "users.py").write_text(SOURCE)
    path = tmp_path / "old.db"
    index_repository(repo, path)
    con = sqlite3.connect(path)
    con.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'")
    con.commit()
    con.close()
    summary = index_repository(repo, path)  # incremental, not --full: the old index cannot serve anyway
    store = open_store(path, readonly=True)
    try:
        assert summary.files == 1
        assert store.file_text("svc/users.py") == SOURCE
    finally:
        store.close()


def test_opening_a_missing_index_read_only_says_how_to_create_it(tmp_path):
    with pytest.raises(StoreError, match="run `orkestra code index` first"):
        open_store(tmp_path / "none.db", readonly=True)


def test_a_bulk_load_finds_every_string_in_its_cache_never_in_the_unindexed_names_table(tmp_path):
    """A clean run drops ``names_hash`` for its inserts: a per-file lookup would then scan ``names``."""
    store = open_store(tmp_path / "index.db")  # a new file, not ``clear``: the run of `index` without --full
    statements: list[str] = []
    store.db.set_trace_callback(statements.append)
    with store.transaction(), store.bulk_load():
        for n in range(3):
            path = f"svc/users{n}.py"
            extraction = extract_source(path, "python", SOURCE.encode())
            store.put_file(FileRecord(path, "python", len(SOURCE), "h", ()), 7, extraction, SOURCE)
    assert statements
    assert not [s for s in statements if "FROM json_each" in s and "names" in s]
    assert [s.qualified_name for s in store.symbols_in("svc/users2.py")][:1] == ["svc.users2.UserService"]
    store.close()


def test_pruning_names_knows_every_column_that_holds_a_name_id(store):
    from maguyva.store.schema import NAME_COLUMNS

    tables = ("symbols", "refs", "edges", "chunks", "centrality")
    held = {
        table: tuple(c[1] for c in store.db.execute(f"PRAGMA table_info({table})") if c[1].endswith("_id"))
        for table in tables
    }
    assert held == {table: NAME_COLUMNS[table] for table in tables}
