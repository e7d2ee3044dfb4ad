"""What the cold-index speed-ups must keep: records cross processes unchanged, centrality does not
depend on how edges are batched, the garbage collector is restored, a hang in the bounded pool
costs only its own file, a pooled cold index stores what an in-process one stores."""

from __future__ import annotations

import gc
import os
import pickle
import sqlite3
import time

from index_helpers import write_tree

from maguyva.index import workers
from maguyva.index.definitions import MemoryDefinitions
from maguyva.index.extract import extract_source
from maguyva.index.graph import Links
from maguyva.index.pipeline import extract_tree, index_repository
from maguyva.index.resolve import Resolver
from maguyva.index.scan import scan_repository
from maguyva.index.transport import pack, unpack
from maguyva.models import FileRecord
from maguyva.store.rows import REF_COLUMNS, SYMBOL_COLUMNS

SOURCE = b'''"""Users."""
import os.path as osp

class Service(Base):
    """Look users up."""

    def get(self, key: str) -> str:
        return self.cache.get(osp.join(key))

def main():
    return Service().get("a")
'''


def test_a_packed_extraction_crosses_processes_unchanged():
    extraction = extract_source("svc/users.py", "python", SOURCE)
    assert extraction.symbols
    assert extraction.references
    assert extraction.chunks
    assert unpack(pickle.loads(pickle.dumps(pack(extraction)))) == extraction


def test_links_added_in_batches_rank_like_links_added_at_once(tmp_path):
    write_tree(
        tmp_path,
        {
            f"m{n}.py": f"from m{(n + 1) % 5} import f{(n + 1) % 5}\n\ndef f{n}():\n"
            f"    return f{(n + 1) % 5}() + f{(n + 2) % 5}()\n"
            for n in range(5)
        },
    )
    _, edges = extract_tree(tmp_path)
    batched = Links()
    for start in range(0, len(edges), 3):
        batched.add(edges[start : start + 3])
    rows = sorted(Links.of(edges).centrality(), key=lambda c: (c.path, c.symbol or ""))
    assert len(rows) == 10  # five functions, five files
    assert sorted(batched.centrality(), key=lambda c: (c.path, c.symbol or "")) == rows


def test_an_index_run_leaves_the_garbage_collector_as_it_found_it(tmp_path):
    write_tree(tmp_path / "repo", {"a.py": "def f():\n    return 1\n"})
    index_repository(tmp_path / "repo", tmp_path / "index.db")
    assert gc.isenabled()
    gc.disable()
    try:
        index_repository(tmp_path / "repo", tmp_path / "index.db", full=True)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_hanging_file_in_the_pool_is_redone_alone_and_the_rest_keep_their_order(tmp_path, monkeypatch):
    """Reading a FIFO without a writer blocks forever: its batch hits the hard deadline, the file
    gets an error, and the batches queued behind it are extracted by a fresh pool, in input order."""
    monkeypatch.setattr(workers, "BATCH", 1)  # one file per batch: a 5 s deadline, not 40 s
    write_tree(tmp_path, {f"m{n}.py": f"def f{n}():\n    return {n}\n" for n in range(6)})
    records = [f.record for f in scan_repository(tmp_path).files]
    os.mkfifo(tmp_path / "pipe.py")  # after the scan, which would block reading it too
    records.insert(1, FileRecord(path="pipe.py", language="python", size=0, content_hash="-"))
    pooled = [e for batch in workers._extract_pool(str(tmp_path), records, 200, workers=2) for e, _ in batch]
    assert [e.path for e in pooled] == ["m0.py", "pipe.py", "m1.py", "m2.py", "m3.py", "m4.py", "m5.py"]
    assert pooled[1].errors == ("pipe.py: exceeded hard deadline of 5 s",)
    assert [e.symbols[0].name for e in pooled if e.path != "pipe.py"] == [f"f{n}" for n in range(6)]


def test_a_pooled_cold_index_stores_what_an_in_process_one_stores(tmp_path, monkeypatch):
    """Most cold indexes now run a pool (from 0.5 MB of source): the store must hold the same rows."""
    write_tree(
        tmp_path / "repo",
        {
            f"pkg/m{n}.py": f"class HTTPServer{n}(Base):\n    def getUserName(self):\n"
            f"        return self.fetch_v{n}(m{(n + 1) % 9}.HTTPServer{n})\n"
            for n in range(9)
        }
        | {"README.md": "# Title\n\nsome `snake_case` prose\n"},
    )
    monkeypatch.setattr(workers, "PARALLEL_MIN_FILES", 0)
    monkeypatch.setattr(workers, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(workers, "RESOLVE_MIN_REFERENCES", 0)  # resolution in a pool too
    monkeypatch.setattr(workers, "RESOLVE_SLICE", 2)
    tables = {}
    for count in (1, 2):
        index_repository(tmp_path / "repo", tmp_path / f"{count}.db", full=True, workers=count)
        db = sqlite3.connect(tmp_path / f"{count}.db")
        # chunks_fts keeps no content: each chunk's tokens (unicode61 splits at "_") are read back
        db.execute("CREATE VIRTUAL TABLE temp.words USING fts5vocab(main, chunks_fts, instance)")
        tables[count] = [
            db.execute(query).fetchall()
            for query in (
                "SELECT c.path, c.start_line, c.symbol, group_concat(w.term, ' ') FROM chunk_rows c"
                " JOIN (SELECT doc, term FROM temp.words ORDER BY doc, offset) w ON w.doc = c.id"
                " GROUP BY c.id ORDER BY c.path, c.start_line",
                f"SELECT {REF_COLUMNS} FROM ref_rows ORDER BY path, line, col, name",
                f"SELECT {SYMBOL_COLUMNS} FROM symbol_rows ORDER BY path, line, name",
                "SELECT kind, src_path, src_line, dst_path, dst_symbol, resolution FROM edge_rows ORDER BY id",
            )
        ]
        db.close()
    assert (
        "pkg/m0.py",
        2,
        "pkg.m0.HTTPServer0.getUserName",
        "def getusername get user name self return self fetch v0 fetch v 0 m1 m 1 httpserver0 http server 0",
    ) in tables[2][0]
    assert tables[2] == tables[1]


def test_a_pool_is_forked_only_for_enough_work_from_a_single_threaded_process():
    """The MCP server refreshes from a worker thread: extraction must then stay in-process."""
    from maguyva.index.workers import PARALLEL_MIN_BYTES, PARALLEL_MIN_FILES, use_pool
    from maguyva.models import FileRecord

    size = PARALLEL_MIN_BYTES // PARALLEL_MIN_FILES + 1
    many = [FileRecord(f"f{i}.py", "python", size, "h") for i in range(PARALLEL_MIN_FILES)]
    assert use_pool(many, workers=2, threads=1)
    assert not use_pool(many, workers=2, threads=3)  # other threads alive: no fork
    assert not use_pool(many, workers=1, threads=1)
    assert not use_pool(many[:-1], workers=2, threads=1)
    assert not use_pool([FileRecord("f.py", "python", 1, "h")] * PARALLEL_MIN_FILES, workers=2, threads=1)


def _resolve_slowly(paths):
    """A resolution worker that never answers for ``pkg/m1.py`` (as one the OOM killer took)."""
    if "pkg/m1.py" in paths:
        time.sleep(60)
    return _RESOLVE_SLICE(paths)


_RESOLVE_SLICE = workers._resolve_slice


def test_pooled_resolution_gives_the_in_process_edges_in_order_even_when_a_slice_times_out(
    tmp_path, monkeypatch
):
    write_tree(
        tmp_path,
        {
            f"pkg/m{n}.py": f"from pkg.m{(n + 1) % 6} import C{(n + 1) % 6}\n\nclass C{n}(C{(n + 1) % 6}):\n"
            f"    def run(self):\n        return self.go(C{(n + 2) % 6}().run())\n"
            for n in range(6)
        },
    )
    extractions = workers.extract_records(tmp_path, [f.record for f in scan_repository(tmp_path).files], 2000)
    paths = [e.path for e in extractions]
    expected = [
        edge for path in paths for edge in Resolver(MemoryDefinitions(extractions)).resolve_file(path)
    ]
    # a cycle of bases: the base cache's guard must not make a file's edges depend on resolution order
    assert {(e.kind, e.resolution) for e in expected} >= {("inherits", "resolved"), ("calls", "inferred")}
    monkeypatch.setattr(workers, "RESOLVE_SLICE", 1)
    many = workers.RESOLVE_MIN_REFERENCES  # as many references as a pool is forked for
    pooled = workers.iter_resolved(Resolver(MemoryDefinitions(extractions)), paths, many, workers=2)
    assert [e for batch in pooled for e in batch] == expected
    monkeypatch.setattr(workers, "RESOLVE_SECONDS", 0.5)
    monkeypatch.setattr(workers, "_resolve_slice", _resolve_slowly)
    pooled = workers.iter_resolved(Resolver(MemoryDefinitions(extractions)), paths, many, workers=2)
    assert [e for batch in pooled for e in batch] == expected  # the rest resolved in-process
