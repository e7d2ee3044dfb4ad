"""Hostile subjects against the plain-history reading (`mine auto`, `mine candidates`, `why`; issue 32).

A cloned history can hold any subject: thousands of ``area:`` prefixes, PR and issue numbers of
thousands of digits (Python refuses to turn more than 4,300 digits into an int).
"""

from __future__ import annotations

import json
import sys
import time

from clirun import run_cli
from conftest import git
from mine_repo import commit, mining

from orkestra.mining.auto import run_auto
from orkestra.mining.index import load_index
from orkestra.mining.plain import read_commit
from orkestra.why.answer import why

DIGITS = "9" * 5_000


def test_prefixes_and_huge_numbers_in_subjects_and_bodies_are_read_without_a_traceback(git_repo):
    from orkestra.init import init_workspace

    repo = git_repo
    init_workspace(repo, minimal=True)
    git(repo, "add", "-A")
    commit(repo, "Initial import", {"src/a.py": "a\n"}, day=1)
    prefixes = commit(repo, "a: " * (2 * sys.getrecursionlimit()) + "fix it", {"src/a.py": "b\n"}, day=2)
    suffix = commit(repo, f"Fix the parser (#{DIGITS})", {"src/a.py": "c\n"}, day=3)
    body = commit(repo, f"Fix the lexer\n\nfixes #{DIGITS}", {"src/a.py": "d\n"}, day=4)
    fake = commit(repo, f"Merge pull request #{DIGITS} from me/x\n\nAdd x", {"src/a.py": "e\n"}, day=5)
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, "side work", {"src/b.py": "b\n"}, day=6)
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "side", "-m", f"Add side work (#{DIGITS})")

    result = run_auto(mining(repo), dry_run=True)
    got = {line["sha"]: line for line in result["entries"]}
    assert got[suffix]["category"] == "fixed"
    assert got[body]["category"] == "fixed"
    index = load_index(mining(repo))
    assert read_commit(index[fake]).pr is None  # a number of 5,000 digits is no PR number: read as text
    assert prefixes in got or result["for_review"] >= 1
    listed = run_cli("mine", "candidates", "--ledger", "changelog", "--full", "--suggest", cwd=repo)
    assert listed.returncode == 0, listed.stderr
    assert "Traceback" not in listed.stderr, listed.stderr
    for line in listed.stdout.splitlines():
        json.loads(line)
    assert why(repo, "src/a.py", index_lookup=False)["commit_count"] == 5


def _reading_time(body: str, subject: str = "Fix x") -> float:
    commit = {
        "sha": "a" * 40,
        "subject": subject,
        "body": body,
        "parents": ["b" * 40],
        "files_changed": ["src/a.py"],
        "signals": {"is_merge": False},
    }
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        read_commit(commit)
        best = min(best, time.perf_counter() - started)
    return best


def test_a_body_of_whitespace_after_fix_costs_what_any_body_of_its_size_costs():
    """Before: ``fix`` + 8,000 spaces + ``#`` took the issue-reference pattern quadratic time (3 s; a
    64 KiB body, minutes). Compared with a body of the same size in the same run."""
    size = 8_000
    benign = _reading_time("x" * size + " #")
    hostile = _reading_time("fix" + " " * size + "x #")
    hostile_lines = _reading_time("fixes\n" * (size // 6) + "#")
    assert hostile < 20 * benign + 0.005, (
        benign,
        hostile,
        hostile_lines,
    )
    assert hostile_lines < 20 * benign + 0.005, (
        benign,
        hostile,
        hostile_lines,
    )
    # a subject of blanks ending in ")": the PR-suffix pattern once began with "\s*" (quadratic too)
    plain_subject = _reading_time("", "Fix " + "x" * size + ")")
    blank_subject = _reading_time("", "Fix" + " " * size + ")")
    assert blank_subject < 20 * plain_subject + 0.005, (plain_subject, blank_subject)
