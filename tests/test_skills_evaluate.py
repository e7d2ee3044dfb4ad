"""The adoption rubric and depth levels of candidate skills."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from clirun import run_cli
from skills_helpers import commit_all, make_workspace, skill_source, write

from orkestra.trust.evaluate import evaluate_skill
from orkestra.workspace import Workspace

STRONG = (
    "Checks sequencing read quality before alignment. Use when the user asks whether reads are good enough."
)
TODAY = dt.date(2026, 11, 30)


def candidate(root: Path, *dirs: str, description: str = STRONG, extra: str = "") -> Path:
    folder = root / "read-qc"
    write(
        folder / "SKILL.md",
        f"---\nname: read-qc\ndescription: {description}\n{extra}---\n# Read QC\n\n"
        "## Steps\n1. Run the check.\n\n## Examples\nSee below.\n",
    )
    for name in dirs:
        write(folder / name / ("check.py" if name == "scripts" else "notes.md"), "print('ok')\n")
    return folder


def test_depth_levels_follow_the_files_a_skill_ships(tmp_path: Path):
    levels = [
        evaluate_skill(candidate(tmp_path / "a", description="Checks reads."), today=TODAY).depth.level,
        evaluate_skill(candidate(tmp_path / "b"), today=TODAY).depth.level,
        evaluate_skill(candidate(tmp_path / "c", "references"), today=TODAY).depth.level,
        evaluate_skill(candidate(tmp_path / "d", "references", "scripts"), today=TODAY).depth.level,
        evaluate_skill(candidate(tmp_path / "e", "references", "scripts", "assets"), today=TODAY).depth.level,
    ]
    assert levels == [1, 2, 3, 4, 5]


def test_gap_analysis_reports_the_most_similar_existing_skill_and_rejects_duplicates(tmp_path: Path):
    root = make_workspace(tmp_path / "ws")
    skill_source(root, "read-quality-control", description=STRONG, tags=("genomics", "qc"))
    skill_source(root, "schema-migration")
    ws = Workspace.load(root)
    gap = evaluate_skill(candidate(tmp_path / "c"), ws, TODAY).criteria["fills_real_gap"]
    assert gap.passed is False
    assert [s.name for s in gap.similar][:1] == ["read-quality-control"]
    assert gap.similar[0].score >= 0.5


def test_scripts_without_tests_fail_tested_and_unguarded_brew_fails_portable(tmp_path: Path):
    folder = candidate(tmp_path, "scripts", extra="argument-hint: FILE\n")
    write(folder / "scripts" / "setup.sh", "brew install fastqc\n")
    criteria = evaluate_skill(folder, today=TODAY).criteria
    assert criteria["tested"].passed is False
    assert criteria["portable"].passed is False
    assert criteria["portable"].reasons == (
        "Claude Code only frontmatter keys: argument-hint",
        "scripts/setup.sh: OS-specific command 'brew' without a platform guard",
    )


def test_maintenance_comes_from_last_updated_or_else_from_git(tmp_path: Path):
    fresh = candidate(tmp_path / "a", extra="metadata:\n  last_updated: '2026-10-01'\n")
    assert evaluate_skill(fresh, today=TODAY).criteria["actively_maintained"].passed is True
    repo = tmp_path / "repo"
    candidate(repo)
    commit_all(repo)  # pinned commit date 2026-01-01: older than six months on TODAY
    old = evaluate_skill(repo / "read-qc", today=TODAY).criteria["actively_maintained"]
    assert (old.passed, old.reasons) == (False, ("git 2026-01-01: 333 days ago (limit 183)",))


def test_cli_evaluate_prints_the_rubric_as_json(tmp_path: Path):
    root = make_workspace(tmp_path / "ws")
    folder = candidate(tmp_path / "c", "references")
    result = run_cli("skills", "evaluate", str(folder), cwd=root)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert sorted(data["criteria"]) == [
        "actively_maintained",
        "fills_real_gap",
        "portable",
        "tested",
        "well_structured",
    ]
    assert data["depth"] == {
        "level": 3,
        "signals": {
            "skill_md": True,
            "strong_description": True,
            "references": True,
            "atomic_scripts": False,
            "assets": False,
        },
    }
    assert data["criteria"]["fills_real_gap"]["pass"] is True
