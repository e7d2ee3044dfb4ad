"""A pasted message is looked up literally in the repository (``maguyva.retrieve.message``): a hostile
repository or query must not make that lookup unbounded."""

from __future__ import annotations

import time

import pytest

from maguyva.retrieve import message
from tests.maguyva_project import open_indexed

WRITER = """def check(args):
    if len(args) != 1:
        raise ValueError(f"accepts 1 arg(s), received {len(args)}")
"""


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    files = {"pkg/__init__.py": "", "pkg/cli.py": WRITER}
    # a generated module holding the message's words on one 400 KB line, and many files with a common word
    files["pkg/table.py"] = "TABLE = '" + "accepts arg received " * 20_000 + "'\n"
    files.update({f"pkg/m{i}.py": f"def f{i}():\n    return 'accepts'\n" for i in range(60)})
    opened = open_indexed(tmp_path_factory.mktemp("message") / "repo", files)
    yield opened
    opened.close()


def test_a_huge_line_holding_the_message_words_is_read_only_up_to_a_cap(api):
    found = message.find(api.store, "Error: accepts 1 arg(s), received 3", api._file_kind)
    assert "pkg/cli.py" in found.files
    assert max(found.lines["pkg/cli.py"].values()) > max(found.lines["pkg/table.py"].values())

    def cost(line: str) -> float:
        started = time.process_time()
        for _ in range(20):
            message._fit(line, {"accepts", "arg", "received"})
        return time.process_time() - started

    short, huge = (
        "x = '" + "accepts arg received " * 200 + "'",
        "x = '" + "accepts arg received " * 200_000 + "'",
    )
    assert cost(huge) < 20 * max(cost(short), 1e-4)  # a 4 MB line costs what its first MAX_LINE characters do


def test_the_lookup_stops_at_its_time_budget(api, monkeypatch):
    monkeypatch.setattr(message, "BUDGET_S", 0.0)
    found = message.find(api.store, "Error: accepts 1 arg(s), received 3 for reasons unknown", api._file_kind)
    # nothing looked up once the budget is spent
    assert found.files == {}
    assert found.lines == {}
    monkeypatch.setattr(message, "BUDGET_S", 2.0)
    assert message.find(api.store, "Error: accepts 1 arg(s), received 3", api._file_kind).files


def test_a_message_of_many_fragments_looks_up_only_the_longest_few():
    text = "Error: " + " ".join(f"'v{i}' word{i}x fragment{i}x" for i in range(50))
    assert len(message.fragments(text)) == message.MAX_FRAGMENTS


def test_the_phrases_a_question_quotes_share_one_budget(api, monkeypatch):
    from maguyva.retrieve.query import parse

    asked: list[float] = []
    real = message.find

    def spy(store, text, kind, deadline=None):
        asked.append(deadline)
        return real(store, text, kind, deadline)

    monkeypatch.setattr(message, "find", spy)
    message.quoted(
        api.store,
        parse("Where are 'accepts arg' and 'received arg' and 'arg received' written?"),
        api._file_kind,
    )
    # three phrases, one deadline
    assert len(asked) == 3
    assert len(set(asked)) == 1
