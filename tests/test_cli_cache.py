"""The inspection load cache (orkestra/inspect/cache.py): fast when fresh, never stale."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from cli_workspace import cli_json, make_workspace
from clirun import run_cli
from conftest import git

from orkestra.inspect import api
from orkestra.inspect.cache import SectionCache, Watch

PROBE = """
import json, sys
from orkestra.inspect import api
api.list_agents(sys.argv[1])
print(json.dumps(sorted(m for m in ("orkestra.workspace.load", "pydantic", "yaml") if m in sys.modules)))
"""


def loaded_modules(root: Path) -> list[str]:
    out = subprocess.run([sys.executable, "-c", PROBE, str(root)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def agent_names(root: Path) -> list[str]:
    return [a["name"] for a in api.list_agents(root)["agents"]]


def test_a_cache_hit_answers_without_loading_the_workspace_or_pydantic(tmp_path):
    root = make_workspace(tmp_path / "ws")
    assert loaded_modules(root) == ["orkestra.workspace.load", "pydantic", "yaml"]  # cold: loads and caches
    assert loaded_modules(root) == []  # warm: the cache answers; orkestra.yaml is only scanned as text
    assert (root / ".orkestra" / "cache" / "catalog" / "fingerprint.json").is_file()


def test_editing_adding_and_deleting_agent_files_is_seen_at_once(tmp_path):
    root = make_workspace(tmp_path / "ws")
    assert api.list_agents(root, model="haiku")["count"] == 0
    path = root / "registries" / "agents" / "orchestrator.yaml"
    path.write_text(path.read_text().replace("model: opus", "model: haiku"))
    assert [a["name"] for a in api.list_agents(root, model="haiku")["agents"]] == ["orchestrator"]
    new = root / "registries" / "agents" / "zeta-reviewer.yaml"
    new.write_text(
        path.read_text()
        .replace("name: orchestrator", "name: zeta-reviewer")
        .replace("orchestrator: true", "orchestrator: false")
        .replace("Task]", "Grep]")
    )
    assert agent_names(root)[-1] == "zeta-reviewer"
    new.unlink()
    assert agent_names(root) == [
        "architecture-advisor",
        "database-engineer",
        "orchestrator",
        "security-auditor",
    ]


def test_a_ground_truths_file_in_a_new_package_folder_is_seen(tmp_path):
    root = make_workspace(tmp_path / "ws")
    assert api.system_status(root)["truths"] == 6
    target = root / "packages" / "billing" / "ai_assets" / "reference"
    target.mkdir(parents=True)
    (target / "ground_truths.yaml").write_text(
        "metadata: {title: Billing, last_updated: '2026-01-01'}\n"
        "statements:\n  - {id: GT-BIL-001, status: current, statement: Invoices are immutable.}\n"
    )
    assert api.system_status(root)["truths"] == 7
    assert [p["path"] for p in api.open_sections(root, ["packages"])["packages"]] == [
        ".",
        "packages/billing",
        "packages/search",
        "packages/web",
    ]


def test_a_file_changed_while_the_cache_was_built_forces_a_rebuild(tmp_path):
    """A racy entry (mtime not older than the build's start) is never trusted: the loader may have
    read it before the change."""
    root = tmp_path / "ws"
    root.mkdir()
    (root / "orkestra.yaml").write_text("version: 1\n")
    (root / "a.yaml").write_text("value: 1\n")
    cache = SectionCache(root, "probe")
    watch = Watch(files=("a.yaml",), dirs=(".",))
    cache.write({"data": {"value": 1}}, watch, started_ns=time.time_ns() - 10**9)  # a.yaml written during it
    assert cache.read(["data"]) is None
    cache.write({"data": {"value": 1}}, watch, started_ns=time.time_ns() + 10**9)  # everything older
    assert cache.read(["data"]) == {"data": {"value": 1}}
    (root / "a.yaml").write_text("value: 22\n")
    assert cache.read(["data"]) is None


def test_index_freshness_compares_the_latest_snapshot_with_head(tmp_path):
    root = make_workspace(tmp_path / "ws")
    assert cli_json(root, "system", "status")["health"]["index"] == {"present": False}
    assert run_cli("code", "index", "--repo", str(root), cwd=root).returncode == 0
    fresh = cli_json(root, "system", "status")["health"]["index"]
    head = git(root, "rev-parse", "HEAD").strip()
    assert (fresh["present"], fresh["fresh"], fresh["head"], fresh["snapshot"]["commit"]) == (
        True,
        True,
        head,
        head,
    )
    assert fresh["store"] == str(root / ".git" / "maguyva" / "index.db")
    (root / "notes.md").write_text("moved on\n")
    git(root, "add", "notes.md")
    git(root, "commit", "-qm", "docs: notes")
    stale = cli_json(root, "system", "status")["health"]["index"]
    assert (stale["fresh"], stale["snapshot"]["commit"]) == (False, head)
    assert stale["head"] == git(root, "rev-parse", "HEAD").strip() != head


def test_index_freshness_finds_the_store_as_maguyva_does(tmp_path):
    """$MAGUYVA_STORE is relative to the cwd (as for `maguyva index`), and a postgresql:// URL stays one."""
    root = make_workspace(tmp_path / "ws")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {"MAGUYVA_STORE": "idx.db"}
    assert run_cli("code", "index", "--repo", str(root), cwd=elsewhere, env=env).returncode == 0
    found = run_cli("system", "status", "--root", str(root), cwd=elsewhere, env=env)
    index = json.loads(found.stdout)["health"]["index"]
    assert index["store"] == str(elsewhere / "idx.db")
    assert index["fresh"] is True
    url = "postgresql://nobody@127.0.0.1:1/none?workspace=w&repo=r"
    remote = run_cli("system", "status", "--root", str(root), cwd=root, env={"MAGUYVA_STORE": url})
    index = json.loads(remote.stdout)["health"]["index"]
    assert index["present"] is True
    assert index["store"].startswith("postgresql://")
    assert index["fresh"] is False
    assert "cannot connect" in index["problem"]
