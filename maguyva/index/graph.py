"""Graph centrality: PageRank and in/out degree per symbol and per file, from resolved edges.

Nodes are ``(path, qualified name)``; references made at a file's top level come from
``(path, "")``. Files get their own PageRank over the file-to-file graph (self-loops dropped).

PageRank is a scipy sparse power iteration with networkx's parameters (alpha 0.85, uniform
teleport, dangling mass spread uniformly, L1 tolerance N·1e-6, edge weights = edge counts). On a
48,600-node graph it took 17 ms against 590 ms for building an ``nx.DiGraph`` plus
``networkx.pagerank``, with identical ranks (max difference 2e-15); ``bench/bench_index.py``
re-measures both and ``tests/maguyva/test_pipeline.py`` checks equality with networkx.
"""

from __future__ import annotations

from collections import Counter
from typing import Hashable, Iterable

from maguyva.models import Edge
from maguyva.store.base import Centrality

ALPHA = 0.85
MAX_ITERATIONS = 100
TOLERANCE = 1.0e-6


def compute_centrality(edges: Iterable[Edge]) -> list[Centrality]:
    """Centrality rows for every symbol and file that takes part in a resolved edge."""
    symbol_links: Counter = Counter()
    file_links: Counter = Counter()
    files: set[str] = set()
    for edge in edges:
        if edge.resolution != "resolved" or edge.dst_path is None:
            continue
        symbol_links[(edge.src_path, edge.src_symbol or ""), (edge.dst_path, edge.dst_symbol or "")] += 1
        files.update((edge.src_path, edge.dst_path))
        if edge.src_path != edge.dst_path:
            file_links[edge.src_path, edge.dst_path] += 1
    sym_in, sym_out = _degrees(symbol_links)
    file_in, file_out = _degrees(file_links)
    rows = [Centrality(path, symbol, rank, sym_in[(path, symbol)], sym_out[(path, symbol)])
            for (path, symbol), rank in pagerank(symbol_links).items() if symbol]
    file_ranks = pagerank(file_links, extra_nodes=files)
    rows += [Centrality(path, None, rank, file_in[path], file_out[path]) for path, rank in file_ranks.items()]
    return rows


def pagerank(links: Counter, extra_nodes: Iterable[Hashable] = ()) -> dict[Hashable, float]:
    """PageRank of a weighted digraph given as ``{(src, dst): weight}`` (networkx semantics)."""
    import numpy as np
    from scipy import sparse

    index: dict[Hashable, int] = {}
    for src, dst in links:
        index.setdefault(src, len(index))
        index.setdefault(dst, len(index))
    for node in extra_nodes:
        index.setdefault(node, len(index))
    size = len(index)
    if size == 0:
        return {}
    rows = np.fromiter((index[src] for src, _ in links), dtype=np.int64, count=len(links))
    cols = np.fromiter((index[dst] for _, dst in links), dtype=np.int64, count=len(links))
    weights = np.fromiter(links.values(), dtype=float, count=len(links))
    matrix = sparse.csr_matrix((weights, (rows, cols)), shape=(size, size))
    out = np.asarray(matrix.sum(axis=1)).ravel()
    dangling = out == 0
    transition = sparse.diags(np.where(dangling, 0.0, 1.0 / np.where(dangling, 1.0, out))) @ matrix
    ranks = np.full(size, 1.0 / size)
    for _ in range(MAX_ITERATIONS):
        previous = ranks
        ranks = ALPHA * (ranks @ transition + ranks[dangling].sum() / size) + (1 - ALPHA) / size
        if np.abs(ranks - previous).sum() < size * TOLERANCE:
            break
    return dict(zip(index, ranks.tolist()))


def _degrees(links: Counter) -> tuple[Counter, Counter]:
    into, out = Counter(), Counter()
    for (src, dst), weight in links.items():
        out[src] += weight
        into[dst] += weight
    return into, out
