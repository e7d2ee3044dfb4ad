"""One typed model for orkestra.yaml: every section typed by its owner, read once per process,
errors naming file, line and field; one YAML reader, one git runner and one atomic writer."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest
from conftest import REPO, git

from maguyva.config import MaguyvaConfig
from orkestra.errors import WorkspaceError
from orkestra.fs.atomic import atomic_file, create_new, write_atomic
from orkestra.mining.config import load_mining_paths
from orkestra.mining.settings import MiningConfig
from orkestra.telemetry.project import load_settings
from orkestra.telemetry.settings import TelemetrySettings
from orkestra.workspace import Workspace
from orkestra.workspace.config import OrkestraConfig, load_config

PACKAGE = REPO / "orkestra"


def write(root: Path, text: str) -> None:
    (root / "orkestra.yaml").write_text(text)


def messages(exc: pytest.ExceptionInfo) -> list[str]:
    return [str(d) for d in exc.value.diagnostics]


def test_every_section_is_typed_by_the_model_its_owner_keeps(tmp_path):
    write(
        tmp_path,
        "version: 1\nmining:\n  releasable_types: [feat]\nmaguyva:\n  store: idx.db\n"
        "telemetry:\n  enabled: false\n",
    )
    config = load_config(tmp_path)
    assert isinstance(config.mining, MiningConfig)
    assert config.mining.releasable_types == ["feat"]
    assert isinstance(config.maguyva, MaguyvaConfig)
    assert config.maguyva.store == "idx.db"
    assert isinstance(config.telemetry, TelemetrySettings)
    assert config.telemetry.enabled is False
    assert load_config(tmp_path / "nowhere") == OrkestraConfig()


@pytest.mark.parametrize(
    "text, expected",
    [
        (
            "version: 1\nmaguyva:\n  store: x.db\n  colour: red\n",
            "orkestra.yaml:4:3: maguyva.colour: unknown field (not part of the schema)",
        ),
        (
            "version: 1\nmining:\n  domains:\n    web: {paths: [a], scope: [b]}\n",
            "orkestra.yaml:4:23: mining.domains.web.scope: unknown field (not part of the schema)",
        ),
        (
            "version: 1\nmining:\n  ledger_dir: [a]\n",
            "orkestra.yaml:3:3: mining.ledger_dir: Input should be a valid string",
        ),
        (
            "version: 1\nmining:\n  changelog:\n    format: nope\n",
            "orkestra.yaml:4:5: mining.changelog.format: Input should be 'keep-a-changelog' or 'release-please'",
        ),
        (
            "version: 1\ntelemetry:\n  loki:\n    endpoint: logs:3100\n",
            "orkestra.yaml:4:5: telemetry.loki.endpoint: expected an http(s) URL, got 'logs:3100'",
        ),
        (
            "version: 1\ntargets: [claude, emacs]\n",
            (
                "orkestra.yaml:2:19: targets.1: Input should be 'claude', 'agents-md', 'agent-skills', 'cursor', "
                "'copilot' or 'plugin'"
            ),
        ),
        (
            "version: 1\nversion: 2\n",
            (
                "orkestra.yaml:2:1: version: duplicate key 'version' (first defined on line 1); "
                "a second definition would silently replace the first"
            ),
        ),
    ],
)
def test_a_bad_value_names_file_line_and_field_for_every_reader(tmp_path, text, expected):
    write(tmp_path, text)
    with pytest.raises(WorkspaceError) as info:
        load_config(tmp_path)
    assert messages(info) == [expected]
    with pytest.raises(WorkspaceError) as info:
        load_mining_paths(tmp_path)  # mining reads the same model: the same diagnostic
    assert messages(info) == [expected]
    if "telemetry" in text:
        with pytest.raises(WorkspaceError):
            load_settings(tmp_path)


def test_the_workspace_load_reports_the_same_diagnostic(tmp_path):
    write(tmp_path, "version: 1\nmaguyva:\n  embeddings:\n    backend: gpu\n")
    ws = Workspace.load(tmp_path)
    errors = [str(d) for d in ws.diagnostics if d.field.startswith("maguyva")]
    assert errors
    assert errors[0].startswith("orkestra.yaml:4:5: maguyva.embeddings.backend:")


def test_the_file_is_parsed_once_per_process_while_its_bytes_are_unchanged(tmp_path, monkeypatch):
    import orkestra.workspace.config as config_module

    write(tmp_path, "version: 1\nproject: one\n")
    calls = []
    real = config_module.config_from_document
    monkeypatch.setattr(config_module, "config_from_document", lambda doc: calls.append(1) or real(doc))
    assert [load_config(tmp_path).project for _ in range(3)] == ["one"] * 3
    assert len(calls) == 1
    write(tmp_path, "version: 1\nproject: two\n")  # same size, maybe the same mtime tick: bytes decide
    assert load_config(tmp_path).project == "two"
    assert len(calls) == 2


def test_mining_decisions_dir_defaults_to_the_workspace_decisions_path(tmp_path):
    write(tmp_path, "version: 1\npaths:\n  decisions: docs/adr\n")
    paths = load_mining_paths(tmp_path)
    assert paths.decisions_dir == tmp_path / "docs/adr"
    write(tmp_path, "version: 1\npaths:\n  decisions: docs/adr\nmining:\n  decisions_dir: elsewhere\n")
    assert load_mining_paths(tmp_path).decisions_dir == tmp_path / "elsewhere"


def _calls(path: Path) -> list[str]:
    """Dotted names of every call in a module (``yaml.safe_load``, ``subprocess.run``, …)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
        ):
            found.append(f"{node.func.value.id}.{node.func.attr}")
    return found


def test_one_yaml_reader_one_git_runner_one_atomic_writer():
    readers, runners, writers = {}, {}, {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        calls = _calls(path)
        readers[rel] = [
            c for c in calls if c in ("yaml.safe_load", "yaml.load", "yaml.compose", "yaml.full_load")
        ]
        runners[rel] = [
            c
            for c in calls
            if c in ("subprocess.run", "subprocess.Popen", "subprocess.check_output")
            and '"git"' in path.read_text(encoding="utf-8")
        ]
        writers[rel] = [c for c in calls if c in ("os.replace", "os.rename", "tempfile.mkstemp")]
    assert {k for k, v in readers.items() if v} == {"orkestra/workspace/source.py"}
    assert {k for k, v in runners.items() if v} == {"orkestra/git.py"}
    # plugin build swaps whole folders (orkestra/outdir.py); the write guard is the same write with symlink
    # checks on top
    assert {k for k, v in writers.items() if v} == {
        "orkestra/fs/atomic.py",
        "orkestra/outdir.py",
        "orkestra/fs/guard.py",
        "orkestra/telemetry/loki.py",
    }


def test_the_atomic_writer_leaves_old_or_new_and_no_temporary_file(tmp_path):
    target = tmp_path / "deep" / "file.txt"
    write_atomic(target, "old")
    with pytest.raises(RuntimeError), atomic_file(target) as handle:
        handle.write(b"half")
        raise RuntimeError("killed")
    assert target.read_text() == "old"
    assert os.listdir(target.parent) == ["file.txt"]
    write_atomic(target, b"new", mode=0o644)
    assert target.read_bytes() == b"new"
    assert (target.stat().st_mode & 0o777) == 0o644
    assert create_new(tmp_path / "once.txt", "a")
    assert not create_new(tmp_path / "once.txt", "b")
    assert (tmp_path / "once.txt").read_text() == "a"
    assert sorted(os.listdir(tmp_path)) == ["deep", "once.txt"]


def test_the_git_runner_answers_nothing_outside_a_repository(tmp_path, git_repo):
    from orkestra import git as runner

    assert runner.output(tmp_path, "rev-parse", "HEAD") == ""
    git(git_repo, "commit", "-q", "--allow-empty", "-m", "feat: first")
    assert len(runner.output(git_repo, "rev-parse", "HEAD").strip()) == 40


def test_a_bad_memory_section_is_located_at_load_time(tmp_path):
    write(tmp_path, "version: 1\nmemory:\n  hook: yes please\n")
    with pytest.raises(WorkspaceError) as info:
        load_config(tmp_path)
    assert messages(info) == ["orkestra.yaml:3:3: memory.hook: expected true or false"]
    write(tmp_path, "version: 1\nmemory:\n  hook: true\n")
    assert load_config(tmp_path).memory == {"hook": True}


def test_mining_without_orkestra_yaml_has_the_paths_of_the_default_model(tmp_path):
    """No orkestra.yaml: mining builds its paths without the model (no pydantic), the very paths the
    default model gives."""
    from orkestra.mining.config import mining_paths

    without = load_mining_paths(tmp_path)
    assert without == mining_paths(tmp_path, OrkestraConfig())
    assert without.decisions_dir == tmp_path / "ai_assets/reference/decisions"
    assert without.config.releasable == ("feat", "fix", "perf", "revert")
    assert without.project == tmp_path.name  # looked up when first asked


def test_releasable_types_set_in_the_file_are_told_from_the_default(tmp_path):
    write(tmp_path, "version: 1\nmining:\n  releasable_types: [feat, fix, perf, revert]\n")
    assert load_mining_paths(tmp_path).config.releasable_types == ["feat", "fix", "perf", "revert"]
    write(tmp_path, "version: 1\n")
    assert load_mining_paths(tmp_path).config.releasable_types is None  # release-please then uses its own
