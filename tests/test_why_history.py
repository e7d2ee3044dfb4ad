"""`why` always answers with the history that shaped a file, folder or line range (issue 32).

Real git repositories made in temp dirs: pull-request merges, a squash commit, a rename, a folder.
"""

from __future__ import annotations

import json

import pytest
from clirun import run_cli
from conftest import git
from mine_repo import at, commit

from orkestra.why.answer import format_why, why


@pytest.fixture
def repo(git_repo):
    from orkestra.init import init_workspace

    root = git_repo
    init_workspace(root, minimal=True)
    git(root, "add", "-A")
    s = {
        "base": commit(
            root,
            "Initial import",
            {"src/shop/cart.py": "a = 1\nb = 2\n"},
            day=1,
        )
    }
    git(root, "checkout", "-q", "-b", "lazy")
    s["branch"] = commit(root, "make the cart lazy", {"src/shop/cart.py": "a = 1\nb = 3\n"}, day=2)
    git(root, "checkout", "-q", "main")
    git(
        root,
        "merge",
        "-q",
        "--no-ff",
        "lazy",
        "-m",
        "Merge pull request #21 from me/lazy\n\nLazy cart",
        env=at(3),
    )
    s["merge"] = git(root, "rev-parse", "HEAD").strip()
    s["squash"] = commit(root, "Add totals (#22)", {"src/shop/cart.py": "a = 1\nb = 3\nc = 4\n"}, day=4)
    git(root, "mv", "src/shop/cart.py", "src/shop/basket.py")
    git(root, "commit", "-q", "-m", "Rename cart to basket", env=at(5))
    s["rename"] = git(root, "rev-parse", "HEAD").strip()
    return root, s


def test_a_file_answers_with_its_commits_and_pull_requests_across_a_rename(repo):
    root, s = repo
    answer = why(root, "src/shop/basket.py", index_lookup=False)
    assert answer["results"] == []
    assert answer["former_names"] == ["src/shop/cart.py"]
    by_sha = {c["sha"]: c for c in answer["commits"]}
    assert by_sha[s["branch"]]["pr"] == 21  # brought in by the PR merge
    assert by_sha[s["squash"]]["pr"] == 22  # its own "(#22)"
    assert "pr" not in by_sha[s["base"]]
    assert [(p["number"], p["title"]) for p in answer["pull_requests"]] == [
        (22, "Add totals"),
        (21, "Lazy cart"),
    ]
    text = format_why(answer)
    assert "no decision, ground truth or changelog entry covers it; the history that shaped it:" in text
    assert "PR #21 2026-01-03 Lazy cart" in text
    assert "make the cart lazy (PR #21)" in text


def test_a_folder_has_no_former_names_and_still_lists_its_history(repo):
    root, _ = repo
    answer = why(root, "src/shop", index_lookup=False)
    assert answer["former_names"] == []  # was: every file changed below it, printed as "formerly:"
    assert answer["commit_count"] == 4
    text = run_cli("why", "src/shop", "--format", "text", "--no-index", "--root", str(root), cwd=root)
    assert text.returncode == 0, text.stderr
    assert "formerly" not in text.stdout
    assert "history: 4 commit(s)" in text.stdout


def test_a_line_range_names_the_commits_that_wrote_its_current_lines(repo):
    root, s = repo
    answer = why(root, "src/shop/basket.py:2-3", index_lookup=False)
    assert [(b["sha"], b["lines"]) for b in answer["blame"]] in (
        [(s["branch"], 1), (s["squash"], 1)],
        [(s["squash"], 1), (s["branch"], 1)],
    )
    cli = run_cli("why", "src/shop/basket.py:3", "--no-index", "--root", str(root), cwd=root)
    assert json.loads(cli.stdout)["blame"][0]["sha"] == s["squash"]
