"""The repository's own promises: README commands and CI agree."""

from __future__ import annotations

import re

from conftest import REPO


def readme_commands() -> list[str]:
    text = (REPO / "README.md").read_text()
    return re.findall(r"```bash\n(python3 -m venv[^\n]+)\n```", text)


def test_readme_gives_exactly_two_setup_commands():
    """README.md's quick start has the main-job command and the test command."""
    commands = readme_commands()
    assert len(commands) == 2
    assert "orkestra sync" in commands[0] and "pytest" in commands[1]


def test_ci_runs_readme_test_command_verbatim():
    """.ci/run calls exactly the test command README.md documents."""
    ci = (REPO / ".ci" / "run").read_text()
    assert readme_commands()[1] in ci.splitlines()
