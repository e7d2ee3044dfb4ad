"""The CLI stays light: inspection commands import no jinja2, rich, git, tree_sitter or mcp; code grep and
code symbol (both entry points) no numpy, pydantic, answer models or ranking; `orkestra --help` no command
module."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from cli_workspace import make_workspace
from clirun import run_cli
from conftest import git

from orkestra.cli import ENTRIES, SUMMARIES

HEAVY = ("jinja2", "rich", "git", "tree_sitter", "tree_sitter_language_pack", "mcp", "numpy", "networkx")

RUNNER = """
import json, sys
from orkestra.cli import build_app
argv = sys.argv[2:]
try:
    build_app(argv)(args=argv, prog_name="orkestra")
except SystemExit as exc:
    code = exc.code
heavy = sorted(m for m in json.loads(sys.argv[1]) if m in sys.modules)
sys.stderr.write(json.dumps({"code": code, "heavy": heavy}) + "\\n")
"""


def run_in_process(*argv: str, heavy: tuple[str, ...] = HEAVY, cwd=None) -> dict:
    result = subprocess.run(
        [sys.executable, "-c", RUNNER, json.dumps(heavy), *argv],
        capture_output=True,
        text=True,
        check=True,
        cwd=cwd,
    )
    return json.loads(result.stderr.strip().splitlines()[-1])


@pytest.mark.parametrize("command", [("system", "status"), ("agents", "list"), ("search", "database")])
def test_inspection_commands_import_no_heavy_module_cold_or_cached(tmp_path, command):
    root = make_workspace(tmp_path / "ws")
    cold = run_in_process(*command, "--root", str(root))  # loads the workspace and writes the cache
    warm = run_in_process(*command, "--root", str(root))  # answers from the cache
    assert cold == warm == {"code": 0, "heavy": []}


# what grep and symbol on one repository's index never need: the answer models, the ranking, the team code
NOT_FOR_GREP = (
    "numpy",
    "pydantic",
    "jinja2",
    "rich",
    "git",
    "mcp",
    "maguyva.answers",
    "maguyva.scope",
    "maguyva.workspace",
    "maguyva.retrieve.rank",
    "maguyva.retrieve.fuse",
    "maguyva.retrieve.intent",
    "maguyva.retrieve.query",
    "maguyva.retrieve.graph",
    "maguyva.retrieve.bm25f",
    "maguyva.cli.index",
    "maguyva.cli.team",
    "maguyva.cli.embed",
    # nor the graph and extraction records, the embedding settings, the PostgreSQL location model,
    # the index-wide values, BM25's words
    "maguyva.models.references",
    "maguyva.models.extraction",
    "maguyva.embed.settings",
    "maguyva.embed.units",
    "maguyva.store.postgres.location",
    "maguyva.store.values",
    "maguyva.search_words",
)  # and no other command's module

MAGUYVA_RUNNER = """
import json, sys
from maguyva.cli import main
heavy_names, sys.argv = sys.argv[1], ["maguyva", *sys.argv[2:]]
try:
    main()
except SystemExit as exc:
    code = exc.code
heavy = sorted(m for m in json.loads(heavy_names) if m in sys.modules)
sys.stderr.write(json.dumps({"code": code, "heavy": heavy}) + "\\n")
"""


@pytest.mark.parametrize(
    "command",
    [("grep", "greet"), ("symbol", "greet"), ("grep", "--regex", "gr[e]+t"), ("symbol", "--similar", "gret")],
)
def test_code_grep_and_symbol_import_no_answer_model_nor_ranking(git_repo, command):
    (git_repo / "pkg").mkdir()
    (git_repo / "pkg" / "hello.py").write_text("def greet(name):\n    return 'hi ' + name\n")
    git(git_repo, "add", ".")
    git(git_repo, "commit", "-qm", "feat: greet")
    assert run_cli("code", "index", ".", cwd=git_repo).returncode == 0
    heavy = NOT_FOR_GREP + (() if "--regex" in command else ("re2",))  # RE2 only for a regex
    probe = run_in_process("code", *command, heavy=heavy, cwd=git_repo)
    assert probe == {"code": 0, "heavy": []}
    result = subprocess.run(
        [sys.executable, "-c", MAGUYVA_RUNNER, json.dumps(heavy), *command],
        capture_output=True,
        text=True,
        check=True,
        cwd=git_repo,
    )
    assert json.loads(result.stderr.strip().splitlines()[-1]) == {"code": 0, "heavy": []}
    assert "greet" in result.stdout  # it answered: the JSON of the hit


def test_code_search_still_builds_the_typed_answer(git_repo):
    (git_repo / "hello.py").write_text("def greet(name):\n    return 'hi ' + name\n")
    git(git_repo, "add", ".")
    git(git_repo, "commit", "-qm", "feat: greet")
    assert run_cli("code", "index", ".", cwd=git_repo).returncode == 0
    probe = run_in_process("code", "search", "greet", heavy=("pydantic", "maguyva.answers"), cwd=git_repo)
    assert probe == {"code": 0, "heavy": ["maguyva.answers", "pydantic"]}


def test_mine_sync_without_orkestra_yaml_imports_no_config_model_nor_yaml(git_repo):
    """A repository that is only mined (no orkestra.yaml) is read with the defaults: no pydantic, no YAML."""
    (git_repo / "a.py").write_text("x = 1\n")
    git(git_repo, "add", ".")
    git(git_repo, "commit", "-qm", "feat: one")
    heavy = ("pydantic", "yaml", "orkestra.workspace.config", "jinja2", "rich", "git")
    assert run_in_process("mine", "sync", "--full", heavy=heavy, cwd=git_repo) == {"code": 0, "heavy": []}
    (git_repo / "orkestra.yaml").write_text("version: 1\nmining:\n  releasable_types: [feat]\n")
    with_file = run_in_process("mine", "sync", heavy=("pydantic", "yaml"), cwd=git_repo)
    assert with_file == {"code": 0, "heavy": ["pydantic", "yaml"]}  # a file is validated by the model


def test_root_help_imports_no_command_module_and_matches_the_full_tree():
    modules = tuple(sorted({module for module, _ in ENTRIES.values()}))
    for argv in (("--help",), ()):
        assert run_in_process(*argv, heavy=modules)["heavy"] == []
    lazy, eager = (
        subprocess.run(
            [sys.executable, "-c", HELP_RUNNER, flag], capture_output=True, text=True, check=True
        ).stdout
        for flag in ("lazy", "eager")
    )
    assert "mine       Mine git history" in lazy
    assert lazy == eager  # SUMMARIES must say what each module's own help says


def test_every_entry_has_a_summary():
    assert set(SUMMARIES) == set(ENTRIES)


HELP_RUNNER = """
import sys
from orkestra.cli import build_app
try:
    build_app(["--help"], eager=sys.argv[1] == "eager")(args=["--help"], prog_name="orkestra")
except SystemExit:
    pass
"""


def test_a_command_line_naming_a_maguyva_command_builds_that_command_alone():
    from typer.testing import CliRunner

    from maguyva.cli.app import app, app_for

    assert [c.name for c in app_for(["grep", "x"]).registered_commands] == ["grep"]
    assert [c.name for c in app_for(["symbol", "--format", "json", "x"]).registered_commands] == ["symbol"]
    for words in ([], ["--help"], ["gerp", "x"], ["keys", "list"]):  # help, a typo, a group: the whole app
        assert app_for(words) is app
    runner = CliRunner()
    for words in (["grep", "--help"], ["symbol", "--help"], ["grep"], ["symbol", "x", "--kind"]):
        alone, whole = (runner.invoke(built, words, prog_name="maguyva") for built in (app_for(words), app))
        assert (alone.exit_code, alone.output) == (whole.exit_code, whole.output)
        assert "maguyva " + words[0] in alone.output or "requires an argument" in alone.output


@pytest.mark.parametrize(
    "words",
    [
        ("code", "grep", "--help"),
        ("code", "grep"),  # a missing argument: usage and exit code 2
        ("code", "symbol", "x", "--kind"),
        ("code", "grep", "--bogus"),
        ("code", "grep", "def main", "--format", "json"),
        ("code", "status", "--format", "json"),
    ],
)
def test_orkestra_code_answers_from_maguyva_directly_exactly_as_the_whole_tree_does(tmp_path, words):
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "app.py").write_text("def main():\n    return 1\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "init")
    run_cli("code", "index", cwd=repo)
    direct = run_cli(*words, cwd=repo)  # orkestra.entry: Maguyva's command, no orkestra tree
    whole = run_cli(*words, cwd=repo, env={"ORKESTRA_CODE_VIA_TREE": "1"})
    assert (direct.returncode, direct.stdout, direct.stderr) == (whole.returncode, whole.stdout, whole.stderr)
    assert direct.returncode in (0, 2)
    assert direct.stdout + direct.stderr  # an answer or an error, never silence


def test_orkestra_code_never_builds_the_orkestra_tree(tmp_path):
    script = (
        "import sys\nsys.argv = ['orkestra', 'code', 'grep', '--help']\nfrom orkestra.entry import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\nsys.stderr.write(str('orkestra.cli' in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path)
    assert done.stderr.strip().splitlines()[-1] == "False"
    assert "Usage: orkestra code grep" in done.stdout
