"""The file ranker's cache (``<index>.rank.npz``) is data, never code: a pickled or damaged cache
is refused and rebuilt from the store, and the answer is unchanged."""

from __future__ import annotations

import pickle

import numpy as np

from maguyva.api import Maguyva
from maguyva.index.pipeline import index_repository
from maguyva.retrieve.cache import cache_path, load_file_index
from tests.conftest import git


class Boom:
    def __reduce__(self):
        return (exec, ("raise SystemExit('pickle ran')",))


def test_a_pickled_or_damaged_ranker_cache_is_rebuilt_not_loaded(git_repo):
    (git_repo / "app.py").write_text("def charge_card(amount):\n    return amount\n")
    git(git_repo, "add", "-A")
    git(git_repo, "commit", "-qm", "init")
    index_repository(git_repo)
    api = Maguyva.open(git_repo)
    api.embedding_settings = None
    try:
        before = api.intelligent_search("how is the card charged")["results"]
        place = cache_path(api.store_location)
        assert place.is_file()
        with open(place, "wb") as out:  # an object array only loads through pickle
            np.savez(
                out,
                key=np.array([Boom()], dtype=object),
                paths=np.array([pickle.dumps(Boom())], dtype=object),
            )
        index = load_file_index(api.store, api.store_location)
        assert index.paths == ["app.py"]
        place.write_bytes(b"\x93NUMPY garbage")
        assert load_file_index(api.store, api.store_location).paths == ["app.py"]
        fresh = Maguyva.open(git_repo)
        fresh.embedding_settings = None
        assert [r["citation"] for r in fresh.intelligent_search("how is the card charged")["results"]] == [
            r["citation"] for r in before
        ]
        fresh.close()
    finally:
        api.close()


def test_a_symlink_or_fifo_where_the_ranker_cache_lives_is_never_read_through(git_repo, tmp_path):
    """The store's folder may sit in a checkout: a cache path planted as a link to a valid cache elsewhere
    (or as a FIFO, which would block a reader for ever) is refused, and a real cache written in its place."""
    import os

    (git_repo / "app.py").write_text("def charge_card(amount):\n    return amount\n")
    git(git_repo, "add", "-A")
    git(git_repo, "commit", "-qm", "init")
    index_repository(git_repo)
    api = Maguyva.open(git_repo)
    try:
        place = cache_path(api.store_location)
        outside = tmp_path / "elsewhere.rank.npz"
        outside.write_bytes(place.read_bytes())  # a well-formed cache with this very key
        before = outside.read_bytes()
        place.unlink()
        place.symlink_to(outside)
        assert load_file_index(api.store, api.store_location).paths == ["app.py"]
        assert not place.is_symlink()  # replaced by a file of our own
        assert outside.read_bytes() == before  # the link's target untouched
        place.unlink()
        os.mkfifo(place)
        assert load_file_index(api.store, api.store_location).paths == ["app.py"]  # not blocked
        assert place.is_file()
    finally:
        api.close()
