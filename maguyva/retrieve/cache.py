"""The file ranker's BM25F index, kept next to a SQLite index and updated when the files change.

The cache is a NumPy ``.npz`` (no pickles: ``allow_pickle=False``) named after the store,
keyed by a digest of every indexed file's content hash; it is written to a temporary file and
renamed, so a killed run leaves the old cache or the new one. PostgreSQL stores, unwritable
places and damaged caches are rebuilt in memory.

A cache made for an older set of files is updated for the changed files only: it keeps each
file's content hash and the field averages its pseudo-frequencies were computed with, drops the
postings of changed and deleted files (and of their definitions), adds those of changed and added
files computed with the same (frozen) averages, and renumbers files and definitions. Frozen
averages let BM25's length normalisation drift a little, so the index is rebuilt whole once the files
changed since the last full build pass ``REBUILD_SHARE`` of the files, or once a field's average over
the files as they are now (kept per file in the cache, so known without reading them) moves more than
``AVERAGE_DRIFT`` from the frozen one.
"""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from maguyva.capped import open_regular
from maguyva.retrieve.bm25f import DEF_FIELDS, FIELDS, ArrayPostings, FileIndex, averages, documents_of

if TYPE_CHECKING:
    from maguyva.store.base import Store

CACHE_VERSION = "bm25f-9"  # 3: definition-level BM25F; 4: stems drop a final e and a doubled consonant; 5: containers weigh 0.75; 6: sorted term arrays, file PageRank and kinds; 7: ASCII terms ≤ 48; 8: types and interfaces weigh half; 9: file hashes and field averages kept for updates
REBUILD_SHARE = 0.2  # files changed since the last full build, as a share of all files, that force one
AVERAGE_DRIFT = 0.1  # a field average's relative move from the frozen one that forces a full build
_DAMAGED = (
    OSError,
    ValueError,
    KeyError,
    IndexError,
    TypeError,
    AttributeError,
    ArithmeticError,
    zipfile.BadZipFile,
)

States = dict[str, tuple[int, int, str]]


def index_key(store: Store) -> str:
    return _key(store.file_states())


def _key(states: States) -> str:
    digest = hashlib.sha1(CACHE_VERSION.encode())
    for path, (_, _, content_hash) in sorted(states.items()):
        digest.update(f"{path}\0{content_hash}\n".encode())
    return digest.hexdigest()


def cache_path(location: str) -> Path | None:
    if "://" in location:
        return None
    return Path(location + ".rank.npz")


def load_file_index(store: Store, location: str) -> FileIndex:
    """The cached index when it matches the store's files, else the cache updated for the files that
    changed, else a fresh one (saved when possible)."""
    states = store.file_states()
    key = _key(states)
    place = cache_path(location)
    if place is not None:
        _remove_stale_temporaries(place)
    updated = None
    if place is not None and place.is_file():
        try:
            loaded = _read(place, key)
        except _DAMAGED:
            loaded = None
        if loaded is not None:
            return loaded
        try:
            updated = _update(place, store, states)
        except _DAMAGED:
            updated = None  # damaged: rebuilt below
    if updated is not None:
        index, drift = updated
    else:
        index, drift = FileIndex.build(documents_of(store, sorted(states))), 0
        add_file_facts(index, store)
    if place is not None:
        try:
            _write(place, key, index, [states[p][2] for p in index.paths], drift)
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
            with _opened(place) as data:
                if str(data["key"]) == index_key(store):
                    return
        except _DAMAGED:
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


@contextmanager
def _opened(place: Path) -> Iterator[Any]:
    """The cache's arrays, from a regular file at ``place`` itself: a symlink planted there (the store's
    folder may sit in a checkout) or a FIFO is refused, and the cache rebuilt over it."""
    with open_regular(place, follow=False) as handle, np.load(handle, allow_pickle=False) as data:
        yield data


def _read(place: Path, key: str) -> FileIndex | None:
    with _opened(place) as data:
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
        average, def_average = json.loads(str(data["averages"]))
    postings = ArrayPostings(terms, offsets, ids, values)
    symbols = ArrayPostings(symbol_terms, symbol_offsets, symbol_ids, symbol_values)
    index = FileIndex(paths, postings, symbols, symbol_file, symbol_factor)
    index.pagerank, index.kinds = pagerank, kinds
    index.averages = (average, def_average)
    return index


def _update(place: Path, store: Store, states: States) -> tuple[FileIndex, int] | None:
    """The cached index updated for the files whose content hash changed, were added or deleted, and
    the count of files changed since the last full build; None when a full build is due."""
    with _opened(place) as data:
        if str(data["version"]) != CACHE_VERSION:
            return None
        old_paths = json.loads(str(data["paths"]))
        hashes = json.loads(str(data["hashes"]))
        average, def_average = json.loads(str(data["averages"]))
        drift = int(data["drift"])
        files = tuple(data[name] for name in ("terms", "offsets", "ids", "values"))
        symbols = tuple(
            data[name] for name in ("symbol_terms", "symbol_offsets", "symbol_ids", "symbol_values")
        )
        symbol_file, symbol_factor = data["symbol_file"], data["symbol_factor"]
        sizes = data["lengths"]
    n_defs = len(symbol_file)
    if not (
        len(hashes) == len(old_paths) == len(set(old_paths))
        and sizes.shape == (len(old_paths), len(FIELDS) + len(DEF_FIELDS) + 1)
        and sorted(average) == sorted(FIELDS)
        and sorted(def_average) == sorted(DEF_FIELDS)
        and all(float(v) > 0 for v in [*average.values(), *def_average.values()])
        and len(symbol_factor) == n_defs
        and _well_formed(*files, len(old_paths))
        and _well_formed(*symbols, n_defs)
        and (n_defs == 0 or (symbol_file.min() >= 0 and symbol_file.max() < len(old_paths)))
    ):
        return None
    paths = sorted(states)
    old_hash = dict(zip(old_paths, hashes))
    fresh = [p for p in paths if old_hash.get(p) != states[p][2]]
    drift += len(fresh) + len(set(old_paths) - set(states))
    if drift > REBUILD_SHARE * len(paths):
        return None
    position = {p: i for i, p in enumerate(paths)}
    fresh_set = set(fresh)
    kept = np.asarray(  # old file id -> new file id, -1 for a changed or deleted file
        [position[p] if p in position and p not in fresh_set else -1 for p in old_paths], np.int64
    )
    frozen = ({f: float(v) for f, v in average.items()}, {f: float(v) for f, v in def_average.items()})
    added = FileIndex.build(documents_of(store, fresh), frozen)
    added_file = np.asarray([position[p] for p in fresh], np.int64)
    now = np.zeros((len(paths), sizes.shape[1]), dtype=np.float64)
    now[kept[kept >= 0]] = sizes[kept >= 0]
    now[added_file] = added.lengths
    if _moved(frozen, averages(now)) > AVERAGE_DRIFT:
        return None
    # definitions: the kept ones in their old order, the added ones after, then sorted by file (stable)
    kept_defs = np.flatnonzero(kept[symbol_file] >= 0) if n_defs else np.zeros(0, np.int64)
    all_file = np.concatenate([kept[symbol_file[kept_defs]], added_file[added.symbol_file]])
    all_factor = np.concatenate([symbol_factor[kept_defs], added.symbol_factor]).astype(np.float32)
    order = np.argsort(all_file, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    old_def = np.full(n_defs, -1, np.int64)
    old_def[kept_defs] = rank[: len(kept_defs)]
    index = FileIndex(
        paths,
        ArrayPostings(*_merge(files, kept, _flat(added.postings), added_file)),
        ArrayPostings(*_merge(symbols, old_def, _flat(added.symbol_postings), rank[len(kept_defs) :])),
        all_file[order].astype(np.int32),
        all_factor[order],
    )
    index.averages, index.lengths = frozen, now
    add_file_facts(index, store)
    return index, drift


def _moved(frozen: tuple[dict, dict], now: tuple[dict, dict]) -> float:
    """The largest relative move of a field average from the frozen one."""
    return max(
        abs(now[level][f] - frozen[level][f]) / frozen[level][f] for level in (0, 1) for f in frozen[level]
    )


def _well_formed(terms: np.ndarray, offsets: np.ndarray, ids: np.ndarray, values: np.ndarray, n: int) -> bool:
    """Flat postings as the cache stores them: terms strictly sorted, offsets monotone from 0 to the
    number of ids, one value per id, every id below ``n``."""
    return (
        terms.ndim == offsets.ndim == ids.ndim == values.ndim == 1
        and len(offsets) == len(terms) + 1
        and offsets[0] == 0
        and offsets[-1] == len(ids) == len(values)
        and bool(np.all(np.diff(offsets) >= 0))
        and (len(terms) < 2 or bool(np.all(terms[1:] > terms[:-1])))
        and (len(ids) == 0 or (ids.min() >= 0 and ids.max() < n))
    )


def _merge(
    old: tuple[np.ndarray, ...], old_map: np.ndarray, new: tuple[np.ndarray, ...], new_map: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Two flat postings made one: the old ids renumbered by ``old_map`` (-1 drops a posting; the kept
    keep their order), the new by ``new_map``; terms sorted, each term's ids ascending, terms left
    without postings dropped. The few new postings are slotted into the old, which stay in place."""
    old_terms, old_offsets, old_ids, old_values = old
    new_terms, new_offsets, new_ids, new_values = new
    n_old = len(old_terms)
    # the new terms not already there slot in between the old (both sorted and unique)
    width = np.promote_types(old_terms.dtype, new_terms.dtype)
    old_terms, new_terms = old_terms.astype(width), new_terms.astype(width)
    at = np.searchsorted(old_terms, new_terms)
    there = at < n_old
    there[there] = old_terms[at[there]] == new_terms[there]
    slots = at[~there]
    every = np.insert(old_terms, slots, new_terms[~there])
    moved = np.arange(n_old) + np.searchsorted(slots, np.arange(n_old), side="right")
    old_to = old_map[old_ids] if len(old_ids) else np.zeros(0, np.int64)
    keep = old_to >= 0
    rows = moved[np.repeat(np.arange(n_old), np.diff(old_offsets))[keep]]
    ids, values = old_to[keep], old_values[keep]
    stride = max(int(old_map.max(initial=-1)), int(new_map.max(initial=-1))) + 1
    key = rows * stride + ids
    if len(key) > 1 and not bool(np.all(key[1:] > key[:-1])):
        raise ValueError("the cached postings are out of order")
    new_rows = np.searchsorted(every, new_terms)[np.repeat(np.arange(len(new_terms)), np.diff(new_offsets))]
    new_to = new_map[new_ids] if len(new_ids) else np.zeros(0, np.int64)
    order = np.argsort(new_rows * stride + new_to)
    place = np.searchsorted(key, (new_rows * stride + new_to)[order])
    rows = np.insert(rows, place, new_rows[order])
    ids = np.insert(ids, place, new_to[order])
    values = np.insert(values, place, new_values[order])
    counts = np.bincount(rows, minlength=len(every))
    used = counts > 0
    offsets = np.zeros(int(used.sum()) + 1, dtype=np.int64)
    np.cumsum(counts[used], out=offsets[1:])
    return every[used], offsets, ids.astype(np.int32), values.astype(np.float32)


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


def _flat(postings) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Postings as the cache stores them: sorted ASCII terms, offsets, then the ids and values of every
    term in turn."""
    if isinstance(postings, ArrayPostings):
        return postings.arrays
    terms = sorted(postings)  # sorted: the reader finds a term by binary search
    offsets = np.zeros(len(terms) + 1, dtype=np.int64)
    np.cumsum([len(postings[t][0]) for t in terms], out=offsets[1:])
    if not terms:
        return _ascii(terms), offsets, np.zeros(0, np.int32), np.zeros(0, np.float32)
    ids = np.concatenate([postings[t][0] for t in terms])
    values = np.concatenate([postings[t][1] for t in terms])
    return _ascii(terms), offsets, ids, values


def _write(place: Path, key: str, index: FileIndex, hashes: list[str], drift: int) -> None:
    terms, offsets, ids, values = _flat(index.postings)
    symbol_terms, symbol_offsets, symbol_ids, symbol_values = _flat(index.symbol_postings)
    temporary = place.with_name(place.name + f".{os.getpid()}.tmp")
    with open(temporary, "wb") as out:
        np.savez(
            out,
            key=np.asarray(key),
            version=np.asarray(CACHE_VERSION),
            paths=np.asarray(json.dumps(index.paths)),
            hashes=np.asarray(json.dumps(hashes)),
            averages=np.asarray(json.dumps(index.averages)),
            drift=np.asarray(drift),
            lengths=index.lengths,
            terms=terms,
            offsets=offsets,
            ids=ids,
            values=values,
            symbol_terms=symbol_terms,
            symbol_offsets=symbol_offsets,
            symbol_ids=symbol_ids,
            symbol_values=symbol_values,
            symbol_file=index.symbol_file,
            symbol_factor=index.symbol_factor,
            pagerank=index.pagerank if index.pagerank is not None else np.zeros(len(index.paths)),
            kinds=index.kinds if index.kinds is not None else np.asarray([""] * len(index.paths), dtype=str),
        )
    os.replace(temporary, place)
