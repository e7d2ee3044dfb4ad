"""What overlapping a cold index's serial work must keep: the bulk load's deferred work taken early
(gram rows, index builds) stores the same database; the parent taking its steps while lower-priority
workers resolve gets the in-process edges in order; a cold index whose centrality is computed beside
the last index builds equals an in-process one, every table and FTS5 shadow table."""

from __future__ import annotations

import os
import sqlite3
import time

from index_helpers import write_tree

from maguyva.index import workers
from maguyva.index.definitions import MemoryDefinitions
from maguyva.index.extract import extract_source
from maguyva.index.pipeline import index_repository
from maguyva.index.resolve import Resolver
from maguyva.index.scan import scan_repository
from maguyva.models import Edge, FileRecord
from maguyva.store import open_store
from maguyva.store import sqlite as sqlite_store
from maguyva.store.values import Centrality


def _tables(path) -> dict[str, list]:
    """Every table of an index (FTS5 shadow tables included) in rowid or key order, and its index
    definitions; the files' stamps and the snapshot's time left out."""
    db = sqlite3.connect(path)
    try:
        found: dict[str, list] = {
            "indexes": sorted(
                db.execute("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index'")
            )
        }
        for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
            columns = [c[1] for c in db.execute(f'PRAGMA table_info("{name}")')]
            columns = [
                c for c in columns if (name, c) not in {("files", "mtime_ns"), ("snapshots", "created_at")}
            ]
            quoted = ", ".join(f'"{c}"' for c in columns)
            order = ", ".join(map(str, range(1, len(columns) + 1)))
            found[name] = db.execute(f'SELECT {quoted} FROM "{name}" ORDER BY {order}').fetchall()
        return found
    finally:
        db.close()


def _source(n: int) -> str:
    return (
        f"from pkg.m{(n + 1) % 4} import Service{(n + 1) % 4}\n\n"
        f"class Service{n}(Service{(n + 1) % 4}):\n"
        f'    """Service number {n}."""\n'
        f"    def get_user{n}(self, key):\n"
        f"        return self.get_user{(n + 1) % 4}(key) + helper_{n}()\n\n"
        f"def helper_{n}():\n    return Service{n}().get_user{n}('x{n}')\n"
    )


def _load(store, *, early: bool) -> None:
    """A clean run's writes in one bulk load; ``early``: with the deferred work taken as the pipeline
    takes it (between the files and the edges, then beside centrality)."""
    extractions = [extract_source(f"pkg/m{n}.py", "python", _source(n).encode()) for n in range(4)]
    edges = [e for x in extractions for e in Resolver(MemoryDefinitions(extractions)).resolve_file(x.path)]
    assert any(e.resolution == "resolved" and e.dst_symbol for e in edges)
    with store.transaction(), store.bulk_load():
        for n, extraction in enumerate(extractions):
            source = _source(n)
            store.put_file(FileRecord(extraction.path, "python", len(source), f"h{n}"), 7, extraction, source)
        if early:
            assert sum(1 for _ in store.deferred("files")) >= 4 + 5  # 4 gram steps (1 row each), 5 indexes
            assert not list(store.deferred("files"))  # each step is done once
        store.replace_edges((), edges[: len(edges) // 2])
        store.replace_edges((), edges[len(edges) // 2 :])
        if early:
            assert len(list(store.deferred("files", "edges"))) == 5  # names_hash and the 4 edge indexes
        store.set_centrality([Centrality("pkg/m0.py", "pkg.m0.Service0", 0.5, 1, 2)])


def test_a_bulk_load_whose_deferred_work_is_taken_early_stores_the_same_database(tmp_path, monkeypatch):
    monkeypatch.setattr(sqlite_store, "_GRAMS_STEP", 1)
    for name, early in (("late", False), ("early", True)):
        store = open_store(tmp_path / f"{name}.db")
        _load(store, early=early)
        assert store.integrity_check() == "ok"
        assert {s.path for s in store.search_literal("get_user2(")} == {"pkg/m1.py", "pkg/m2.py"}
        store.close()
    late, early = _tables(tmp_path / "late.db"), _tables(tmp_path / "early.db")
    assert len([sql for _, _, sql in late["indexes"] if sql]) == 11
    assert late["files_grams_data"]
    assert late["centrality"]
    assert early == late


def test_every_deferred_index_is_built_when_the_bulk_load_ends_whatever_was_taken(tmp_path):
    store = open_store(tmp_path / "index.db")
    with store.transaction(), store.bulk_load():
        store.put_file(
            FileRecord("a.py", "python", 1, "h"), 7, extract_source("a.py", "python", b"x = 1\n"), "x = 1\n"
        )
        next(store.deferred("files"))  # one step taken, the rest left to the end
        assert (
            store.db.execute(
                "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            ).fetchone()[0]
            < 11
        )
    built = {
        n
        for (n,) in store.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
        )
    }
    assert built == {
        "names_hash",
        "symbols_name",
        "symbols_qualified",
        "refs_name",
        "refs_import",
        "edges_src",
        "edges_name",
        "edges_dst",
        "edges_dst_symbol",
        "chunks_file",
        "centrality_rank",
    }
    store.close()


_RESOLVE_SLICE = workers._resolve_slice
_NICENESS: list = []  # where a worker writes its niceness (a file, set by the test)


def _resolve_slowly(paths):
    """A busy worker, which says how nice it is."""
    _NICENESS[0].write_text(str(os.nice(0)))
    time.sleep(0.2)
    return _RESOLVE_SLICE(paths)


def test_the_caller_steps_while_lower_priority_workers_resolve_and_the_edges_keep_their_order(
    tmp_path, monkeypatch
):
    write_tree(
        tmp_path,
        {f"pkg/m{n}.py": _source(n % 4).replace(f"Service{n % 4}", f"Service{n}", 1) for n in range(12)},
    )
    extractions = workers.extract_records(tmp_path, [f.record for f in scan_repository(tmp_path).files], 2000)
    paths = [e.path for e in extractions]
    expected = [
        edge for path in paths for edge in Resolver(MemoryDefinitions(extractions)).resolve_file(path)
    ]
    monkeypatch.setattr(workers, "RESOLVE_SLICE", 1)
    monkeypatch.setattr(workers, "_resolve_slice", _resolve_slowly)
    _NICENESS[:] = [tmp_path / "niceness"]
    steps: list[int] = []
    meanwhile = (steps.append(n) for n in range(3))  # the caller's own work, in short steps
    many = workers.RESOLVE_MIN_REFERENCES  # as many references as a pool is forked for
    try:
        batches = list(
            workers.iter_resolved(Resolver(MemoryDefinitions(extractions)), paths, many, 2, meanwhile)
        )
    finally:
        _NICENESS.clear()
    assert [e for batch in batches for e in batch] == expected
    assert [len(batch) for batch in batches] == [
        len(Resolver(MemoryDefinitions(extractions)).resolve_file(p)) for p in paths
    ]
    assert steps == [0, 1, 2]  # taken while the first slices were out
    assert int((tmp_path / "niceness").read_text()) == min(19, os.nice(0) + workers.RESOLVE_NICE)


def test_a_pooled_cold_index_equals_an_in_process_one_in_every_table(tmp_path, monkeypatch):
    """The pool, the deferred work taken while the workers resolve and the centrality thread beside
    the last index builds: none of them changes a row."""
    write_tree(
        tmp_path / "repo",
        {f"pkg/m{n}.py": _source(n) for n in range(4)} | {"README.md": "# Title\n\nprose\n"},
    )
    monkeypatch.setattr(workers, "PARALLEL_MIN_FILES", 0)
    monkeypatch.setattr(workers, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(workers, "RESOLVE_MIN_REFERENCES", 0)
    monkeypatch.setattr(workers, "RESOLVE_SLICE", 1)
    monkeypatch.setattr(sqlite_store, "_GRAMS_STEP", 1)
    for count in (1, 2):
        index_repository(tmp_path / "repo", tmp_path / f"{count}.db", full=True, workers=count)
    one, two = _tables(tmp_path / "1.db"), _tables(tmp_path / "2.db")
    assert one["centrality"]
    assert one["files_grams_data"]
    assert one["edges"]
    assert two == one


def test_an_edge_inserted_after_its_index_is_built_is_found_through_it(tmp_path):
    store = open_store(tmp_path / "index.db")
    extraction = extract_source("a.py", "python", b"def f():\n    return g()\n")
    with store.transaction(), store.bulk_load():
        store.put_file(FileRecord("a.py", "python", 1, "h"), 7, extraction, "def f():\n    return g()\n")
        list(store.deferred("files", "edges"))  # every index but centrality's built now
        store.replace_edges((), [Edge("calls", "a.py", 2, "a.f", "b.py", 1, "b.g", "g", "resolved", "", 11)])
    assert [e.dst_symbol for e in store.edges_in("b.py")] == ["b.g"]
    assert [e.src_line for e in store.edges_named({"g"})] == [2]
    store.close()
