"""What init reads beyond the manifests (setup.py, setup.cfg, version files, CLAUDE.md, CI, package.json
``main``) comes from a cloned repository anyone wrote: it is parsed, never run; bounded; and nothing
outside the clone is read through it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from orkestra.project_info import inspect_project, read_manifest


def run_init(root: Path) -> subprocess.CompletedProcess:
    try:
        result = subprocess.run(
            [sys.executable, "-m", "orkestra", "init"], cwd=root, capture_output=True, text=True, timeout=300
        )
    except subprocess.TimeoutExpired:
        pytest.fail("`orkestra init` hangs")
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    return result


def test_setup_py_is_parsed_never_executed(git_repo: Path, tmp_path: Path):
    marker = tmp_path / "ran"
    (git_repo / "setup.py").write_text(
        "from setuptools import setup\n"
        f"open({str(marker)!r}, 'w').close()\n"
        f"setup(name='victim', version=__import__('os').system('touch {marker}') or '1.0',\n"
        "      author=open('/etc/hostname').read())\n"
    )
    assert run_init(git_repo).returncode == 0
    info = read_manifest(git_repo)
    assert not marker.exists()  # neither the module body nor a keyword's expression ran
    assert (info.name, info.version, info.authors) == ("victim", "", ())  # non-literal values are not read


@pytest.mark.parametrize(
    "source",
    [
        "setup(name='deep', version=" + "(" * 100_000 + "1" + ")" * 100_000 + ")\n",
        "setup(name='deep', classifiers=" + "[" * 50_000 + "]" * 50_000 + ")\n",
        "setup(" * 30_000 + ")" * 30_000 + "\n",
        "def broken(:\n",
    ],
    ids=["parens", "lists", "calls", "syntax"],
)
def test_a_hostile_setup_py_is_passed_over(git_repo: Path, source: str):
    (git_repo / "setup.py").write_text(source)
    assert run_init(git_repo).returncode == 0
    assert read_manifest(git_repo).version == ""


def test_a_setup_cfg_without_sections_is_passed_over(git_repo: Path):
    (git_repo / "setup.cfg").write_text("name = nosection\n[metadata\nversion = 1\n")
    (git_repo / "pyproject.toml").write_text('[project]\nname = "real"\nversion = "2.0"\n')
    assert run_init(git_repo).returncode == 0
    assert (read_manifest(git_repo).name, read_manifest(git_repo).version) == ("real", "2.0")


def test_version_and_hub_files_outside_the_clone_are_not_read(git_repo: Path, tmp_path: Path):
    outside = tmp_path / "outside"
    (outside / "pkg").mkdir(parents=True)
    (outside / "version.py").write_text('__version__ = "6.6.6"\n')
    (outside / "pkg/__init__.py").write_text('__version__ = "6.6.6"\nfrom pkg import secret\n')
    (outside / "pkg/secret.py").write_text("x = 1\n")
    (git_repo / "pyproject.toml").write_text(
        '[project]\nname = "pkg"\ndynamic = ["version"]\n'
        '[tool.hatch.version]\npath = "../outside/version.py"\n'
    )
    (git_repo / "pkg").symlink_to(outside / "pkg")  # a linked package folder
    (git_repo / "package.json").write_text(json.dumps({"name": "x", "main": "../outside/version.py"}))
    assert run_init(git_repo).returncode == 0
    info = inspect_project(git_repo)
    assert info.version != "6.6.6"
    assert not any("outside" in p or "secret" in p for p in (*info.hubs, *info.entry_points))


def test_a_huge_one_line_claude_md_and_ci_file_are_read_in_bounded_time(git_repo: Path):
    (git_repo / "CLAUDE.md").write_text("`" * 3_000_000 + "\n")
    workflows = git_repo / ".github/workflows"
    workflows.mkdir(parents=True)
    (workflows / "ci.yml").write_text("run: |\n" + ("  " + "x" * 1000 + "\n") * 3000)
    (git_repo / "Makefile").write_text("test:\n\tpytest\n" + "a:" * 1_000_000 + "\n")
    result = run_init(git_repo)
    assert result.returncode == 0
    assert inspect_project(git_repo).test_command == "make test"
