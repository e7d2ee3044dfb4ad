"""Extraction and resolution across processes: a fork pool for many files, in-process for a few.

Each file is parsed under the in-process budget (progress callback). A grammar that hangs
without ever calling it (cobol on ``x = 1``) would block a worker, so each batch also has a
hard deadline: when it passes, the pool is terminated, the batch's files are redone one by one
in guarded children (``run_guarded``), and the remaining batches go to a fresh pool.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import threading
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from stat import S_ISREG

from maguyva.index.extract import extract_source
from maguyva.index.languages import compiled_query, has_query
from maguyva.index.parse import run_guarded
from maguyva.index.transport import new_chunk, pack, pack_edges, unpack, unpack_edges
from maguyva.models import Edge, FileExtraction, FileRecord
from maguyva.search_words import search_words
from maguyva.store.filetext import FileText

Extracted = tuple[FileExtraction, "FileText | None"]  # the stored text comes along when asked for

# Below these, a pool costs more than it saves. 2 processes beat 1 from well under a megabyte
# since the queries are compiled once before the fork: 208 files / 0.85 MB 0.64 → 0.57 s, this
# repository (857 files, 2.2 MB) 2.2 → 1.75 s; the stdlib (38 MB) was ~1.5x faster already.
PARALLEL_MIN_FILES = 48
PARALLEL_MIN_BYTES = 500_000
BATCH = 8
IN_FLIGHT = 4  # batches queued per worker
# A clean index resolves in a pool once extraction is done: below this many references one process
# is done before a pool has started (the stdlib: 510k references, ~9 µs each).
RESOLVE_MIN_REFERENCES = 20_000
RESOLVE_SLICE = 24  # files per resolution task: small, so both workers finish together
RESOLVE_IN_FLIGHT = 8  # slices queued per worker: enough for the caller's longest step (an index build)
RESOLVE_NICE = 10  # resolution workers' niceness above the parent's
RESOLVE_SECONDS = 300.0  # a slice's hard deadline (a worker killed by the OOM killer never answers)


def worker_count() -> int:
    return max(
        1, min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1, 8)
    )


def extract_records(
    root: Path, records: Sequence[FileRecord], budget_ms: int, workers: int | None = None
) -> list[FileExtraction]:
    """Extract ``records`` (read from ``root``), in parallel when there are many; results in input order."""
    return [
        extraction for batch in iter_extractions(root, records, budget_ms, workers) for extraction, _ in batch
    ]


def iter_extractions(
    root: Path,
    records: Sequence[FileRecord],
    budget_ms: int,
    workers: int | None = None,
    *,
    with_text: bool = False,
    sources: Mapping[str, bytes] | None = None,
) -> Iterator[list[Extracted]]:
    """(extraction, stored text) pairs of ``records`` in input order, a batch at a time, so the caller
    can store them while the workers go on. A pool runs only for cold indexes of many files. With
    ``with_text`` the worker that parsed a file also compresses and gram-tokenises its text (see
    ``maguyva.store.filetext``) and computes its chunks' search words, which replace their text (a
    store reads only the words); ``sources`` holds bytes the caller already read, so no file is read
    twice."""
    workers = worker_count() if workers is None else workers
    sources = sources or {}
    if not use_pool(records, workers, threading.active_count()):
        for record in records:
            yield [
                _extract_one(
                    str(root), record.path, record.language, budget_ms, with_text, sources.get(record.path)
                )
            ]
        return
    yield from _extract_pool(str(root), records, budget_ms, workers, with_text, sources)


def use_pool(records: Sequence[FileRecord], workers: int, threads: int) -> bool:
    """Fork a pool only for enough work, with more than one worker, from a single-threaded process:
    forking while other threads run (the MCP server's ``refresh_index``) can copy a lock one of them
    holds and deadlock the child."""
    enough = len(records) >= PARALLEL_MIN_FILES and sum(r.size for r in records) >= PARALLEL_MIN_BYTES
    return workers > 1 and enough and threads == 1


def _extract_pool(
    root: str,
    records,
    budget_ms: int,
    workers: int,
    with_text: bool = False,
    sources: Mapping[str, bytes] | None = None,
) -> Iterator[list[Extracted]]:
    sources = sources or {}
    for language in {r.language for r in records if has_query(r.language)}:
        compiled_query(language)  # compile once here; forked workers inherit the compiled queries
    if with_text:
        import numpy  # noqa: F401 -- imported once here too, not once per worker (``filetext.grams``)
    jobs = deque(
        [(r.path, r.language, sources.get(r.path)) for r in records[i : i + BATCH]]
        for i in range(0, len(records), BATCH)
    )
    hard_seconds = _hard_seconds(budget_ms)
    context = multiprocessing.get_context("fork")
    while jobs:
        with context.Pool(workers, initializer=gc.enable) as pool:  # leaving the block terminates them
            running: deque = deque()
            timed_out = False
            while jobs or running:
                while jobs and len(running) < workers * IN_FLIGHT:  # a bounded backlog bounds memory
                    job = jobs.popleft()
                    running.append((job, pool.apply_async(_extract_batch, (root, job, budget_ms, with_text))))
                job, handle = running.popleft()
                try:
                    batch = [
                        (unpack(packed), text) for packed, text in handle.get(timeout=hard_seconds * len(job))
                    ]
                except multiprocessing.TimeoutError:
                    batch = [
                        _extract_guarded(root, path, language, budget_ms, with_text, source)
                        for path, language, source in job
                    ]
                    jobs.extendleft(reversed([queued for queued, _ in running]))  # redone by a fresh pool
                    timed_out = True
                yield batch
                if timed_out:
                    break


def _extract_batch(root: str, job, budget_ms: int, with_text: bool) -> list[tuple]:
    """Runs in a worker; the results travel as tuples (see ``transport``)."""
    packed = []
    for path, language, source in job:
        extraction, text = _extract_one(root, path, language, budget_ms, with_text, source)
        packed.append((pack(extraction), text))
    return packed


def _extract_one(
    root: str,
    path: str,
    language: str | None,
    budget_ms: int,
    with_text: bool = False,
    source: bytes | None = None,
) -> Extracted:
    if source is None:
        source = (Path(root) / path).read_bytes()
    extraction = extract_source(path, language, source, budget_ms)
    if not with_text:
        return extraction, None
    # what the store would compute in the parent, computed here while the parent stores other files;
    # a chunk then travels with its words and no text (the store keeps the file's, not the chunk's)
    chunks = tuple(
        new_chunk((c.path, c.start_line, c.end_line, "", c.symbol, c.kind, search_words(c.text)))
        for c in extraction.chunks
    )
    return replace(extraction, chunks=chunks), FileText.of_source(source)


def _extract_guarded(
    root: str,
    path: str,
    language: str | None,
    budget_ms: int,
    with_text: bool = False,
    source: bytes | None = None,
) -> Extracted:
    outcome = run_guarded(
        _extract_one, (root, path, language, budget_ms, with_text, source), _hard_seconds(budget_ms)
    )
    if outcome.error:
        failed = FileExtraction(path=path, language=language, errors=(f"{path}: {outcome.error}",))
        return failed, FileText.of_source(
            source if source is not None else _regular_bytes(Path(root) / path)
        ) if with_text else None
    return outcome.value


def _regular_bytes(full: Path) -> bytes:
    """The file's bytes, or none when it is not a regular file (what hung may be a FIFO)."""
    try:
        return full.read_bytes() if S_ISREG(full.stat().st_mode) else b""
    except OSError:
        return b""


def _hard_seconds(budget_ms: int) -> float:
    return max(5.0, 3 * budget_ms / 1000)


_RESOLVER = None  # the resolver a resolution pool's workers inherit through the fork
_DONE = object()


def iter_resolved(
    resolver,
    paths: Sequence[str],
    references: int,
    workers: int | None = None,
    meanwhile: Iterator[object] | None = None,
) -> Iterator[list[Edge]]:
    """``resolver.resolve_file`` of each of ``paths``, a slice of files at a time, in order.

    With enough ``references`` the slices go to forked workers that inherit ``resolver`` (which
    holds every definition) and send their edges back as tuples, while the caller stores the slices
    already done. A file's edges depend on the definitions and its own references only (the type
    pass memoises per file: incremental equals clean), so they equal the in-process ones. When a
    slice misses its deadline, the rest is resolved in-process.

    ``meanwhile`` is the caller's own work in short steps: a step is taken whenever the next slice
    is not back yet. The workers run at a lower priority, so the caller, whose storing and steps
    nobody else can do, keeps a core while they share what is left (in-process, nothing runs
    meanwhile: what is left of the steps is the caller's)."""
    global _RESOLVER
    workers = worker_count() if workers is None else workers
    slices = deque(paths[i : i + RESOLVE_SLICE] for i in range(0, len(paths), RESOLVE_SLICE))
    if workers > 1 and references >= RESOLVE_MIN_REFERENCES and threading.active_count() == 1:
        _RESOLVER = resolver
        try:
            with multiprocessing.get_context("fork").Pool(workers, initializer=_yield_to_parent) as pool:
                running: deque = deque()
                while slices or running:
                    while slices and len(running) < workers * RESOLVE_IN_FLIGHT:
                        job = slices.popleft()
                        running.append((job, pool.apply_async(_resolve_slice, (job,))))
                    job, handle = running[0]
                    if meanwhile is not None and not handle.ready():
                        if next(meanwhile, _DONE) is not _DONE:
                            continue
                        meanwhile = None
                    running.popleft()
                    try:
                        yield unpack_edges(handle.get(timeout=RESOLVE_SECONDS))
                    except multiprocessing.TimeoutError:
                        slices.extendleft(reversed([job] + [queued for queued, _ in running]))
                        break
        finally:
            _RESOLVER = None
    for job in slices:
        yield _resolve_here(resolver, job)


def _yield_to_parent() -> None:
    """A resolution worker's initializer: a lower priority than the parent's."""
    os.nice(RESOLVE_NICE)


def _resolve_here(resolver, paths: Sequence[str]) -> list[Edge]:
    return [edge for path in paths for edge in resolver.resolve_file(path)]


def _resolve_slice(paths: Sequence[str]) -> list[tuple]:
    """Runs in a resolution worker."""
    return pack_edges(_resolve_here(_RESOLVER, paths))
