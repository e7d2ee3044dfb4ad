"""Changelog content and files: reverts, squash bodies, PEP 440 tags, Release-As, monorepos, names, formats."""

from __future__ import annotations

import json

from conftest import git
from mine_repo import commit, mining, tag

from orkestra.mining.auto import run_auto
from orkestra.mining.changelog import PLAIN_TAG_RE, SCOPED_TAG_RE
from orkestra.mining.changelog_files import released_notes
from orkestra.mining.config import load_mining_paths

RP = "mining:\n  releasable_types: [feat, fix, perf, revert]\n  changelog:\n    format: release-please\n"


def _notes(root):
    return released_notes(mining(root))


def test_git_reverts_of_releasable_commits_become_reverts_entries(git_repo):
    (git_repo / "orkestra.yaml").write_text(RP)
    fix = commit(git_repo, "fix(io): close files", {"io.py": "1\n"}, day=1)
    revert = commit(
        git_repo, f'Revert "fix(io): close files"\n\nThis reverts commit {fix}.', {"io.py": "0\n"}, day=2
    )
    chore = commit(git_repo, 'Revert "chore: tidy"', {"x": "1\n"}, day=3)
    run_auto(mining(git_repo))
    notes = _notes(git_repo)
    assert (notes[revert]["type"], notes[revert]["category"]) == ("revert", "changed")
    assert chore not in notes
    text = (git_repo / "CHANGELOG.md").read_text()
    assert f'### Reverts\n\n* Revert "fix(io): close files" ({revert[:7]})\n' in text


def test_conventional_lines_of_a_squash_body_are_entries_of_their_own(git_repo):
    (git_repo / "orkestra.yaml").write_text(RP)
    squash = commit(
        git_repo,
        "chore: release train (#9)\n\nfeat(ui): dark mode\n\nfix: crash on start\n"
        "refactor!: drop the old config\nfeat(api): paging\n\nRefs: #9",
        {"a": "1\n"},
        day=1,
    )
    run_auto(mining(git_repo))
    note = _notes(git_repo)[squash]
    assert (note["type"], note["scope"], note["summary"]) == ("feat", "ui", "dark mode")
    assert [(p["type"], p["summary"], p["breaking"]) for p in note["parts"]] == [
        ("fix", "crash on start", False),
        ("refactor", "drop the old config", True),
        ("feat", "paging", False),
    ]
    text = (git_repo / "CHANGELOG.md").read_text()
    short = squash[:7]
    assert text == (
        "# Changelog\n\n## Unreleased\n\n\n### ⚠ BREAKING CHANGES\n\n* drop the old config\n\n\n"
        f"### Features\n\n* **ui:** dark mode ({short})\n* **api:** paging ({short})\n\n\n"
        f"### Bug Fixes\n\n* crash on start ({short})\n\n\n"
        f"### Code Refactoring\n\n* drop the old config ({short})\n"
    )


def test_semver_and_pep440_tags_are_releases():
    for name in (
        "v1.2.3",
        "1.2.3-rc.1",
        "2.0.0b1",
        "v2.48.0rc0",
        "3.0.0.dev0",
        "1.4",
        "1.2.3.post1",
        "v1.0.0+build.5",
    ):
        assert PLAIN_TAG_RE.match(name), name
    for name in ("release-1863", "latest", "v1", "nightly-2026"):
        assert not PLAIN_TAG_RE.match(name), name
    assert SCOPED_TAG_RE.match("storage-v2.0.0b1")["package"] == "storage"
    assert SCOPED_TAG_RE.match("@scope/pkg@1.2.3")["package"] == "@scope/pkg"


def test_pre_release_tags_cut_their_own_release_and_empty_releases_are_left_out(git_repo):
    first = commit(git_repo, "feat: beta feature", {"a": "1\n"}, day=1)
    tag(git_repo, "v2.0.0b1", day=1)
    commit(git_repo, "docs: typo", {"README": "1\n"}, day=2)
    tag(git_repo, "v2.0.0rc1", day=2)  # nothing releasable: no empty section
    final = commit(git_repo, "fix: last bug", {"a": "2\n"}, day=3)
    tag(git_repo, "v2.0.0", day=3)
    run_auto(mining(git_repo))
    text = (git_repo / "CHANGELOG.md").read_text()
    assert f"## [2.0.0] - 2026-01-03\n\n### Fixed\n\n- last bug ({final[:7]})\n" in text
    assert f"## [2.0.0b1] - 2026-01-01\n\n### Added\n\n- beta feature ({first[:7]})\n" in text
    assert "2.0.0rc1" not in text
    assert "No notable changes" not in text


def test_release_as_instructions_are_not_breaking_changes(git_repo):
    bump = commit(git_repo, "feat!: Release as 3.0.0", {"a": "1\n"}, day=1)
    footer = commit(git_repo, "chore: finish the release\n\nRelease-As: 2.6.2", {"b": "1\n"}, day=2)
    real = commit(git_repo, "feat!: drop Python 3.8", {"c": "1\n"}, day=3)
    run_auto(mining(git_repo))
    notes = _notes(git_repo)
    assert notes[bump]["breaking"] is False
    assert notes[real]["breaking"] is True
    assert footer not in notes
    text = (git_repo / "CHANGELOG.md").read_text()
    assert text.count("### BREAKING CHANGES") == 1
    assert "Release as 3.0.0" in text.split("### Added")[1]
    other = git_repo.parent / "other"  # release-please lists a Release-As commit whatever its type
    git(git_repo, "clone", "-q", str(git_repo), str(other))
    (other / "orkestra.yaml").write_text("mining:\n  changelog:\n    format: release-please\n")
    run_auto(mining(other))
    assert released_notes(mining(other))[footer]["type"] == "chore"
    assert (
        f"### Miscellaneous Chores\n\n* finish the release ({footer[:7]})\n"
        in (other / "CHANGELOG.md").read_text()
    )


def _monorepo(repo, mode: str | None):
    config = f"mining:\n  changelog:\n    packages: {mode}\n" if mode else ""
    (repo / "orkestra.yaml").write_text(config)
    shas = [
        commit(
            repo,
            "feat(core): core thing",
            {"packages/core/package.json": "{}\n", "packages/core/a.js": "1\n"},
            day=1,
        ),
        commit(
            repo,
            "fix(web): web thing",
            {"packages/web/package.json": "{}\n", "packages/web/a.js": "1\n"},
            day=2,
        ),
        commit(repo, "feat: root thing", {"tool.js": "1\n"}, day=3),
    ]
    tag(repo, "v1.0.0", day=3)
    return {f["path"]: f["entries"] for f in run_auto(mining(repo))["files"]}, shas


def test_monorepo_one_root_changelog_covering_every_package(git_repo):
    files, shas = _monorepo(git_repo, "root")
    assert files == {"CHANGELOG.md": 3}
    text = (git_repo / "CHANGELOG.md").read_text()
    assert all(s[:7] in text for s in shas)
    assert not (git_repo / "packages/core/CHANGELOG.md").exists()


def test_monorepo_per_package_files_by_default_and_both(git_repo, tmp_path):
    files, _ = _monorepo(git_repo, None)
    assert files == {"CHANGELOG.md": 1, "packages/core/CHANGELOG.md": 1, "packages/web/CHANGELOG.md": 1}
    other = tmp_path / "other"
    other.mkdir()
    git(other, "init", "-q", "-b", "main")
    files, _ = _monorepo(other, "both")
    assert files == {"CHANGELOG.md": 3, "packages/core/CHANGELOG.md": 1, "packages/web/CHANGELOG.md": 1}


def test_project_name_comes_from_the_repository_not_the_placeholder(git_repo):
    (git_repo / "orkestra.yaml").write_text("project: my-project\n")
    (git_repo / "package.json").write_text(json.dumps({"name": "left-pad"}))
    assert load_mining_paths(git_repo).project == "left-pad"
    (git_repo / "package.json").unlink()
    git(git_repo, "remote", "add", "origin", "git@github.com:acme/rocket.git")
    assert load_mining_paths(git_repo).project == "rocket"
    (git_repo / "orkestra.yaml").write_text("project: Chosen\n")
    assert load_mining_paths(git_repo).project == "Chosen"


def test_release_please_format_with_links_from_the_remote(git_repo):
    (git_repo / "orkestra.yaml").write_text(RP)
    git(git_repo, "remote", "add", "origin", "https://user:secret@github.com/acme/rocket.git")
    one = commit(git_repo, "feat: first (#1)", {"a": "1\n"}, day=1)
    tag(git_repo, "v1.0.0", day=1)
    two = commit(git_repo, "fix(cli)!: second\n\nBREAKING CHANGE: flags renamed", {"a": "2\n"}, day=2)
    three = commit(git_repo, "perf: third", {"a": "3\n"}, day=2)
    tag(git_repo, "v2.0.0", day=2)
    run_auto(mining(git_repo))
    url = "https://github.com/acme/rocket"
    assert (git_repo / "CHANGELOG.md").read_text() == (
        "# Changelog\n\n"
        f"## [2.0.0]({url}/compare/v1.0.0...v2.0.0) (2026-01-02)\n\n\n"
        "### ⚠ BREAKING CHANGES\n\n* **cli:** second\n\n\n"
        f"### Bug Fixes\n\n* **cli:** second ([{two[:7]}]({url}/commit/{two}))\n\n\n"
        f"### Performance Improvements\n\n* third ([{three[:7]}]({url}/commit/{three}))\n\n"
        "## 1.0.0 (2026-01-01)\n\n\n"
        f"### Features\n\n* first ([#1]({url}/issues/1)) ([{one[:7]}]({url}/commit/{one}))\n"
    )
    assert "secret" not in (git_repo / "CHANGELOG.md").read_text()


def test_never_written_beside_a_changelog_of_another_name_unless_asked(git_repo):
    commit(git_repo, "feat: a", {"CHANGES.rst": "Changes\n=======\n", "a": "1\n"}, day=1)
    result = run_auto(mining(git_repo))
    assert result["files"] == [{"package": ".", "path": "CHANGELOG.md", "entries": 1, "status": "skipped"}]
    assert "not written beside the existing CHANGES.rst" in result["warnings"][0]
    assert not (git_repo / "CHANGELOG.md").exists()
    (git_repo / "orkestra.yaml").write_text("mining:\n  changelog:\n    path: docs/CHANGELOG.md\n")
    result = run_auto(mining(git_repo))
    assert result["files"][0] == {
        "package": ".",
        "path": "docs/CHANGELOG.md",
        "entries": 1,
        "status": "created",
    }
