"""Item 19 of issue 14: inspection commands never answer silently from a half-loaded workspace."""

from __future__ import annotations

import json

import pytest
from ork_workspace import cli, workspace

LISTINGS = [
    ("agents", "list"),
    ("skills", "list"),
    ("decisions", "list"),
    ("truths", "list"),
    ("agents", "search", "security"),
    ("search", "security"),
]


def test_a_broken_agent_yaml_is_named_on_stderr_and_the_listing_fails(tmp_path):
    root = workspace(tmp_path)
    (root / "registries/agents/orchestrator.yaml").write_text("name: orchestrator\ndescription: [unclosed\n")
    listing = cli(root, "agents", "list")
    assert listing.returncode == 1
    assert "registries/agents/orchestrator.yaml:" in listing.stderr
    info = cli(root, "agents", "info", "orchestrator")
    assert info.returncode == 1
    assert "registries/agents/orchestrator.yaml:" in info.stderr  # not merely "unknown agent"


@pytest.mark.parametrize("command", LISTINGS)
def test_a_broken_orkestra_yaml_stops_every_listing(tmp_path, command):
    root = workspace(tmp_path)
    (root / "orkestra.yaml").write_text("version: 1\nproject: [broken\n")
    result = cli(root, *command)
    assert result.returncode == 1, result.stdout[:300]
    assert "orkestra.yaml:" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_cached_answer_still_reports_the_error(tmp_path):
    root = workspace(tmp_path)
    (root / "registries/agents/bio-analyst.yaml").write_text("name: bio-analyst\nmodel: [\n")
    first, second = cli(root, "agents", "list"), cli(root, "agents", "list")
    assert first.returncode == second.returncode == 1
    assert "registries/agents/bio-analyst.yaml:" in second.stderr


def test_system_status_answers_but_names_what_failed_to_load(tmp_path):
    root = workspace(tmp_path)
    assert cli(root, "agents", "list").returncode == 0  # a clean workspace still answers
    (root / "registries/agents/bio-analyst.yaml").write_text("name: bio-analyst\nmodel: [\n")
    status = cli(root, "system", "status")
    data = json.loads(status.stdout)
    assert any("registries/agents/bio-analyst.yaml" in line for line in data["load_errors"])
