"""Where a cold index's worker time goes: CPU seconds per extraction stage, next to the parse.

One process, no pool, every stage timed with ``time.process_time`` (load inflates it far less
than wall time): the plain tree-sitter parse (the floor of ``bench_index_floors.py``), the query
matches alone, ``extract_file`` and its parts (facts, symbols, chunks), chunk search words, the
stored text (``FileText.of_source``), then what crosses the process boundary (pack, pickle,
unpickle, unpack) and resolving every reference in one process. One JSON line.

Usage: python bench/bench_extract_stages.py [ROOT] (default: the running interpreter's stdlib,
read in place).
"""

from __future__ import annotations

import gc
import json
import pickle
import sys
import sysconfig
import time
from collections import defaultdict
from pathlib import Path

from tree_sitter import QueryCursor

from maguyva.index import extract, workers
from maguyva.index.definitions import MemoryDefinitions
from maguyva.index.languages import compiled_query, has_query
from maguyva.index.parse import parse_source
from maguyva.index.resolve import Resolver
from maguyva.index.scan import scan_repository
from maguyva.index.transport import pack, unpack
from maguyva.store.filetext import FileText

BUDGET_MS = 60_000


def _clocked(spent: dict, name: str, fn):
    def timed(*args, **kwargs):
        start = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[name] += time.process_time() - start

    return timed


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else sysconfig.get_paths()["stdlib"])
    records = [s.record for s in scan_repository(root).files]
    parsed = [r for r in records if has_query(r.language)]
    sources = {r.path: (root / r.path).read_bytes() for r in records}
    for language in {r.language for r in parsed}:
        compiled_query(language)
    import numpy  # noqa: F401 -- as the pool imports it before forking

    gc.disable()  # as a cold index runs
    figures: dict[str, float] = {}
    spent: dict[str, float] = defaultdict(float)

    start = time.process_time()
    trees = {r.path: parse_source(r.path, r.language, sources[r.path], BUDGET_MS) for r in parsed}
    figures["parse"] = time.process_time() - start
    start = time.process_time()
    for r in parsed:
        for _ in QueryCursor(compiled_query(r.language)).matches(trees[r.path].root_node):
            pass
    figures["query_matches"] = time.process_time() - start

    originals = {name: getattr(extract, name) for name in ("_facts", "_build_symbols", "chunk_code")}
    for name, fn in originals.items():
        setattr(extract, name, _clocked(spent, name.strip("_"), fn))
    try:
        start = time.process_time()
        for r in parsed:
            extract.extract_file(r.path, r.language, sources[r.path], trees[r.path])
        figures["extract_file"] = time.process_time() - start
    finally:
        for name, fn in originals.items():
            setattr(extract, name, fn)
    figures |= {f"extract_file.{name}": seconds for name, seconds in spent.items()}
    del trees

    start = time.process_time()
    done = [
        workers._extract_one(str(root), r.path, r.language, BUDGET_MS, True, sources[r.path]) for r in records
    ]
    figures["worker_total"] = time.process_time() - start  # parse + extract + words + stored text
    start = time.process_time()
    for r in records:
        FileText.of_source(sources[r.path])
    figures["stored_text"] = time.process_time() - start
    start = time.process_time()
    packed = [pack(e) for e, _ in done]
    figures["pack"] = time.process_time() - start
    start = time.process_time()
    data = pickle.dumps(packed, protocol=pickle.HIGHEST_PROTOCOL)
    figures["pickle"] = time.process_time() - start
    start = time.process_time()
    packed = pickle.loads(data)
    figures["unpickle"] = time.process_time() - start
    start = time.process_time()
    extractions = [unpack(p) for p in packed]
    figures["unpack"] = time.process_time() - start
    start = time.process_time()
    resolver = Resolver(MemoryDefinitions(extractions))
    edges = sum(len(resolver.resolve_file(e.path)) for e in extractions)
    figures["resolve"] = time.process_time() - start
    floor = figures["parse"]
    print(
        json.dumps(
            {
                "name": "extract_stages",
                "files": len(records),
                "parsed_files": len(parsed),
                "references": sum(len(e.references) for e in extractions),
                "edges": edges,
                "pickled_mb": round(len(data) / 1e6, 1),
                "floor": "tree-sitter parse (CPU s)",
                "cpu_s": {name: round(seconds, 3) for name, seconds in figures.items()},
                "x_parse": {name: round(seconds / floor, 2) for name, seconds in figures.items()},
            }
        )
    )


if __name__ == "__main__":
    main()
