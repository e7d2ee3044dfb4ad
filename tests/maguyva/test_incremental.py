"""Incremental indexing equals a clean index of the same tree, edit by edit."""

from __future__ import annotations

from index_helpers import commit_all, dump_index, write_tree

from maguyva.index.pipeline import index_repository

BEFORE = {
    "pkg/__init__.py": "",
    "pkg/a.py": "class Base:\n    def run(self):\n        return helper()\n\n\ndef helper():\n    return 1\n",
    "pkg/b.py": "from pkg.a import helper, Base\n\n\nclass Child(Base):\n    def go(self):\n"
    "        self.run()\n        self.stop()\n        return helper()\n",
    "pkg/c.py": "def main():\n    return widget()\n",
    "pkg/deep.py": "class Deep:\n    def deep(self):\n        return 1\n",
    "pkg/mid.py": "class Mid:\n    pass\n",
    "pkg/f.py": "from pkg.mid import Mid\n\n\nclass F(Mid):\n    def go(self):\n        return self.deep()\n",
    "pkg/g.py": "from pkg.f import F\n\n\nclass G(F):\n    def go(self):\n        return self.deep()\n",
    "pkg/e.py": "from pkg import b\n\n\ndef use():\n    return b.Child()\n",
    "docs/readme.md": "# Readme\n\nSee pkg.\n",
}


def _edit(repo):
    # shift lines, rename helper, define stop and the previously undefined widget
    write_tree(
        repo,
        {
            "pkg/a.py": "# moved down\n\n\nclass Base:\n    def run(self):\n        return helper2()\n\n"
            "    def stop(self):\n        return 0\n\n\ndef helper2():\n    return 1\n\n\n"
            "def widget():\n    return 2\n",
            "pkg/mid.py": "from pkg.deep import Deep\n\n\nclass Mid(Deep):\n    pass\n",
            "pkg/extra.py": "from pkg.a import Base\n\n\nclass Extra(Base):\n    pass\n",
        },
    )
    (repo / "pkg/b.py").rename(repo / "pkg/b2.py")
    (repo / "docs/readme.md").unlink()


def _clean(repo, tmp_path):
    index_repository(repo, tmp_path / "clean.db", full=True)
    return dump_index(tmp_path / "clean.db")


def test_edits_adds_renames_and_deletes_give_the_same_index_as_a_clean_run(git_repo, tmp_path):
    write_tree(git_repo, BEFORE)
    commit_all(git_repo)
    store = tmp_path / "inc.db"
    index_repository(git_repo, store)
    _edit(git_repo)
    summary = index_repository(git_repo, store)
    assert (summary.mode, summary.added, summary.changed, summary.deleted, summary.renamed) == (
        "incremental",
        2,
        2,
        2,
        1,
    )
    assert dump_index(store) == _clean(git_repo, tmp_path)


def test_references_follow_the_change_into_unchanged_files(git_repo, tmp_path):
    write_tree(git_repo, BEFORE)
    store = tmp_path / "inc.db"
    index_repository(git_repo, store)
    _edit(git_repo)
    index_repository(git_repo, store)
    edges = {(e[1], e[2], e[7]): (e[4], e[5], e[8]) for e in dump_index(store)["edges"]}
    # became defined (not imported: a unique repository-wide name, so a guess)
    assert edges[("pkg/c.py", 2, "widget")] == ("pkg/a.py", 16, "inferred")
    assert edges[("pkg/f.py", 6, "deep")] == ("pkg/deep.py", 2, "resolved")  # base class gained a base
    assert edges[("pkg/g.py", 6, "deep")] == ("pkg/deep.py", 2, "resolved")  # ... two levels down
    # the submodule it imported was renamed away: the import now lands on the package itself
    assert edges[("pkg/e.py", 1, "b")] == ("pkg/__init__.py", 1, "resolved")


def test_a_second_run_without_changes_touches_nothing(git_repo, tmp_path):
    write_tree(git_repo, BEFORE)
    store = tmp_path / "inc.db"
    index_repository(git_repo, store)
    before = dump_index(store)
    summary = index_repository(git_repo, store)
    assert (summary.added, summary.changed, summary.deleted, summary.reresolved) == (0, 0, 0, 0)
    assert dump_index(store) == before


def test_a_one_file_edit_re_extracts_only_that_file(git_repo, tmp_path):
    write_tree(git_repo, BEFORE)
    store = tmp_path / "inc.db"
    index_repository(git_repo, store)
    write_tree(git_repo, {"pkg/c.py": "def main():\n    return 3\n"})
    summary = index_repository(git_repo, store)
    assert (summary.added, summary.changed, summary.unchanged, summary.reresolved) == (0, 1, 9, 1)
    assert dump_index(store) == _clean(git_repo, tmp_path)


SIBLING_BASES = {  # the shape of the stdlib's test/test_importlib/fixtures.py (issue #14 item 13)
    "pkg/__init__.py": "",
    "pkg/a_user.py": "from pkg.fixtures import DistInfoPkg\n\n\nclass UsesIt(DistInfoPkg):\n"
    "    def setUp(self):\n        super().setUp()\n",
    "pkg/fixtures.py": "class Fixtures:\n    def setUp(self):\n        pass\n\n\n"
    "class SiteDir(Fixtures):\n    def setUp(self):\n        super().setUp()\n\n\n"
    "class OnSysPath(Fixtures):\n    def setUp(self):\n        super().setUp()\n\n\n"
    "class DistInfoPkg(OnSysPath, SiteDir):\n    pass\n",
}


def test_a_class_reached_through_a_sibling_base_keeps_its_own_bases(git_repo, tmp_path):
    # resolving pkg/a_user.py first walks DistInfoPkg → OnSysPath → Fixtures, then SiteDir: SiteDir's
    # own base list must still hold Fixtures, whichever file is resolved first
    write_tree(git_repo, SIBLING_BASES)
    commit_all(git_repo)
    store = tmp_path / "inc.db"
    index_repository(git_repo, store)
    edges = {(e[1], e[2], e[7]): (e[4], e[5], e[8]) for e in dump_index(store)["edges"]}
    assert edges[("pkg/fixtures.py", 8, "setUp")] == ("pkg/fixtures.py", 2, "resolved")
    assert edges[("pkg/fixtures.py", 13, "setUp")] == ("pkg/fixtures.py", 2, "resolved")
    write_tree(git_repo, {"pkg/a_user.py": SIBLING_BASES["pkg/a_user.py"] + "\n\n# touched\n"})
    index_repository(git_repo, store)
    assert dump_index(store) == _clean(git_repo, tmp_path)
    index_repository(git_repo, store)  # and a run with no change keeps it
    assert dump_index(store) == _clean(git_repo, tmp_path / "again")


def test_a_changed_return_value_reaches_the_files_that_call_through_it(git_repo, tmp_path):
    # c.py's edge depends on b.py's return statement, not on any name b.py defines
    write_tree(
        git_repo,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "class A:\n    def m(self):\n        return 1\n\n\n"
            "class B:\n    def m(self):\n        return 2\n",
            "pkg/b.py": "from pkg.a import A, B\n\n\ndef make():\n    return A()\n",
            "pkg/c.py": "from pkg.b import make\n\n\ndef use():\n    return make().m()\n",
        },
    )
    store = tmp_path / "inc.db"
    index_repository(git_repo, store)
    write_tree(git_repo, {"pkg/b.py": "from pkg.a import A, B\n\n\ndef make():\n    return B()\n"})
    index_repository(git_repo, store)
    edges = {(e[1], e[2], e[7]): (e[6], e[8]) for e in dump_index(store)["edges"]}
    assert edges[("pkg/c.py", 5, "m")] == ("pkg.a.B.m", "resolved")
    assert dump_index(store) == _clean(git_repo, tmp_path)


def test_strings_no_row_uses_are_pruned_once_enough_are_new(git_repo, tmp_path, monkeypatch):
    """An incremental run adds strings and deletes none in passing; the commit after enough are new
    drops the unused ones, and the index still reads as a clean one."""
    import sqlite3

    from maguyva.store import sqlite_names

    write_tree(
        git_repo, {"a.py": "def alpha_one():\n    return beta_two()\n", "b.py": "def beta_two():\n    pass\n"}
    )
    commit_all(git_repo)
    store = tmp_path / "index.db"
    index_repository(git_repo, store)
    monkeypatch.setattr(sqlite_names, "PRUNE_MIN", 0)
    monkeypatch.setattr(sqlite_names, "PRUNE_GROWTH", 0.0)
    write_tree(git_repo, {"a.py": "def gamma_three():\n    return beta_two()\n"})
    index_repository(git_repo, store)
    con = sqlite3.connect(store)
    try:
        names = {text for (text,) in con.execute("SELECT text FROM names")}
    finally:
        con.close()
    assert "a.alpha_one" not in names
    assert "alpha_one" not in names
    assert "a.gamma_three" in names
    assert dump_index(store) == _clean(git_repo, tmp_path)


def test_a_clean_index_counts_its_strings_without_looking_for_unused_ones(git_repo, tmp_path, monkeypatch):
    """A clean run's strings were all numbered for the rows it wrote: its commit sets the baseline and
    never runs the query that reads every id column; the next incremental run still prunes."""
    import sqlite3

    from maguyva.store import sqlite as sqlite_store
    from maguyva.store import sqlite_names

    statements = []
    connect = sqlite3.connect

    def traced(*args, **kwargs):
        db = connect(*args, **kwargs)
        db.set_trace_callback(statements.append)
        return db

    monkeypatch.setattr(sqlite_store.sqlite3, "connect", traced)
    monkeypatch.setattr(sqlite_names, "PRUNE_MIN", 0)
    monkeypatch.setattr(sqlite_names, "PRUNE_GROWTH", 0.0)  # any new string would call for a prune
    write_tree(
        git_repo, {"a.py": "def alpha_one():\n    return beta_two()\n", "b.py": "def beta_two():\n    pass\n"}
    )
    commit_all(git_repo)
    store = tmp_path / "index.db"
    for full in (False, True):  # a first index, then a rebuild of it
        statements.clear()
        index_repository(git_repo, store, full=full)
        assert not [s for s in statements if s.startswith("DELETE FROM names")]
    write_tree(git_repo, {"a.py": "def gamma_three():\n    return beta_two()\n"})
    statements.clear()
    index_repository(git_repo, store)
    assert [s for s in statements if s.startswith("DELETE FROM names")]
    assert dump_index(store) == _clean(git_repo, tmp_path)
