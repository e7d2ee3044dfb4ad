"""Loading: typed registries, located diagnostics, everything collected in one pass."""

from __future__ import annotations

import shutil

from conftest import REPO

from orkestra.workspace import Workspace

RICH = REPO / "tests/fixtures/workspaces/rich"


def test_rich_fixture_loads_every_registry_without_diagnostics():
    ws = Workspace.load(RICH)
    assert ws.diagnostics == []
    assert sorted(ws.agents) == ["architecture-advisor", "bio-analyst", "orchestrator", "security-guardian"]
    assert ws.skills["acme-deploy-preview"].ref == "vendor/acme/deploy-preview"
    assert [t.package_dir for t in ws.truths] == ["", "packages/search"]
    assert sorted(ws.decisions) == ["DEC-PL-001", "DEC-SR-000", "DEC-SR-001"]


def test_where_locates_a_field_of_an_entity():
    ws = Workspace.load(RICH)
    assert ws.where("agent", "security-guardian", ("max_turns",)) == (
        "registries/agents/security-guardian.yaml",
        12,
        1,
    )


def test_broken_files_do_not_stop_the_others_loading(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(RICH, root)
    (root / "registries/styles.yaml").write_text("styles: [unclosed\n")
    (root / "registries/agents/bio-analyst.yaml").write_text("name: bio-analyst\n")
    ws = Workspace.load(root)
    assert {(d.path, d.line) for d in ws.diagnostics} >= {
        ("registries/styles.yaml", 2),
        ("registries/agents/bio-analyst.yaml", 1),
    }
    assert "security-guardian" in ws.agents
    assert len(ws.skills) == 8


def test_ground_truths_in_excluded_hidden_or_vendored_folders_are_not_loaded(tmp_path):
    root = tmp_path / "ws"
    shutil.copytree(RICH, root)
    source = root / "ai_assets/reference/ground_truths.yaml"
    for folder in ("node_modules/pkg", ".hidden/pkg", "tests/fixtures/pkg"):
        target = root / folder / "ai_assets/reference/ground_truths.yaml"
        target.parent.mkdir(parents=True)
        target.write_text(source.read_text())
    assert [t.path for t in Workspace.load(root).truths] == [
        "ai_assets/reference/ground_truths.yaml",
        "packages/search/ai_assets/reference/ground_truths.yaml",
    ]
