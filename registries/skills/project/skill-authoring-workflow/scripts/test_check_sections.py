"""Tests for check_sections.py (run: python -m pytest scripts/test_check_sections.py)."""

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).with_name("check_sections.py")


def run(*paths: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *map(str, paths)], capture_output=True, text=True)


def write_skill(folder: Path, skill_type: str, sections: list[str]) -> Path:
    body = "".join(f"## {title}\ntext\n" for title in sections)
    path = folder / "SKILL.md"
    path.write_text(f"---\nmetadata:\n  type: {skill_type}\n---\n# x\n{body}")
    return path


def test_complete_workflow_skill_passes_silently(tmp_path):
    skill = write_skill(
        tmp_path, "workflow", ["When to use", "Steps", "Success criteria", "Failure recovery"]
    )
    assert (run(skill).returncode, run(skill).stdout) == (0, "")


def test_missing_type_section_is_named(tmp_path):
    skill = write_skill(tmp_path, "checklist", ["When to use", "Success criteria", "Failure recovery"])
    result = run(skill)
    assert (result.returncode, result.stdout) == (1, f"{skill}: missing Checklist\n")


def test_file_without_frontmatter_is_reported(tmp_path):
    skill = tmp_path / "SKILL.md"
    skill.write_text("# no frontmatter\n")
    assert run(skill).stdout == f"{skill}: missing frontmatter\n"
