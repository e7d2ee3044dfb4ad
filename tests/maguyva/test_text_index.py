"""The compressed text and gram-token literal index (schema 7), the git-listed scan, reading once."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from index_helpers import commit_all, dump_index, write_tree

from maguyva.index.pipeline import index_repository
from maguyva.index.scan import scan_repository
from maguyva.models import FileExtraction, FileRecord
from maguyva.store.filetext import FileText, gram_query, grams
from maguyva.store.lines import matching_lines
from maguyva.store.sqlite import SQLiteStore


def test_a_literal_s_grams_are_a_subset_of_every_text_that_holds_it():
    rng = random.Random(7)
    alphabet = "abcXYZ_ (é\u0130\u00df\u4e2d\n"  # İ lower-cases to two code points, ß and 中 are multi-byte
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
        start = rng.randint(0, len(text))
        needle = text[start : start + rng.randint(1, 12)]
        query = gram_query(needle)
        if query is None:
            assert len(needle.lower().encode()) < 3
            continue
        assert set(query.split(" AND ")) <= set(grams(text).split()), (text, needle)


def test_file_text_keeps_the_text_a_reader_decodes():
    assert FileText.of_source("naïve 中文\n".encode()).text == "naïve 中文\n"
    assert FileText.of_source(b"bad \xff byte").text == "bad \ufffd byte"
    assert FileText.of("").grams == ""
    assert FileText.of("").text == ""
    assert grams("DEF") == "646566" == grams("def")


def _defined_grams(text: str) -> str:
    data = text.lower().encode("utf-8", "surrogatepass")
    return " ".join(sorted({data[i : i + 3].hex() for i in range(len(data) - 2)}))


def test_gram_tokens_are_the_sorted_distinct_trigrams_of_the_lower_cased_text():
    rng = random.Random(11)
    alphabet = "aAbB_ \n\té\u0130\u00df\u4e2d"
    texts = ["", "ab", "abc", "aaaa" * 50, "Abc abC ABC"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 400))) for _ in range(200)]
    texts.append("".join(rng.choice("abcdefgh\n") for _ in range(1_500_000)))  # longer than any buffer so far
    for text in texts:
        expected = _defined_grams(text)
        assert grams(text) == expected
        assert FileText.of(text).grams == expected
        assert FileText.of_source(text.encode()).grams == expected  # ASCII or not: the same tokens
    bad = b"Bad \xff\xfe BYTES"
    assert FileText.of_source(bad).grams == _defined_grams(bad.decode("utf-8", errors="replace"))


def test_gram_slots_are_private_to_a_forked_worker():
    """Two pool workers forked after the parent made its slots must not write into each other's."""
    import multiprocessing

    from maguyva.store import filetext

    grams("warm up")  # the parent maps its slots before the fork, as a pool's parent may
    slots = filetext._SLOTS[0]
    slots[:8] = 12345
    child = multiprocessing.get_context("fork").Process(target=_overwrite_slots)
    child.start()
    child.join(30)
    assert child.exitcode == 0
    assert (slots[:8] == 12345).all()
    assert grams("Hello, hello") == _defined_grams("Hello, hello")


def _overwrite_slots() -> None:
    from maguyva.store import filetext

    filetext._SLOTS[0][:8] = -1


def _put(store: SQLiteStore, path: str, text: str) -> None:
    record = FileRecord(path, "text", len(text), f"h-{hash(text)}")
    store.put_file(record, 1, FileExtraction(path=path, language="text"), text)


def test_literal_search_is_exact_through_replacements_and_deletions(tmp_path):
    store = SQLiteStore(tmp_path / "index.db")
    texts = {
        "a.txt": "alpha Needle one\nbeta\n",
        "b.txt": "eldeen\nNEEDLE two\n",
        "c.txt": "nee dle\n",
        "d.txt": "İstanbul straße\n",
    }
    with store.transaction():
        for path, text in texts.items():
            _put(store, path, text)
    assert [(s.path, s.line) for s in store.search_literal("needle")] == [("a.txt", 1), ("b.txt", 2)]
    assert [s.path for s in store.search_literal("i̇stanbul")] == ["d.txt"]  # the folded form finds it
    assert [s.path for s in store.search_literal("STRASSE")] == []  # lower(), not casefold(): as before
    assert [s.path for s in store.search_literal("ß")] == ["d.txt"]  # two bytes: checked file by file
    with store.transaction():
        _put(store, "a.txt", "no match here\n")  # replaced: the old grams are gone from the index
        store.delete_file("b.txt")
    assert store.search_literal("needle") == []
    assert [s.path for s in store.search_literal("match")] == ["a.txt"]
    assert store.file_text("a.txt") == "no match here\n"
    assert store.file_text("b.txt") is None
    db = sqlite3.connect(tmp_path / "index.db")  # FTS5's own check: the gram index matches its rows
    db.execute("INSERT INTO files_grams (files_grams, rank) VALUES ('integrity-check', 0)")
    store.close()


def test_every_literal_of_a_tree_is_found_exactly_where_a_scan_finds_it(git_repo, tmp_path):
    rng = random.Random(3)
    words = ["def", "Class", "self.run", "naïve", "中文", "x" * 70, "a_b", "Ωmega", "\t"]
    tree = {
        f"m{n}.py": "\n".join(" ".join(rng.choice(words) for _ in range(5)) for _ in range(8)) + "\n"
        for n in range(12)
    }
    write_tree(git_repo, tree)
    index_repository(git_repo, tmp_path / "index.db", full=True)
    store = SQLiteStore(tmp_path / "index.db", readonly=True)
    try:
        for needle in ["class self", "naïve 中", "x" * 66, "Ωmega", "F ", "a_b def", "zzz", "中"]:
            expected = [
                (path, s.line)
                for path in sorted(tree)
                for s in matching_lines(path, tree[path], needle, 10**6)
            ]
            assert [(s.path, s.line) for s in store.search_literal(needle, limit=10**6)] == expected, needle
    finally:
        store.close()


def test_the_git_listing_and_the_walk_scan_the_same_files(git_repo, tmp_path):
    tree = {
        "app.py": "x = 1\n",
        "pkg/mod.py": "y = 2\n",
        ".gitignore": "*.log\nbuild/\n",
        "run.log": "log\n",
        "build/out.py": "z = 3\n",
        "pkg/.maguyvaignore": "secret*\n",
        "pkg/secret.py": "s = 1\n",
        "docs/readme.md": "# hi\n",
    }
    plain = tmp_path / "plain"
    for root in (git_repo, plain):
        write_tree(root, tree)
    commit_all(git_repo)
    (git_repo / "new.py").write_text("w = 4\n")  # untracked, not ignored
    (plain / "new.py").write_text("w = 4\n")
    listed = [(f.record.path, f.record.content_hash, f.record.flags) for f in scan_repository(git_repo).files]
    walked = [(f.record.path, f.record.content_hash, f.record.flags) for f in scan_repository(plain).files]
    assert sorted(listed) == sorted(walked)  # git lists in path order, the walk directory by directory
    assert sorted(p for p, _, _ in listed) == [
        ".gitignore",
        "app.py",
        "docs/readme.md",
        "new.py",
        "pkg/.maguyvaignore",
        "pkg/mod.py",
    ]


def test_a_changed_file_is_read_once_per_run_and_unchanged_ones_not_at_all(git_repo, tmp_path, monkeypatch):
    write_tree(git_repo, {f"m{n}.py": f"def f{n}():\n    return {n}\n" for n in range(5)})
    commit_all(git_repo)
    store = tmp_path / "index.db"
    monkeypatch.setattr("maguyva.index.scan.RACY_WINDOW_NS", 0)  # files this fresh would be re-read (racy)
    index_repository(git_repo, store, full=True)
    (git_repo / "m2.py").write_text("def f2():\n    return 22\n")
    reads: list[str] = []
    real = Path.read_bytes
    real_open = open

    def counting(self):
        reads.append(self.name)
        return real(self)

    def counting_open(file, *args, **kwargs):
        reads.append(Path(file).name)
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(Path, "read_bytes", counting)
    monkeypatch.setattr("builtins.open", counting_open)
    summary = index_repository(git_repo, store)
    assert summary.changed == 1
    assert [name for name in reads if name.endswith(".py")] == ["m2.py"]
    monkeypatch.undo()
    assert dump_index(store) == _clean(git_repo, tmp_path)


def _clean(repo, tmp_path):
    index_repository(repo, tmp_path / "clean.db", full=True)
    return dump_index(tmp_path / "clean.db")


def test_bm25_words_are_deleted_exactly_whatever_the_line_breaks_and_bytes(git_repo, tmp_path):
    """``chunks_fts`` keeps no content: replacing a file gives back the words recomputed from its stored
    text, which must be the ones its chunks were indexed with (else the BM25 index drifts from a
    clean one). Form feeds, CR, U+2028 and invalid UTF-8 all split lines for the chunker."""
    odd = (
        b"def first():\r\n    return alpha_beta\x0c\n\n"
        b"class Second:\n    '''docs \xe2\x80\xa8 more'''\n    def third(self):\r        return gamma\n"
        b"# bad bytes \xff\xfe end\n" + b"".join(b"def f%d():\n    return v%d\n" % (n, n) for n in range(70))
    )
    write_tree(git_repo, {"odd.py": odd, "notes.txt": b"plain\x0cwords\rhere\n" * 80, "keep.py": "x = 1\n"})
    commit_all(git_repo)
    store = tmp_path / "index.db"
    index_repository(git_repo, store)
    write_tree(git_repo, {"odd.py": odd.replace(b"alpha_beta", b"delta"), "notes.txt": b"other words\n"})
    index_repository(git_repo, store)
    index_repository(git_repo, tmp_path / "clean.db", full=True)
    ours, clean = dump_index(store), dump_index(tmp_path / "clean.db")
    assert ours["bm25_terms"] == clean["bm25_terms"]
    assert ("delta", 1, 1) in ours["bm25_terms"]
    assert not any(t[0] == "alpha" for t in ours["bm25_terms"])
    (git_repo / "odd.py").unlink()
    index_repository(git_repo, store)
    terms = {t[0] for t in dump_index(store)["bm25_terms"]}
    assert "delta" not in terms
    assert "gamma" not in terms
    assert "other" in terms


def _words_by_definition(text: str) -> str:
    """BM25 words as ``search_words`` documents them: each identifier or digit run (``_IDENT``)
    lower-cased, then its camel-case and digit parts when it has several."""
    import re

    words = []
    for ident in re.findall(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+", text):
        parts = re.findall(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+", ident)
        words.append(
            " ".join([ident.lower(), *(p.lower() for p in parts)]) if len(parts) > 1 else ident.lower()
        )
    return " ".join(words)


def test_search_words_split_digit_led_runs_as_the_identifier_pattern_does():
    from maguyva import search_words as chunk

    rng = random.Random(7)
    texts = ["0x1F 12abc a1 _9 9_ 0b1010_1111 1e10 x2y 3D dé9f ÄbC 99Bottles __init__ 7z_ZZtop", "9", ""]
    texts += ["".join(rng.choice("aZq0_9 .\n-éX") for _ in range(300)) for _ in range(300)]
    for text in texts:
        chunk._WORDS.clear()
        assert chunk.search_words(text) == _words_by_definition(text), text
        assert chunk.search_words(text) == _words_by_definition(text), text  # from the filled cache


def test_gram_tokens_of_threads_working_at_once_are_each_their_own():
    """The slots are one per process: two threads tokenising different texts at once each get theirs."""
    import random
    import threading

    from maguyva.store.filetext import grams

    rng = random.Random(5)
    texts = ["".join(rng.choice("abcdefgh ijk_\n") for _ in range(200_000)) + str(n) for n in range(4)]
    expected = [grams(text) for text in texts]
    found: dict[int, list[str]] = {}

    def work(number: int) -> None:
        found[number] = [grams(texts[(number + k) % 4]) for k in range(12)]

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(found[n] == [expected[(n + k) % 4] for k in range(12)] for n in range(4))
