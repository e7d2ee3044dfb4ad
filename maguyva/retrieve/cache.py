"""The file ranker's BM25F index, kept next to a SQLite index and rebuilt when the files change.

The cache is a NumPy ``.npz`` (no pickles: ``allow_pickle=False``) named after the store,
keyed by a digest of every indexed file's content hash; it is written to a temporary file and
renamed, so a killed run leaves the old cache or the new one. PostgreSQL stores, unwritable
places and stale or damaged caches are rebuilt in memory.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from maguyva.retrieve.bm25f import ArrayPostings, FileIndex, build_from_store

if TYPE_CHECKING:
    from maguyva.store.base import Store

CACHE_VERSION = "bm25f-8"  # 3: definition-level BM25F; 4: stems drop a final e and a doubled consonant; 5: containers weigh 0.75; 6: sorted term arrays, file PageRank and kinds; 7: ASCII terms ≤ 48; 8: types and interfaces weigh half


def index_key(store: Store) -> str:
    digest = hashlib.sha1(CACHE_VERSION.encode())
    for path, (_, _, content_hash) in sorted(store.file_states().items()):
        digest.update(f"{path}\0{content_hash}\n".encode())
    return digest.hexdigest()


def cache_path(location: str) -> Path | None:
    if "://" in location:
        return None
    return Path(location + ".rank.npz")


def load_file_index(store: Store, location: str) -> FileIndex:
    """The cached index when it matches the store's files, else a fresh one (saved when possible)."""
    key = index_key(store)
    place = cache_path(location)
    if place is not None:
        _remove_stale_temporaries(place)
    if place is not None and place.is_file():
        try:
            loaded = _read(place, key)
        except (OSError, ValueError, KeyError):
            loaded = None
        if loaded is not None:
            return loaded
    index = build_from_store(store)
    add_file_facts(index, store)
    if place is not None:
        try:
            _write(place, key, index)
        except OSError:
            pass
    return index


def prepare(store: Store, location: str) -> None:
    """Make sure the cache beside a SQLite store matches its files, reading only the cache's key when it
    does (an index run that changed nothing pays one read of the file states, not the whole cache)."""
    place = cache_path(location)
    if place is None:
        return
    if place.is_file():
        try:
            with np.load(place, allow_pickle=False) as data:
                if str(data["key"]) == index_key(store):
                    return
        except (OSError, ValueError, KeyError):
            pass  # damaged: rebuilt below
    load_file_index(store, location)


def add_file_facts(index: FileIndex, store: Store) -> None:
    """Each file's PageRank and demotion kind, read once here rather than on the first question."""
    from maguyva.retrieve.rank import file_kind

    found = store.centralities([(path, None) for path in index.paths])
    records = store.file_records(index.paths)
    index.pagerank = np.asarray(
        [found[(p, None)].pagerank if (p, None) in found else 0.0 for p in index.paths], dtype=np.float64
    )
    index.kinds = np.asarray(
        [
            file_kind(p, records[p].flags, records[p].language) or "" if p in records else ""
            for p in index.paths
        ],
        dtype=str,
    )


def _read(place: Path, key: str) -> FileIndex | None:
    with np.load(place, allow_pickle=False) as data:
        if str(data["key"]) != key:
            return None
        paths = json.loads(str(data["paths"]))
        terms = data["terms"]
        offsets, ids, values = data["offsets"], data["ids"], data["values"]
        symbol_terms = data["symbol_terms"]
        pagerank, kinds = data["pagerank"], data["kinds"]
        symbol_offsets, symbol_ids, symbol_values = (
            data["symbol_offsets"],
            data["symbol_ids"],
            data["symbol_values"],
        )
        symbol_file, symbol_factor = data["symbol_file"], data["symbol_factor"]
    postings = ArrayPostings(terms, offsets, ids, values)
    symbols = ArrayPostings(symbol_terms, symbol_offsets, symbol_ids, symbol_values)
    index = FileIndex(paths, postings, symbols, symbol_file, symbol_factor)
    index.pagerank, index.kinds = pagerank, kinds
    return index


def _remove_stale_temporaries(place: Path) -> None:
    """Temporary files a killed writer left beside the cache (``<cache>.<pid>.tmp`` of a dead pid)."""
    for left in place.parent.glob(place.name + ".*.tmp"):
        pid = left.name[len(place.name) + 1 : -len(".tmp")]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            try:
                left.unlink(missing_ok=True)
            except OSError:
                pass  # a read-only place: the next writer there removes it
        except OSError:
            pass  # alive under another user, or not ours to judge


def _ascii(terms: list[str]) -> np.ndarray:
    """Sorted search tokens as fixed-width ASCII bytes (a quarter of NumPy's unicode width)."""
    return np.asarray([t.encode("ascii", "replace") for t in terms], dtype=bytes)


def _write(place: Path, key: str, index: FileIndex) -> None:
    terms = sorted(index.postings)  # sorted: the reader finds a term by binary search
    sizes = [len(index.postings[t][0]) for t in terms]
    offsets = np.zeros(len(terms) + 1, dtype=np.int64)
    np.cumsum(sizes, out=offsets[1:])
    ids = np.concatenate([index.postings[t][0] for t in terms]) if terms else np.zeros(0, np.int32)
    values = np.concatenate([index.postings[t][1] for t in terms]) if terms else np.zeros(0, np.float32)
    symbol_terms = sorted(index.symbol_postings)
    symbol_offsets = np.zeros(len(symbol_terms) + 1, dtype=np.int64)
    np.cumsum([len(index.symbol_postings[t][0]) for t in symbol_terms], out=symbol_offsets[1:])
    symbol_ids, symbol_values = (
        (
            np.concatenate([index.symbol_postings[t][0] for t in symbol_terms]),
            np.concatenate([index.symbol_postings[t][1] for t in symbol_terms]),
        )
        if symbol_terms
        else (np.zeros(0, np.int32), np.zeros(0, np.float32))
    )
    temporary = place.with_name(place.name + f".{os.getpid()}.tmp")
    with open(temporary, "wb") as out:
        np.savez(
            out,
            key=np.asarray(key),
            paths=np.asarray(json.dumps(index.paths)),
            terms=_ascii(terms),
            offsets=offsets,
            ids=ids,
            values=values,
            symbol_terms=_ascii(symbol_terms),
            symbol_offsets=symbol_offsets,
            symbol_ids=symbol_ids,
            symbol_values=symbol_values,
            symbol_file=index.symbol_file,
            symbol_factor=index.symbol_factor,
            pagerank=index.pagerank if index.pagerank is not None else np.zeros(len(index.paths)),
            kinds=index.kinds if index.kinds is not None else np.asarray([""] * len(index.paths), dtype=str),
        )
    os.replace(temporary, place)
