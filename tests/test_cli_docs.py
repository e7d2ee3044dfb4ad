"""Every registered command has help text with an example, and a mention in docs/cli.md."""

from __future__ import annotations

import pytest
import typer
from conftest import REPO

from orkestra.cli import build_app

INSPECTION_GROUPS = ("system", "agents", "skills", "decisions", "truths", "search", "registry")


def command_paths() -> list[tuple[str, object]]:
    """(full command line, click command) for every leaf command of the whole tree."""
    found = []

    def walk(command, path: str) -> None:
        if hasattr(command, "commands"):  # a group (typer vendors its own click)
            for name, child in sorted(command.commands.items()):
                walk(child, f"{path} {name}")
        else:
            found.append((path, command))

    walk(typer.main.get_command(build_app([], eager=True)), "orkestra")
    return found


COMMANDS = command_paths()
DOCS = (REPO / "docs" / "cli.md").read_text()


@pytest.mark.parametrize("path,command", COMMANDS, ids=[path for path, _ in COMMANDS])
def test_every_command_has_help_and_a_docs_entry(path, command):
    assert (command.help or "").strip(), f"{path} has no help text"
    assert f"`{path.removeprefix('orkestra ')}" in DOCS or f"`{path}" in DOCS, f"{path} is not in docs/cli.md"


@pytest.mark.parametrize(
    "path,command",
    [(p, c) for p, c in COMMANDS if p.split()[1] in INSPECTION_GROUPS],
    ids=[p for p, _ in COMMANDS if p.split()[1] in INSPECTION_GROUPS],
)
def test_inspection_help_shows_an_example(path, command):
    assert "Example:" in command.help and "orkestra " in command.help.split("Example:")[1]
