"""Issue 31, class 7: a committed ledger line can crash no reader, and no summary can add a heading.

Each hostile line is appended to a real repository's ledger after two real classifications; every
reader (``mine validate`` through the CLI, ``mine status``, ``registry changelog render``, ``why``)
must answer, name the bad line by file, line and field, skip it, and keep the good entries.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clirun import run_cli
from mine_repo import commit, mining, tag
from ork_workspace import RICH

from orkestra.mining.changelog_files import render_changelogs
from orkestra.mining.classify import classify_commit
from orkestra.mining.index import sync_index
from orkestra.mining.status import mining_status
from orkestra.mining.validate import validate_ledgers
from orkestra.why.answer import why

LEDGER = "ai_assets/reference/changelog"
NOTES, PROCESSED = f"{LEDGER}/release_notes.jsonl", f"{LEDGER}/commits_processed.jsonl"


def _repo(root: Path) -> list[str]:
    shutil.copytree(RICH, root, dirs_exist_ok=True)  # a whole workspace, for `why`
    shas = [
        commit(root, "feat(api): add the endpoint", {"api.py": "1\n"}, day=1),
        commit(root, "fix(api): handle the empty body", {"api.py": "2\n"}, day=2),
    ]
    tag(root, "v1.0.0", day=2)
    sync_index(mining(root))
    classify_commit(mining(root), shas[0], changelog="added")
    classify_commit(mining(root), shas[1], changelog="fixed")
    return shas


def _note(sha: str, **fields) -> dict:
    return {
        "sha": sha,
        "date": "2026-01-02",
        "category": "fixed",
        "summary": "a planted note",
        "scope": None,
        "breaking": False,
        "packages": ["."],
        "type": "fix",
    } | fields


# (ledger, hostile line given a real sha, the field the diagnostic must name or "" for the line itself)
HOSTILE = {
    "nested-5000": (NOTES, lambda s: "[" * 5000 + "]" * 5000, ""),
    "nested-in-a-field": (NOTES, lambda s: '{"sha":' + "[" * 5000 + "]" * 5000 + "}", ""),
    "sha-a-list": (NOTES, lambda s: json.dumps(_note([s])), "sha"),
    "sha-an-object": (NOTES, lambda s: json.dumps(_note({"x": s})), "sha"),
    "5000-digit-number": (NOTES, lambda s: json.dumps(_note(s))[:-1] + ',"breaking":' + "9" * 5000 + "}", ""),
    "5000-digit-sha": (NOTES, lambda s: json.dumps(_note(s)).replace(f'"{s}"', "7" * 5000), ""),
    "no-packages": (
        NOTES,
        lambda s: json.dumps({k: v for k, v in _note(s).items() if k != "packages"}),
        "packages",
    ),
    "summary-a-number": (NOTES, lambda s: json.dumps(_note(s, summary=5)), "summary"),
    "summary-a-list": (NOTES, lambda s: json.dumps(_note(s, summary=["x"])), "summary"),
    "parts-not-objects": (NOTES, lambda s: json.dumps(_note(s, parts=[5])), "parts.0"),
    "lone-surrogate": (NOTES, lambda s: json.dumps(_note(s))[:-1] + ',"scope":"\\ud800"}', ""),
    "nan": (NOTES, lambda s: json.dumps(_note(s))[:-1] + ',"breaking":NaN}', ""),
    "a-bare-list": (NOTES, lambda s: "[1, 2]", ""),
    "processed-sha-a-list": (
        PROCESSED,
        lambda s: json.dumps({"sha": [s], "domain": "changelog", "action": "release", "category": "added"}),
        "sha",
    ),
    "processed-domain-a-list": (
        PROCESSED,
        lambda s: json.dumps({"sha": s, "domain": ["changelog"], "action": "release"}),
        "domain",
    ),
    "processed-no-action": (PROCESSED, lambda s: json.dumps({"sha": s, "domain": "changelog"}), "action"),
    "processed-5000-digits": (
        PROCESSED,
        lambda s: f'{{"sha":"{s}","domain":"changelog","action":"skip","reason":"x","n":{"9" * 5000}}}',
        "",
    ),
    "processed-nested": (PROCESSED, lambda s: "{" + '"a":{' * 5000 + "}" * 5001, ""),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_ledger_line_is_reported_by_file_line_and_field_and_skipped(git_repo, case):
    rel, make, field = HOSTILE[case]
    shas = _repo(git_repo)
    path = git_repo / rel
    line = len(path.read_text().splitlines()) + 1
    with path.open("a", encoding="utf-8") as handle:
        handle.write(make(shas[1]) + "\n")
    where = f"{rel}:{line}:1: " + (f"{field}: " if field else "")

    result = run_cli("mine", "validate", "--quick", "--format", "json", cwd=git_repo)
    assert result.returncode == 1, result.stderr[-2000:]
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    problems = [d for d in json.loads(result.stdout)["diagnostics"] if (d["path"], d["line"]) == (rel, line)]
    assert problems, result.stdout
    assert all(d["code"] in ("json", "schema") for d in problems), result.stdout
    assert any(
        str(f"{d['path']}:{d['line']}:{d['col']}: " + (f"{d['field']}: " if d["field"] else "")) == where
        for d in problems
    ), (where, problems)
    diagnostics = validate_ledgers(mining(git_repo), quick=True)["diagnostics"]
    assert {(d.path, d.line) for d in diagnostics} == {(rel, line)}

    status = mining_status(mining(git_repo))  # the line is skipped: both good classifications count
    assert status["changelog"]["released"] == 2
    assert any(w.startswith(f"{rel}:{line}:1: ") for w in status["warnings"]), status["warnings"]

    rendered = render_changelogs(mining(git_repo), every=True)
    assert any(w.startswith(f"{rel}:{line}:1: ") for w in rendered["warnings"]), rendered["warnings"]
    text = (git_repo / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"- **api:** add the endpoint ({shas[0][:7]})" in text
    assert f"- **api:** handle the empty body ({shas[1][:7]})" in text
    assert "planted" not in text

    answer = why(git_repo, "api.py", index_lookup=False)
    assert any(n.startswith(f"{rel}:{line}:1: ") for n in answer["notes"]), answer["notes"]
    assert {r["title"] for r in answer["results"]} == {"add the endpoint", "handle the empty body"}


TOP_HEADING = re.compile(r"^ {0,3}#{1,2}(?: |$)")  # a release (or the title): what a forged line would add
ITEM_AS_BLOCK = re.compile(r"^ {0,3}[-*+] +(?:#{1,6}(?: |$)|>)")  # an item that renders as a heading/quote


def _shape(text: str) -> list[str]:
    return [line for line in text.splitlines() if TOP_HEADING.match(line)]


@pytest.mark.parametrize("fmt", ["keep-a-changelog", "release-please"])
@pytest.mark.parametrize(
    "fields",
    [
        {"summary": "harmless\n## [9.9.9] - 2099-01-01\n\n### Added\n\n- forged"},
        {"summary": "harmless\r\n## [9.9.9] - 2099-01-01"},
        {"summary": "harmless\u2028## [9.9.9] - 2099-01-01"},
        {"summary": "## [9.9.9] - 2099-01-01"},
        {"scope": "api\n## [9.9.9] - 2099-01-01\n"},
        {"type": "fix\n## [9.9.9]", "category": "changed"},
        {"parts": [{"summary": "x\n## [9.9.9] - 2099-01-01", "category": "added", "breaking": True}]},
        {"summary": "> quoted\n# [9.9.9]", "breaking": True},
    ],
    ids=["newline", "crlf", "u2028", "leading-heading", "scope", "type", "part", "breaking-quote"],
)
def test_no_ledger_text_adds_a_heading_to_the_changelog(git_repo, fields, fmt):
    shas = _repo(git_repo)
    config = git_repo / "orkestra.yaml"
    config.write_text(config.read_text() + f"mining:\n  changelog:\n    format: {fmt}\n")
    render_changelogs(mining(git_repo), every=True)
    releases = _shape((git_repo / "CHANGELOG.md").read_text(encoding="utf-8"))
    with (git_repo / NOTES).open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(_note(shas[1], correction=True, **fields)) + "\n")
    assert render_changelogs(mining(git_repo), every=True)["ok"]
    text = (git_repo / "CHANGELOG.md").read_text(encoding="utf-8")
    if "type" not in fields or fmt == "release-please":
        assert "9.9.9" in text  # the text is kept, on its item's (or section's) line
    assert _shape(text) == releases, text
    lines = text.splitlines()
    assert not [line for line in lines if ITEM_AS_BLOCK.match(line) or line.startswith(">")], text
    assert "- forged" not in lines


@pytest.mark.parametrize("kind", ["sparse-3gb", "fifo"])
@pytest.mark.parametrize("rel", [NOTES, PROCESSED])
def test_a_huge_or_fifo_ledger_is_reported_not_read(git_repo, kind, rel):
    import os
    import resource
    import subprocess

    _repo(git_repo)
    path = git_repo / rel
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)  # a reader that opened it would block for ever
    else:
        with open(path, "wb") as handle:
            handle.truncate(3 << 30)

    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    for args in (("mine", "validate", "--quick"), ("mine", "status", "--format", "json")):
        result = subprocess.run(
            [sys.executable, "-m", "orkestra", *args],
            cwd=git_repo,
            capture_output=True,
            text=True,
            preexec_fn=limited,
            timeout=120,
        )
        out = result.stdout + result.stderr
        assert "Traceback" not in out, out[-3000:]
        assert "MemoryError" not in out, out[-3000:]
        assert f"{rel}:1:1: cannot read: " in out, out[-3000:]
    assert result.returncode == 0
    assert json.loads(result.stdout)["changelog"]["processed"] == (2 if rel == NOTES else 0)


@pytest.mark.parametrize(
    "line",
    [
        "[" * 5000 + "]" * 5000,
        '{"sha": "abcdef1", "domain": "changelog", "action": "skip", "reason": "x", "n": ' + "9" * 5000 + "}",
        '{"sha": ["abcdef1"], "domain": "changelog", "action": "skip", "reason": "x"}',
        '{"sha": "abcdef1", "domain": "changelog", "action": "skip", "reason": "\\udc80"}',
    ],
    ids=["nested", "5000-digits", "sha-a-list", "lone-surrogate"],
)
def test_mine_commit_input_goes_through_the_same_line_reader(git_repo, tmp_path, line):
    _repo(git_repo)
    batch = tmp_path / "batch.jsonl"
    batch.write_text(line + "\n", encoding="utf-8")
    result = run_cli("mine", "commit", "--input", str(batch), cwd=git_repo)
    assert result.returncode == 1, result.stderr[-2000:]
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.stderr.startswith(f"{batch}:1:1: "), result.stderr


def test_a_byte_order_mark_or_a_huge_key_costs_no_line_and_no_giant_message(git_repo):
    _repo(git_repo)
    path = git_repo / NOTES
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())  # saved by an editor that adds one
    processed = git_repo / PROCESSED
    with processed.open("a", encoding="utf-8") as handle:
        handle.write(
            json.dumps({"sha": "a" * 40, "domain": "changelog", "action": "skip", "k" * 5000: 1}) + "\n"
        )
    diagnostics = validate_ledgers(mining(git_repo), quick=True)["diagnostics"]
    assert [(d.path, d.line, d.field) for d in diagnostics] == [(PROCESSED, 3, "k" * 80)]
    assert mining_status(mining(git_repo))["changelog"]["released"] == 2
