"""Every registered command has help text with an example and a mention in docs/cli.md; every
`orkestra …` / `maguyva …` command line of README.md and docs/*.md names commands and options the
real Typer app has; the README walkthrough and docs agree with what the CLI prints and exits with."""

from __future__ import annotations

import json
import re
import shlex

import pytest
import typer
from clirun import run_cli
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
    assert "Example:" in command.help
    assert "orkestra " in command.help.split("Example:")[1]


# --- every command line the README and docs show runs against the real CLI ---------------------

DOC_FILES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
SHELL_BLOCKS = ("", "bash", "sh", "shell", "console")
# words that stand for something the reader fills in: checking stops at them
PLACEHOLDERS = {"<command>", "[SHELL]", "X.Y.Z", "…", "..."}
# command lines shown on purpose although the CLI has no such command (the reason is the value)
NOT_COMMANDS = {
    "orkestra code lang-report": "docs/cli.md says it is gone (bench/lang_report.py replaced it)",
    "orkestra  ──►  maguyva": "docs/architecture.md's package diagram, not a command line",
    "orkestra agnets": "docs/cli.md's Typos row: a mistyped command on purpose",
    "orkestra agents lst": "docs/cli.md's Typos row",
    "orkestra code idnex": "docs/cli.md's Typos row",
}
ROOT_ONLY = {"--install-completion", "--show-completion", "--version", "--help"}


def doc_command_lines() -> list[tuple[str, str]]:
    """(file, line) for every shell code block line and every inline code span naming a command."""
    found = []
    for path in DOC_FILES:
        text = path.read_text(encoding="utf-8")
        for block in re.finditer(r"^```(\w*)[^\n]*\n(.*?)^```", text, re.M | re.S):
            if block.group(1) in SHELL_BLOCKS:
                found += [(path.name, line.removeprefix("$ ")) for line in block.group(2).splitlines()]
        prose = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
        found += [
            (path.name, span.rstrip("\\")) for span in re.findall(r"`((?:orkestra|maguyva) [^`]+)`", prose)
        ]
    return [(name, line) for name, line in found if not any(skip in line for skip in NOT_COMMANDS)]


def invocations(line: str) -> list[list[str]]:
    """The ``orkestra …`` / ``maguyva …`` commands of a shell line (pipes, ``&&``, env prefixes, comments)."""
    try:
        words = shlex.split(line, comments=True)
    except ValueError:  # an unbalanced quote in prose: plain words
        words = line.split()
    found, current = [], []
    for word in [*words, ";"]:
        if word not in ("&&", "||", "|", ";"):
            current.append(word)
            continue
        while current and re.match(r"^[A-Z_][A-Z0-9_]*=", current[0]):  # MAGUYVA_STORE=… maguyva …
            current = current[1:]
        if current[:2] == ["python", "-m"] or current[:2] == ["python3", "-m"]:
            current = current[2:]
        if current and current[0].rsplit("/", 1)[-1] in ("orkestra", "maguyva"):
            found.append([current[0].rsplit("/", 1)[-1], *current[1:]])
        current = []
    return found


def _options(command) -> set[str]:
    names = {"--help"}
    for param in command.params:
        names.update(getattr(param, "opts", ()), getattr(param, "secondary_opts", ()))
    return names


TREES: dict[str, object] = {}


def problems_of(words: list[str]) -> list[str]:
    """What in ``words`` the real Typer app does not have: a command on the path, or an option."""
    if not TREES:
        from maguyva.cli.app import whole_app

        TREES["orkestra"] = typer.main.get_command(build_app([], eager=True))
        TREES["maguyva"] = typer.main.get_command(whole_app())
    command, path, rest = TREES[words[0]], [words[0]], words[1:]
    while hasattr(command, "commands") and rest:
        word, rest = rest[0], rest[1:]
        if word.startswith("-"):
            if word.split("=")[0] not in _options(command) | ROOT_ONLY:
                return [f"{' '.join(path)} has no option {word}"]
        elif word in PLACEHOLDERS:
            return []
        elif word not in command.commands:
            return [f"{' '.join(path)} has no command {word!r}"]
        else:
            command = command.commands[word]
            path.append(word)
    if hasattr(command, "commands"):
        return []
    known = _options(command) | {"--root", "--json"}  # the hidden aliases (docs/cli.md, Conventions)
    wrong = []
    for word in rest:
        if word == "--":
            break
        if re.match(r"^--?[A-Za-z]", word) and word.split("=")[0] not in known:
            wrong.append(f"{' '.join(path)} has no option {word}")
    return wrong


DOC_LINES = [(name, line) for name, line in doc_command_lines() if invocations(line)]


def test_the_docs_show_many_command_lines():
    assert len(DOC_LINES) > 150
    assert {name for name, _ in DOC_LINES} >= {"README.md", "cli.md", "memory.md"}


@pytest.mark.parametrize("name,line", DOC_LINES, ids=[f"{n}:{line[:60]}" for n, line in DOC_LINES])
def test_each_docs_command_line_names_commands_and_options_the_cli_has(name, line):
    for words in invocations(line):
        assert problems_of(words) == [], f"{name}: {line}"


@pytest.mark.parametrize(
    "line,problem",
    [
        ("orkestra agnets list", "orkestra has no command 'agnets'"),
        ("orkestra sync --chek", "orkestra sync has no option --chek"),
        ("cd x && MAGUYVA_STORE=/s maguyva serch q | jq .", "maguyva has no command 'serch'"),
        ("orkestra code index --dry-run --format json  # fine", None),
        ("python -m orkestra decisions info ID --root .", None),
    ],
)
def test_the_docs_check_catches_a_wrong_command_or_option(line, problem):
    found = [p for words in invocations(line) for p in problems_of(words)]
    assert found == ([problem] if problem else [])


def test_readme_walkthrough_lists_what_init_prints_in_the_same_order(tmp_path):
    """README says `init` prints the walkthrough's core as its next steps: each command init prints is a
    line of the README's walkthrough block, in init's order."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "CLAUDE.md").write_text("# Notes\n")  # something to import: init then names `import` too
    done = run_cli("init", "--format", "json", cwd=repo)
    assert done.returncode == 0, done.stderr
    printed = done.stderr.split("Next steps:\n")[1].splitlines()
    steps = [" ".join(s.split("#")[0].split()) for s in printed if s.strip().startswith("orkestra ")]
    assert steps
    assert steps == [
        " ".join(s.split("#")[0].split())
        for s in json.loads(done.stdout)["next_steps"]
        if s.startswith("orkestra ")
    ]
    readme = (REPO / "README.md").read_text()
    block = readme.split("## Use it in your repository")[1].split("```bash\n")[1].split("```")[0]
    walkthrough = [" ".join(line.split("#")[0].split()) for line in block.splitlines()]
    positions = [walkthrough.index(step) if step in walkthrough else -1 for step in steps]
    assert -1 not in positions, (steps, walkthrough)
    assert positions == sorted(positions), (steps, walkthrough)


def test_import_without_a_workspace_exits_as_docs_cli_md_says(tmp_path):
    docs = (REPO / "docs" / "cli.md").read_text()
    section = docs.split("### `import ")[1].split("\n### ")[0]
    assert "exits 1" in section
    assert "exit 2" not in section
    assert "| No workspace | Without `orkestra.yaml` a command exits 1" in docs
    done = run_cli("import", cwd=tmp_path)
    assert done.returncode == 1
    assert "no orkestra.yaml" in done.stderr
    assert "orkestra init" in done.stderr
