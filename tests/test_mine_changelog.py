"""`registry changelog render`: Keep a Changelog per package, grouped by (scoped) release tags."""

from __future__ import annotations

import pytest
from conftest import git
from mine_repo import commit, mining, tag

from orkestra.errors import NotFoundError
from orkestra.mining.changelog_files import render_changelogs
from orkestra.mining.classify import classify_commit
from orkestra.mining.index import sync_index

HEADER = """# Changelog

All notable changes to {name} are documented in this file.

The format is based on [Keep a Changelog](https://keepachangelog.com/en/1.1.0/),
and this project adheres to [Semantic Versioning](https://semver.org/spec/v2.0.0.html).
"""


@pytest.fixture
def history(git_repo):
    """Root releases v0.1.0 and v0.2.0, a scoped canonical@1.0.0 release, a merge and unreleased work."""
    (git_repo / "orkestra.yaml").write_text("project: demo\n")
    s = {}
    s["init"] = commit(
        git_repo, "feat: first cut", {"orkestra.yaml": "project: demo\n", "app.py": "1\n"}, day=1
    )
    s["pkg"] = commit(
        git_repo,
        "feat(canonical): add DuckDB runtime",
        {"packages/canonical/pyproject.toml": "[project]\n", "packages/canonical/run.py": "1\n"},
        day=2,
    )
    tag(git_repo, "v0.1.0", day=2)
    tag(git_repo, "canonical@1.0.0", day=2, annotated=False)
    git(git_repo, "checkout", "-q", "-b", "topic")
    s["topic"] = commit(git_repo, "fix: handle empty input", {"app.py": "2\n"}, day=3)
    git(git_repo, "checkout", "-q", "main")
    s["break"] = commit(git_repo, "feat(api)!: drop the v1 endpoint", {"api.py": "1\n"}, day=4)
    git(
        git_repo,
        "merge",
        "-q",
        "--no-ff",
        "topic",
        "-m",
        "Merge branch 'topic'",
        env={
            "GIT_AUTHOR_DATE": "2026-01-05T12:00:00+00:00",
            "GIT_COMMITTER_DATE": "2026-01-05T12:00:00+00:00",
        },
    )
    tag(git_repo, "v0.2.0", day=6)
    s["pkgfix"] = commit(
        git_repo, "fix(canonical): close connections", {"packages/canonical/run.py": "2\n"}, day=7
    )
    s["later"] = commit(git_repo, "feat: search everything", {"search.py": "1\n"}, day=8)
    paths = mining(git_repo)
    sync_index(paths)
    classify_commit(paths, s["init"], changelog="added", summary="First cut of the app")
    classify_commit(paths, s["pkg"], changelog="added")
    classify_commit(paths, s["topic"], changelog="fixed")
    classify_commit(paths, s["break"], changelog="removed", summary="Drop the v1 endpoint")
    classify_commit(paths, s["pkgfix"], changelog="fixed")
    classify_commit(paths, s["later"], changelog="added")
    return git_repo, s


def test_root_changelog_groups_by_release_tag_newest_first_breaking_first(history):
    root, s = history
    result = render_changelogs(mining(root), package="root")
    assert result["files"] == [{"package": ".", "path": "CHANGELOG.md", "entries": 4, "status": "created"}]
    assert (
        (root / "CHANGELOG.md").read_text()
        == HEADER.format(name="demo")
        + f"""
## [Unreleased]

### Added

- search everything ({s["later"][:7]})

## [0.2.0] - 2026-01-06

### BREAKING CHANGES

- Removed: **api:** Drop the v1 endpoint ({s["break"][:7]})

### Fixed

- handle empty input ({s["topic"][:7]})

## [0.1.0] - 2026-01-02

### Added

- First cut of the app ({s["init"][:7]})
"""
    )


def test_package_changelog_uses_its_scoped_tags(history):
    root, s = history
    render_changelogs(mining(root), package="canonical")
    assert (
        (root / "packages/canonical/CHANGELOG.md").read_text()
        == HEADER.format(name="canonical")
        + f"""
## [Unreleased]

### Fixed

- **canonical:** close connections ({s["pkgfix"][:7]})

## [1.0.0] - 2026-01-02

### Added

- **canonical:** add DuckDB runtime ({s["pkg"][:7]})
"""
    )


def test_deleted_changelog_regenerates_byte_identical_and_check_sees_drift(history):
    root, _ = history
    paths = mining(root)
    assert [f["status"] for f in render_changelogs(paths, every=True)["files"]] == ["created", "created"]
    first = (root / "CHANGELOG.md").read_bytes()
    (root / "CHANGELOG.md").unlink()
    assert render_changelogs(paths, every=True, check=True)["ok"] is False
    render_changelogs(paths, every=True)
    assert (root / "CHANGELOG.md").read_bytes() == first
    assert render_changelogs(paths, every=True, check=True) == {
        "ok": True,
        "warnings": [],
        "files": [
            {"package": ".", "path": "CHANGELOG.md", "entries": 4, "status": "unchanged"},
            {
                "package": "packages/canonical",
                "path": "packages/canonical/CHANGELOG.md",
                "entries": 2,
                "status": "unchanged",
            },
        ],
    }
    (root / "CHANGELOG.md").write_text("edited by hand\n")
    assert render_changelogs(paths, every=True, check=True)["files"][0]["status"] == "drift"


def test_a_release_corrected_into_a_skip_leaves_the_changelog(history):
    root, s = history
    paths = mining(root)
    classify_commit(paths, s["later"], skip=True, reason="not user-facing", only="changelog", correct=True)
    render_changelogs(paths, package="root")
    assert "search everything" not in (root / "CHANGELOG.md").read_text()


def test_unknown_package_suggests_known_names(history):
    root, _ = history
    with pytest.raises(NotFoundError, match="did you mean 'canonical'"):
        render_changelogs(mining(root), package="canonicl")
