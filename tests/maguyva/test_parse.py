"""Parsing under a time budget: the progress callback for long parses, a hard deadline for hangs."""

from __future__ import annotations

import pytest

from maguyva.errors import ParseError
from maguyva.index.extract import extract_source
from maguyva.index.parse import parse_source, run_guarded

BIG_PYTHON = b"".join(
    b"def f%d(a, b):\n    return [a + b for _ in range(%d)]\n\n" % (i, i) for i in range(20000)
)


def test_a_small_file_parses_within_the_default_budget():
    tree = parse_source("a.py", "python", b"def f():\n    return 1\n")
    assert tree.root_node.type == "module"
    assert not tree.root_node.has_error


def test_the_progress_callback_cancels_a_parse_that_runs_past_its_budget():
    with pytest.raises(ParseError, match=r"a\.py: parse cancelled after 1 ms budget"):
        parse_source("a.py", "python", BIG_PYTHON, budget_ms=1)


def test_the_hard_deadline_stops_the_cobol_grammar_spinning_on_a_one_line_file():
    """cobol never returns on ``x = 1`` and never calls the progress callback; the child is killed."""
    outcome = run_guarded(parse_source, ("x.cob", "cobol", b"x = 1\n", 200), 1.5)
    assert outcome.value is None
    assert outcome.error == "exceeded hard deadline of 1.5 s"


def test_a_guarded_function_returns_its_value_or_its_exception_as_text():
    assert run_guarded(len, ("abc",), 10).value == 3
    assert (
        run_guarded(int, ("nope",), 10).error == "ValueError: invalid literal for int() with base 10: 'nope'"
    )


def test_a_file_over_budget_is_still_chunked_and_reports_why_it_has_no_symbols():
    extraction = extract_source("big.py", "python", BIG_PYTHON, budget_ms=1)
    assert extraction.symbols == ()
    assert extraction.errors == ("big.py: parse cancelled after 1 ms budget",)
    assert extraction.chunks[0].start_line == 1
    assert extraction.chunks[-1].end_line == 60000


def test_the_worker_pool_returns_the_same_extractions_in_input_order(tmp_path):
    from maguyva.index.scan import scan_repository
    from maguyva.index.workers import _extract_pool, extract_records

    for n in range(20):
        (tmp_path / f"m{n:02}.py").write_text(f"def f{n}():\n    return g{n}()\n")
    records = [f.record for f in scan_repository(tmp_path).files]
    pooled = [e for batch in _extract_pool(str(tmp_path), records, 2000, workers=2) for e, _ in batch]
    assert pooled == extract_records(tmp_path, records, 2000, workers=1)
    assert [e.path for e in pooled] == [f"m{n:02}.py" for n in range(20)]
