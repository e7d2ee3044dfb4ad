"""Items 3 and 4 of issue 14: ``paths.*`` may not point into .git; a manifest may prune only its own outputs."""

from __future__ import annotations

import hashlib
import json

import pytest
from ork_workspace import cli, errors, files, workspace

MANIFEST = ".claude/.orkestra-manifest.json"


def _set_path(root, key: str, value: str) -> None:
    config = root / "orkestra.yaml"
    config.write_text(config.read_text() + f"paths:\n  {key}: {value}\n")


@pytest.mark.parametrize(
    "key, value",
    [
        ("mcp_config", "./.git/hooks/pre-commit"),
        ("output", "./.git/claude"),
        ("output", "packages/search/.git/claude"),  # a nested repository, at any depth
        ("decisions_digest", ".GIT/hooks/post-merge"),  # case-insensitive filesystems
        ("state", ".git/orkestra"),
        ("output", "hooks-link/x"),  # through an in-tree symlink into .git
    ],
)
def test_paths_into_git_are_located_validation_errors(tmp_path, key, value):
    root = workspace(tmp_path)
    (root / "hooks-link").symlink_to(".git/hooks")
    _set_path(root, key, value)
    found = errors(root)
    hits = [d for d in found if d["field"] == f"paths.{key}"]
    assert hits, found
    assert hits[0]["path"] == "orkestra.yaml", found
    assert hits[0]["line"] > 1, found
    assert ".git" in hits[0]["message"]
    before = files(root / ".git")
    assert cli(root, "sync").returncode == 1
    assert files(root / ".git") == before


def _hostile_manifest(root, entries: dict[str, str]) -> None:
    data = json.loads((root / MANIFEST).read_text())
    data["files"].update(entries)
    (root / MANIFEST).write_text(json.dumps(data))


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("force", [False, True])
def test_a_manifest_entry_outside_the_outputs_prunes_nothing(tmp_path, force):
    root = workspace(tmp_path)
    (root / "pyproject.toml").write_text("[project]\nname = 'victim'\n")
    (root / "src").mkdir()
    (root / "src/keep.py").write_text("x = 1\n")
    assert cli(root, "sync").returncode == 0
    _hostile_manifest(
        root,
        {
            "pyproject.toml": _sha(root / "pyproject.toml"),
            ".claude/../src/keep.py": _sha(root / "src/keep.py"),
            ".git/config": _sha(root / ".git/config"),
            "/etc/hostname": "0" * 64,
            "src/keep.py": "0" * 64,  # wrong hash, and --force
        },
    )
    result = cli(root, "sync", *(["--force"] if force else []))
    assert result.returncode == 0, result.stderr
    assert (root / "pyproject.toml").is_file()
    assert (root / "src/keep.py").is_file()
    assert (root / ".git/config").is_file()
    manifest = json.loads((root / MANIFEST).read_text())
    assert "pyproject.toml" not in manifest["files"]
    assert "src/keep.py" not in manifest["files"]


def test_a_manifest_entry_inside_the_outputs_is_pruned_only_when_its_hash_matches(tmp_path):
    root = workspace(tmp_path)
    assert cli(root, "sync").returncode == 0
    (root / ".claude/agents/extra.md").write_text("user notes\n")
    _hostile_manifest(root, {".claude/agents/extra.md": "0" * 64})
    result = cli(root, "sync")
    assert result.returncode == 1
    assert ".claude/agents/extra.md" in result.stderr
    assert (root / ".claude/agents/extra.md").read_text() == "user notes\n"
