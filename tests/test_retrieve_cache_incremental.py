"""The ranker's BM25F cache is updated for the files an index run changed, not rebuilt whole: the updated
index ranks like a full rebuild, tokenises only the changed files, and is rebuilt whole once too many
files changed since the last full build or when the cache is damaged."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import maguyva.retrieve.bm25f as bm25f
from maguyva.api import Maguyva
from maguyva.index.pipeline import index_repository
from maguyva.retrieve.bm25f import FileIndex, documents_of
from maguyva.retrieve.cache import REBUILD_SHARE, add_file_facts, cache_path, load_file_index
from maguyva.retrieve.query import tokens
from tests.conftest import git

TOPICS = [
    ("invoice", "tax", "ledger"),
    ("charge", "card", "payment"),
    ("parse", "token", "grammar"),
    ("render", "template", "html"),
    ("cache", "evict", "memory"),
    ("socket", "packet", "network"),
    ("password", "hash", "salt"),
    ("schedule", "cron", "timer"),
    ("image", "pixel", "resize"),
    ("queue", "worker", "retry"),
]
N_FILES = 30
QUERIES = [
    "charge the card payment",
    "parse a grammar token",
    "evict memory from the cache",
    "hash a password with salt",
    "retry a queue worker",
    "resize image pixels",
    "shipping parcel label",
]


def _module(i: int) -> str:
    a, b, c = TOPICS[i % len(TOPICS)]
    return (
        f'"""Helpers that {a} the {b} for the {c} ({i})."""\n\n\n'
        f"class {a.title()}{b.title()}{i}:\n"
        f'    """Keeps the {c} state."""\n\n'
        f"    def {a}_{b}_{i}(self, {c}):\n"
        f'        """{a.title()} a {b} with its {c}."""\n'
        f"        return {c}.{b}_{i} + {i}\n\n\n"
        f"def {c}_{i}_helper(value):\n"
        f"    # {c} value {i}\n"
        f"    return [value] * {i % 7 + 1}\n"
    )


def _commit(repo: Path) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "change")


@pytest.fixture
def indexed(git_repo: Path):
    for i in range(N_FILES):
        (git_repo / f"mod_{i:02d}.py").write_text(_module(i))
    _commit(git_repo)
    index_repository(git_repo)
    api = Maguyva.open(git_repo)
    yield git_repo, api
    api.close()


def _full(api) -> FileIndex:
    """The index a full build makes from the store as it is now."""
    index = FileIndex.build(documents_of(api.store, sorted(api.store.file_states())))
    add_file_facts(index, api.store)
    return index


def _cached(api) -> dict[str, np.ndarray]:
    with np.load(cache_path(api.store_location), allow_pickle=False) as data:
        return {name: data[name] for name in data.files}


def _assert_well_formed(index: FileIndex) -> None:
    for postings, n in ((index.postings, len(index.paths)), (index.symbol_postings, len(index.symbol_file))):
        terms, offsets, ids, values = postings.arrays
        assert len(terms)
        assert bool(np.all(terms[1:] > terms[:-1])), "terms strictly sorted"
        assert offsets[0] == 0
        assert offsets[-1] == len(ids) == len(values)
        assert bool(np.all(np.diff(offsets) > 0)), "every term keeps a posting"
        assert ids.min() >= 0
        assert ids.max() < n
        for row in range(len(terms)):  # each term's ids ascending, no id twice
            assert bool(np.all(np.diff(ids[offsets[row] : offsets[row + 1]]) > 0))
    assert bool(np.all(np.diff(index.symbol_file) >= 0)), "definitions grouped by file, in file order"
    assert index.symbol_file.max() < len(index.paths)
    assert len(index.pagerank) == len(index.kinds) == len(index.paths)


def _top(index: FileIndex, query: str, k: int = 3) -> tuple[list[str], list[tuple[str, int]]]:
    weights = {t: 1.0 for t in tokens(query)}
    files = index.score(weights)
    top_files = [index.paths[i] for i in np.argsort(-files, kind="stable")[:k] if files[i] > 0]
    per_symbol = index.symbol_scores(weights)
    top_defs = []
    for s in np.argsort(-per_symbol, kind="stable")[:k]:
        if per_symbol[s] > 0:
            file = int(index.symbol_file[s])
            first = int(np.searchsorted(index.symbol_file, file))
            top_defs.append((index.paths[file], int(s) - first))  # (file, the definition's place in it)
    return top_files, top_defs


def _count_tokenised(monkeypatch) -> list[str]:
    seen: list[str] = []
    real = bm25f.file_fields

    def counting(path, *args, **kwargs):
        seen.append(path)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(bm25f, "file_fields", counting)
    return seen


def test_an_update_ranks_like_a_full_rebuild_and_tokenises_only_the_changed_files(indexed, monkeypatch):
    repo, api = indexed
    before = _cached(api)
    assert int(before["drift"]) == 0
    (repo / "mod_03.py").write_text(
        _module(3) + "\n\ndef shipping_parcel_label(parcel):\n    return parcel\n"
    )
    (repo / "mod_new.py").write_text(
        '"""Print the shipping label of a parcel."""\n\n\ndef label(parcel):\n    pass\n'
    )
    (repo / "mod_07.py").unlink()
    _commit(repo)
    seen = _count_tokenised(monkeypatch)
    index_repository(repo)  # prepares the ranker: the cache is updated here
    assert sorted(seen) == ["mod_03.py", "mod_new.py"]
    after = _cached(api)
    assert int(after["drift"]) == 3  # one edited, one added, one deleted
    assert str(after["averages"]) == str(before["averages"])  # frozen until the next full build

    seen.clear()
    updated = load_file_index(api.store, api.store_location)  # read back, nothing tokenised
    assert seen == []
    _assert_well_formed(updated)
    assert updated.paths == sorted(api.store.file_states())
    assert "mod_07.py" not in updated.paths
    assert "mod_new.py" in updated.paths

    # exactly what a full build with the same (frozen) averages makes
    frozen = FileIndex.build(documents_of(api.store, updated.paths), updated.averages)
    add_file_facts(frozen, api.store)
    for mine, theirs in (
        (updated.postings, frozen.postings),
        (updated.symbol_postings, frozen.symbol_postings),
    ):
        assert sorted(mine) == sorted(theirs)
        for term in theirs:
            assert np.array_equal(mine[term][0], theirs[term][0]), term
            assert np.allclose(mine[term][1], theirs[term][1]), term
    assert np.array_equal(updated.symbol_file, frozen.symbol_file)
    assert np.array_equal(updated.symbol_factor, frozen.symbol_factor)
    assert np.array_equal(updated.pagerank, frozen.pagerank)
    assert list(updated.kinds) == list(frozen.kinds)

    # and it ranks the same top files and definitions as a full rebuild
    rebuilt = _full(api)
    for query in QUERIES:
        assert _top(updated, query) == _top(rebuilt, query), query
    assert set(_top(updated, "shipping parcel label")[0][:2]) == {"mod_03.py", "mod_new.py"}


def test_passing_the_share_of_changed_files_rebuilds_the_whole_index(indexed, monkeypatch):
    repo, api = indexed
    limit = int(REBUILD_SHARE * N_FILES)
    for i in range(limit):  # up to the share: updated
        (repo / f"mod_{i:02d}.py").write_text(_module(i) + f"\n# edit {i}\n")
    _commit(repo)
    seen = _count_tokenised(monkeypatch)
    index_repository(repo)
    assert len(seen) == limit
    assert int(_cached(api)["drift"]) == limit
    (repo / "mod_29.py").write_text(_module(29) + "\n# one more\n")  # past it: the whole index again
    _commit(repo)
    seen.clear()
    index_repository(repo)
    assert len(seen) == N_FILES
    cached = _cached(api)
    assert int(cached["drift"]) == 0
    index = load_file_index(api.store, api.store_location)
    _assert_well_formed(index)
    assert index.averages == _full(api).averages  # fresh averages, not the frozen ones
    for query in QUERIES:
        assert _top(index, query) == _top(_full(api), query)


def test_a_change_that_moves_a_field_average_rebuilds_the_whole_index(indexed, monkeypatch):
    repo, api = indexed
    # one file of 31, far under the share, but its one long function moves the definitions' body average
    body = "\n".join(f"    step_{i} = compute_{i}(step_{i - 1})" for i in range(1, 400))
    (repo / "long.py").write_text(f"def long_pipeline(step_0):\n{body}\n    return step_399\n")
    _commit(repo)
    seen = _count_tokenised(monkeypatch)
    index_repository(repo)
    assert len(seen) == N_FILES + 2  # the new file for the update, then every file for the full build
    assert int(_cached(api)["drift"]) == 0
    index = load_file_index(api.store, api.store_location)
    assert index.averages == _full(api).averages
    (repo / "mod_05.py").write_text(_module(5) + "\n# edited\n")  # a small edit after it: updated again
    _commit(repo)
    seen.clear()
    index_repository(repo)
    assert seen == ["mod_05.py"]


@pytest.mark.parametrize("damage", ["truncated", "ids_out_of_range", "zero_averages", "temporary_left"])
def test_a_damaged_or_killed_cache_is_rebuilt_whole(indexed, monkeypatch, damage):
    repo, api = indexed
    place = cache_path(api.store_location)
    if damage == "truncated":
        place.write_bytes(place.read_bytes()[:2000])
    elif damage == "ids_out_of_range":  # a well-read file whose postings point past the files
        arrays = _cached(api)
        arrays["ids"] = arrays["ids"] + N_FILES
        with open(place, "wb") as out:
            np.savez(out, **arrays)
    elif damage == "zero_averages":  # well-formed arrays, averages no build could have made
        arrays = _cached(api)
        arrays["averages"] = np.asarray(
            json.dumps([dict.fromkeys(bm25f.FIELDS, 0), dict.fromkeys(bm25f.DEF_FIELDS, 0)])
        )
        with open(place, "wb") as out:
            np.savez(out, **arrays)
    else:  # a writer killed mid-way: its temporary file beside the old cache
        place.with_name(place.name + ".999999.tmp").write_bytes(b"PK\x03\x04 half a zip")
    (repo / "mod_05.py").write_text(_module(5) + "\n# edited\n")
    _commit(repo)
    seen = _count_tokenised(monkeypatch)
    index_repository(repo)
    if damage == "temporary_left":  # the old cache is intact: updated, the dead writer's file removed
        assert seen == ["mod_05.py"]
        assert not place.with_name(place.name + ".999999.tmp").exists()
    else:
        assert len(seen) == N_FILES
        assert int(_cached(api)["drift"]) == 0
    index = load_file_index(api.store, api.store_location)
    _assert_well_formed(index)
    for query in QUERIES:
        assert _top(index, query) == _top(_full(api), query)
