"""A corpus of broken workspaces: each names file and line, and nothing generated is touched."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from clirun import run_cli
from conftest import REPO

BASE = REPO / "tests/fixtures/workspaces/rich"
CASES = sorted(p.name for p in (REPO / "tests/fixtures/malformed").iterdir() if (p / "expect.yaml").is_file())


def apply_case(root: Path, case: str) -> dict:
    """Apply a case's edits and extra files to the workspace at ``root``; return its expectation."""
    spec = yaml.safe_load((REPO / "tests/fixtures/malformed" / case / "expect.yaml").read_text())
    for edit in spec.get("edits", []):
        path = root / edit["file"]
        text = path.read_text()
        assert text.count(edit["old"]) == 1, f"{case}: {edit['old']!r} must occur once in {edit['file']}"
        path.write_text(text.replace(edit["old"], edit["new"]))
    for rel, content in spec.get("write", {}).items():
        (root / rel).write_text(content)
    return spec["expect"]


def generated_files(root: Path) -> dict[str, bytes]:
    """Every file sync wrote (owned and merged, per the manifest), plus the manifest itself."""
    manifest = yaml.safe_load((root / ".claude/.orkestra-manifest.json").read_text())
    paths = [*manifest["files"], *manifest["merged"], ".claude/.orkestra-manifest.json"]
    assert ".claude/settings.json" in paths
    assert len(paths) == 20
    return {rel: (root / rel).read_bytes() for rel in paths}


@pytest.fixture(scope="module")
def synced_base(tmp_path_factory) -> tuple[Path, dict[str, bytes]]:
    root = tmp_path_factory.mktemp("base") / "ws"
    shutil.copytree(BASE, root)
    result = run_cli("sync", cwd=root)
    assert result.returncode == 0, result.stderr
    return root, generated_files(root)


def test_corpus_has_at_least_twenty_cases():
    assert len(CASES) >= 20


@pytest.mark.parametrize("case", CASES)
def test_malformed_workspace_fails_naming_file_and_line_and_writes_nothing(case, synced_base, tmp_path):
    base, before = synced_base
    root = tmp_path / "ws"
    shutil.copytree(base, root)
    expect = apply_case(root, case)
    result = run_cli("sync", cwd=root)
    assert result.returncode == 1, result.stdout + result.stderr
    lines = [
        line for line in result.stderr.splitlines() if line.startswith(f"{expect['path']}:{expect['line']}:")
    ]
    assert any(expect["message"] in line for line in lines), result.stderr
    assert generated_files(root) == before
