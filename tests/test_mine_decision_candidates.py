"""`mine candidates --for decisions`: the three-question ranking, on a real history."""

from __future__ import annotations

import json

from clirun import run_cli
from mine_repo import commit, mining

from orkestra.mining.decision_candidates import decision_candidates, dependency_names
from orkestra.mining.index import sync_index

CONFIG = """version: 1
mining:
  domains:
    api: {paths: ["api/**"]}
    store: {paths: ["store/**"]}
    web: {paths: ["web/**"]}
"""


def build(repo):
    shas = {
        "base": commit(
            repo,
            "feat: base",
            {
                "orkestra.yaml": CONFIG,
                "api/app.py": "x\n",
                "pyproject.toml": '[project]\nname = "p"\ndependencies = ["requests"]\n'
                '\n[project.scripts]\np = "p:main"\n',
            },
            day=1,
        )
    }
    shas["docs"] = commit(repo, "docs: typo", {"README.md": "hi\n"}, day=2)
    shas["script"] = commit(
        repo,
        "feat: a console script",
        {
            "pyproject.toml": '[project]\nname = "p"\ndependencies = ["requests"]\n\n[project.scripts]\np = "p:main"\n'
            'q = "p:q"\n'
        },
        day=3,
    )
    shas["dep"] = commit(
        repo,
        "feat(api): talk to redis",
        {
            "pyproject.toml": '[project]\nname = "p"\ndependencies = ["requests", "redis>=5"]\n\n[project.scripts]\n'
            'p = "p:main"\nq = "p:q"\n',
            "api/cache.py": "import redis\n",
        },
        day=4,
    )
    shas["schema"] = commit(
        repo,
        "feat(store)!: split the orders table",
        {
            "store/migrations/0002_split.sql": "ALTER TABLE orders;\n",
            "store/models.py": "class Order: ...\n",
            "api/orders.py": "x\n",
            "web/orders.ts": "x\n",
        },
        day=5,
    )
    shas["small"] = commit(repo, "fix(api): off by one", {"api/app.py": "y\n"}, day=6)
    return shas


def test_three_question_ranking_with_reasons(git_repo):
    shas = build(git_repo)
    paths = mining(git_repo)
    sync_index(paths)
    result = decision_candidates(paths, limit=10)
    order = [c["sha"] for c in result["candidates"]]
    assert order[0] == shas["schema"]  # breaking + schema + three domains: yes to two questions, top score
    top = result["candidates"][0]
    assert top["questions_yes"] == 2
    assert "BREAKING change" in top["questions"]["costly_to_change"]
    assert any(
        "schema changes" in r and "store/migrations/0002_split.sql" in r
        for r in top["questions"]["costly_to_change"]
    )
    assert top["questions"]["system_wide"] == ["3 domains: api, store, web"]
    dep = next(c for c in result["candidates"] if c["sha"] == shas["dep"])
    assert dep["questions"]["hard_to_make"] == ["new dependencies: pyproject.toml: redis"]
    script = next(c for c in result["candidates"] if c["sha"] == shas["script"])
    assert script["questions"]["hard_to_make"] == []  # a new console script is not a dependency
    assert order.index(shas["dep"]) < order.index(shas["small"]) < order.index(shas["docs"])
    assert result["pending"] == 6


def test_cli_for_decisions_skips_classified_commits(git_repo):
    shas = build(git_repo)
    assert run_cli("mine", "sync", "--root", str(git_repo), cwd=git_repo).returncode == 0
    skip = run_cli(
        "mine",
        "classify",
        shas["schema"],
        "--skip",
        "--reason",
        "reviewed",
        "--only",
        "decisions",
        "--root",
        str(git_repo),
        cwd=git_repo,
    )
    assert skip.returncode == 0, skip.stderr
    result = run_cli(
        "mine", "candidates", "--for", "decisions", "--limit", "2", "--root", str(git_repo), cwd=git_repo
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["for"] == "decisions"
    assert data["pending"] == 5
    assert len(data["candidates"]) == 2
    # the root commit declares its dependencies as new, like the redis commit: both answer two questions
    assert {c["sha"] for c in data["candidates"]} == {shas["base"], shas["dep"]}


def test_dependency_names_per_manifest():
    assert dependency_names(
        "package.json", '{"dependencies": {"a": "1"}, "devDependencies": {"b": "2"}}'
    ) == {"a", "b"}
    assert dependency_names(
        "Cargo.toml", '[dependencies]\nserde = "1"\n[dev-dependencies]\nproptest = "1"\n'
    ) == {"serde", "proptest"}
    assert dependency_names("requirements.txt", "# c\nFlask_Login>=1\n-r other.txt\n") == {"flask-login"}
    assert dependency_names("pyproject.toml", "not toml [") == set()


def test_a_merge_answers_no_question_and_comes_last(git_repo):
    from conftest import git
    from mine_repo import at

    shas = build(git_repo)
    git(git_repo, "checkout", "-q", "-b", "side", shas["base"])
    commit(
        git_repo, "feat(store)!: new storage", {"store/migrations/0003.sql": "x\n", "web/a.ts": "x\n"}, day=7
    )
    git(git_repo, "checkout", "-q", "main")
    git(git_repo, "merge", "-q", "--no-ff", "-m", "Merge branch 'side'", "side", env=at(8))
    paths = mining(git_repo)
    sync_index(paths)
    candidates = decision_candidates(paths, limit=None)["candidates"]
    last = candidates[-1]
    assert last["subject"] == "Merge branch 'side'"
    assert last["questions_yes"] == 0
    assert last["questions"]["merge"] == ["a merge commit"]
    subjects = [c["subject"] for c in candidates]
    assert subjects[:2] == [
        "feat(store)!: split the orders table",
        "feat(store)!: new storage",
    ]  # merged one ranks
