"""Issue 31, class 9: a 3 GB sparse manifest, registry file or config is never read whole.

Such a file costs its author nothing on disk. Before, ``sync --check``'s inputs digest, the package
listing (``system status``, ``agents list``) and the release-please config reader read it whole: a
MemoryError traceback under a 1 GiB address-space limit. Every reader now goes through the one
capped reader (``maguyva.capped.read_regular``: ``fstat`` on the open descriptor, at most cap + 1
bytes), run here as real subprocesses under that limit.
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from clirun import run_cli
from ork_workspace import SKILL, workspace

SPARSE = 3 << 30


def _limited():  # an unfixed reader must fail the test, not take the machine down
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def _run(root: Path, *args: str, program: str = "orkestra") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", program, *args],
        cwd=root,
        capture_output=True,
        text=True,
        preexec_fn=_limited,
        timeout=300,
    )


def _sparse(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        handle.truncate(SPARSE)


@pytest.fixture(scope="module")
def synced(tmp_path_factory) -> Path:
    root = workspace(tmp_path_factory.mktemp("sparse"))
    assert run_cli("sync", cwd=root).returncode == 0
    return root


@pytest.mark.parametrize("rel", ["pyproject.toml", "package.json", "packages/search/pyproject.toml"])
@pytest.mark.parametrize("command", [("sync", "--check"), ("system", "status"), ("agents", "list")])
def test_a_sparse_manifest_is_never_read_whole(synced, tmp_path, rel, command):
    root = tmp_path / "ws"
    shutil.copytree(synced, root, symlinks=True)
    _sparse(root / rel)
    result = _run(root, *command)
    out = result.stdout + result.stderr
    assert "MemoryError" not in out, out[-3000:]
    assert "Traceback" not in out, out[-3000:]
    assert result.returncode == 0, out[-3000:]


def test_a_sparse_registry_file_is_a_located_error_read_unread(synced, tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(synced, root, symlinks=True)
    (root / "registries/identities.yaml").unlink()
    _sparse(root / "registries/identities.yaml")
    result = _run(root, "validate")
    out = result.stdout + result.stderr
    assert result.returncode == 1, out[-3000:]
    assert "Traceback" not in out, out[-3000:]
    assert "registries/identities.yaml:1:1: cannot read: larger than 16,777,216 bytes" in out, out[-3000:]


def test_a_sparse_config_is_refused_by_maguyva_unread(synced, tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(synced, root, symlinks=True)
    (root / "orkestra.yaml").unlink()
    _sparse(root / "orkestra.yaml")
    with open(root / "orkestra.yaml", "r+b") as handle:
        handle.write(b"maguyva:\n  store: x.db\n")  # found by the section check, then refused by size
    result = _run(root, "status", program="maguyva")
    out = result.stdout + result.stderr
    assert result.returncode != 0, out[-3000:]
    assert "Traceback" not in out, out[-3000:]
    assert "larger than 1,048,576 bytes" in out, out[-3000:]


def test_a_sparse_release_please_config_is_not_read(tmp_path):
    _sparse(tmp_path / "release-please-config.json")
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    code = (
        "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30)); "
        "from pathlib import Path; from orkestra.mining.sections import detect_release_type; "
        "print(detect_release_type(Path(sys.argv[1])))"
    )
    result = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True)
    assert (result.returncode, result.stdout.strip()) == (0, "python"), result.stderr[-2000:]


def test_a_sparse_skill_asset_is_refused_by_sync_naming_it(synced, tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(synced, root, symlinks=True)
    rel = f"{SKILL}/references/huge.md"
    _sparse(root / rel)
    result = _run(root, "sync")
    out = result.stdout + result.stderr
    assert result.returncode == 1, out[-3000:]
    assert "Traceback" not in out, out[-3000:]
    assert "MemoryError" not in out, out[-3000:]
    assert rel in out, out[-3000:]
    assert "larger than" in out, out[-3000:]


def test_a_sparse_file_where_an_owned_output_stands_is_drift_not_read(synced, tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(synced, root, symlinks=True)
    (root / ".claude/agents/orchestrator.md").unlink()
    _sparse(root / ".claude/agents/orchestrator.md")
    result = _run(root, "sync", "--check")
    out = result.stdout + result.stderr
    assert result.returncode == 1, out[-3000:]
    assert "Traceback" not in out, out[-3000:]
    assert "MemoryError" not in out, out[-3000:]
    assert ".claude/agents/orchestrator.md" in out, out[-3000:]


@pytest.mark.parametrize("command", [("agents", "list"), ("validate",)])
def test_a_sparse_orkestra_yaml_is_a_located_error(synced, tmp_path, command):
    root = tmp_path / "ws"
    shutil.copytree(synced, root, symlinks=True)
    (root / "orkestra.yaml").unlink()
    _sparse(root / "orkestra.yaml")
    result = _run(root, *command)
    out = result.stdout + result.stderr
    assert result.returncode == 1, out[-3000:]
    assert "Traceback" not in out, out[-3000:]
    assert "MemoryError" not in out, out[-3000:]
    assert "orkestra.yaml" in out, out[-3000:]
    assert "larger than" in out, out[-3000:]
