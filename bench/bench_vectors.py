"""Hamming top-10 over packed sign bits: ms/query for 100k × 2048-bit and 100k × 384-bit vectors.

    python bench/bench_vectors.py [--rows 100000] [--queries 50]

Also checks, on a sample, that the ranking equals a brute-force bit count. One JSON line per size.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from maguyva.embed.hamming import HammingIndex, brute_force


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=50)
    args = parser.parse_args()
    rng = np.random.default_rng(42)
    for bits in (2048, 384):
        packed = rng.integers(0, 256, size=(args.rows, bits // 8), dtype=np.uint8)
        index = HammingIndex.build(np.arange(args.rows), packed)
        queries = rng.integers(0, 256, size=(args.queries, bits // 8), dtype=np.uint8)
        index.search(queries[0], 10)  # warm-up
        timings = []
        for query in queries:
            started = time.perf_counter()
            index.search(query, 10)
            timings.append((time.perf_counter() - started) * 1000)
        sample = packed[:5000]
        exact = HammingIndex.build(np.arange(len(sample)), sample).search(queries[0], 10) == brute_force(
            sample, queries[0], 10
        )
        ordered = sorted(timings)
        print(
            json.dumps(
                {
                    "bench": "vectors",
                    "rows": args.rows,
                    "bits": bits,
                    "bytes_per_vector": bits // 8,
                    "db_mb": round(packed.nbytes / 1e6, 1),
                    "ms_per_query_p50": round(statistics.median(timings), 2),
                    "ms_per_query_p95": round(ordered[int(0.95 * (len(ordered) - 1))], 2),
                    "target_ms": 15 if bits == 2048 else None,
                    "ranking_equals_brute_force": exact,
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
