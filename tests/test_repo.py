"""The repository's own promises: README commands and CI agree."""

from __future__ import annotations

import os
import re
import subprocess

from conftest import REPO


def readme_commands() -> list[str]:
    text = (REPO / "README.md").read_text()
    return re.findall(r"```bash\n(python3 -m venv[^\n]+)\n```", text)


def test_readme_gives_exactly_two_setup_commands():
    """README.md's quick start has the main-job command and the test command."""
    commands = readme_commands()
    assert len(commands) == 2
    assert "orkestra sync" in commands[0]
    assert "pytest" in commands[1]


def test_ci_runs_readme_test_command_verbatim():
    """.ci/run calls exactly the test command README.md documents."""
    ci = (REPO / ".ci" / "run").read_text()
    assert readme_commands()[1] in ci.splitlines()


def test_ci_lints_with_the_pinned_ruff_before_the_tests():
    """.ci/run runs .ci/lint (ruff format --check, ruff check) before pytest, with the test extra's ruff pin."""
    lines = (REPO / ".ci" / "run").read_text().splitlines()
    lint = next(i for i, line in enumerate(lines) if ".ci/lint" in line and not line.startswith("#"))
    assert lint < lines.index(readme_commands()[1])
    pins = re.findall(r'"ruff==([0-9.]+)"', (REPO / "pyproject.toml").read_text())
    assert len(pins) == 1, "pyproject.toml pins ruff exactly once (the test extra)"
    script = (REPO / ".ci" / "lint").read_text()
    assert "ruff" in script
    assert "format --check" in script
    assert '"$ruff" check' in script


def test_lint_refuses_a_ruff_other_than_the_pin(tmp_path):
    """Another ruff formats and flags differently: .ci/lint stops with exit 2 and names both versions."""
    fake = tmp_path / "ruff"
    fake.write_text("#!/bin/sh\necho 'ruff 0.0.1'\n")
    fake.chmod(0o755)
    result = subprocess.run(
        [str(REPO / ".ci" / "lint")], env={**os.environ, "RUFF": str(fake)}, capture_output=True, text=True
    )
    assert result.returncode == 2
    (pin,) = re.findall(r'"ruff==([0-9.]+)"', (REPO / "pyproject.toml").read_text())
    assert f"needs ruff {pin}" in result.stderr
    assert "0.0.1" in result.stderr
