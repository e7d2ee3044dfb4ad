"""What the cold-index speed-ups must keep: records cross processes unchanged, centrality does not
depend on how edges are batched, the garbage collector is restored, a hang in the bounded pool
costs only its own file."""

from __future__ import annotations

import gc
import os
import pickle

from index_helpers import write_tree
from maguyva.index import workers
from maguyva.index.extract import extract_source
from maguyva.index.graph import Links
from maguyva.index.pipeline import extract_tree, index_repository
from maguyva.index.scan import scan_repository
from maguyva.index.transport import pack, unpack
from maguyva.models import FileRecord

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
    assert extraction.symbols and extraction.references and extraction.chunks
    assert unpack(pickle.loads(pickle.dumps(pack(extraction)))) == extraction


def test_links_added_in_batches_rank_like_links_added_at_once(tmp_path):
    write_tree(tmp_path, {f"m{n}.py": f"from m{(n + 1) % 5} import f{(n + 1) % 5}\n\ndef f{n}():\n"
                                      f"    return f{(n + 1) % 5}() + f{(n + 2) % 5}()\n" for n in range(5)})
    _, edges = extract_tree(tmp_path)
    batched = Links()
    for start in range(0, len(edges), 3):
        batched.add(edges[start:start + 3])
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
    pooled = [e for batch in workers._extract_pool(str(tmp_path), records, 200, workers=2) for e in batch]
    assert [e.path for e in pooled] == ["m0.py", "pipe.py", "m1.py", "m2.py", "m3.py", "m4.py", "m5.py"]
    assert pooled[1].errors == ("pipe.py: exceeded hard deadline of 5 s",)
    assert [e.symbols[0].name for e in pooled if e.path != "pipe.py"] == [f"f{n}" for n in range(6)]
