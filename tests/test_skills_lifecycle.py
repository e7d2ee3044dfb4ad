"""Skill lifecycle: deprecation, replacements and ``requires`` are checked by validate."""

from __future__ import annotations

from pathlib import Path

from clirun import run_cli
from skills_helpers import make_workspace, skill_source

from orkestra.workspace import Workspace
from orkestra.workspace.lifecycle import check_lifecycle


def messages(root: Path) -> list[tuple[str, str, str]]:
    ws = Workspace.load(root)
    assert ws.errors == []
    return sorted(
        (Path(d.path).name if d.path.endswith(".yaml") else Path(d.path).parent.name, d.severity, d.message)
        for d in check_lifecycle(ws)
    )


def test_a_clean_workspace_has_no_lifecycle_diagnostics(tmp_path: Path):
    root = make_workspace(tmp_path / "ws")
    skill_source(root, "schema-migration", requires=["domains/sql-style"])
    skill_source(root, "sql-style")
    assert messages(root) == []


def test_unknown_requirements_and_replacements_are_errors_with_suggestions(tmp_path: Path):
    root = make_workspace(tmp_path / "ws")
    skill_source(
        root,
        "schema-migration",
        requires=["domains/sql-styl"],
        status="deprecated",
        replaced_by="schema-migrations",
    )
    skill_source(root, "sql-style")
    assert messages(root) == [
        (
            "schema-migration",
            "error",
            "requires unknown skill 'domains/sql-styl' (did you mean 'domains/sql-style'?)",
        ),
        ("schema-migration", "error", "unknown skill 'schema-migrations' (did you mean 'schema-migration'?)"),
    ]


def test_requires_cycles_are_one_error_each(tmp_path: Path):
    root = make_workspace(tmp_path / "ws")
    skill_source(root, "alpha", requires=["beta"])
    skill_source(root, "beta", requires=["gamma"])
    skill_source(root, "gamma", requires=["alpha"])
    assert messages(root) == [("alpha", "error", "requires cycle: alpha -> beta -> gamma -> alpha")]


def test_agents_listing_deprecated_skills_and_missing_requirements_get_warnings(tmp_path: Path):
    root = make_workspace(
        tmp_path / "ws", agents={"db-engineer": {"skills": ["old-migrations", "schema-migration"]}}
    )
    skill_source(root, "old-migrations", status="deprecated", replaced_by="schema-migration")
    skill_source(root, "schema-migration", requires=["sql-style"])
    skill_source(root, "sql-style")
    assert messages(root) == [
        (
            "db-engineer.yaml",
            "warning",
            "lists deprecated skill 'old-migrations'; use 'schema-migration' instead",
        ),
        (
            "db-engineer.yaml",
            "warning",
            "skill 'schema-migration' requires 'sql-style', which this agent does not load",
        ),
    ]


def test_validate_reports_lifecycle_errors_with_file_and_line(tmp_path: Path):
    root = make_workspace(tmp_path / "ws")
    skill_source(root, "schema-migration", requires=["nowhere"])
    result = run_cli("validate", cwd=root)
    assert result.returncode == 1
    line = next(line for line in (result.stdout + result.stderr).splitlines() if "nowhere" in line)
    assert line.startswith("registries/skills/domains/schema-migration/SKILL.md:")
    assert "metadata.requires.0" in line
