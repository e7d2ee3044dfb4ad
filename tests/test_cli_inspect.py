"""`orkestra system|agents|skills|decisions|truths|search` on the fixture workspace, run in-process."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from cli_workspace import cli_json, make_workspace
from clirun import run_cli

from orkestra.inspect import api


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Path:
    """One read-only copy shared by this module's tests (tests that write make their own)."""
    return make_workspace(tmp_path_factory.mktemp("inspect") / "ws")


# --- level 1 --------------------------------------------------------------------------------


def test_system_status_counts_every_registry_kind_and_reports_health(ws):
    status = cli_json(ws, "system", "status")
    counts = {key: status[key] for key in status if key not in ("health", "healthy")}
    assert counts == {
        "agents": 4,
        "skills_internal": 6,
        "skills_vendor": 1,
        "skills_total": 7,
        "commands": 2,
        "truths": 6,
        "decisions": 5,
        "scopes": 3,
        "dormant_scopes": 1,
    }
    assert status["health"]["validation"] == {"errors": 0, "warnings": 0, "first_errors": []}
    assert status["health"]["sync"]["in_sync"] is False  # never synced
    assert status["health"]["index"] == {"present": False}
    assert status["healthy"] is False


def test_system_status_is_healthy_after_sync_and_not_after_a_hand_edit(tmp_path):
    root = make_workspace(tmp_path / "ws")
    assert run_cli("sync", "--root", str(root), cwd=root).returncode == 0
    assert cli_json(root, "system", "status")["healthy"] is True
    index = root / ".git" / "maguyva" / "index.db"
    index.parent.mkdir()
    with sqlite3.connect(index) as conn:  # an index built at another commit is stale
        conn.execute("CREATE TABLE snapshots (commit_sha TEXT)")
        conn.execute("INSERT INTO snapshots VALUES ('0000000000000000000000000000000000000000')")
    assert cli_json(root, "system", "status")["healthy"] is False
    index.unlink()
    agent_md = root / ".claude" / "agents" / "orchestrator.md"
    agent_md.write_text(agent_md.read_text() + "\nhand edit\n")
    sync = cli_json(root, "system", "status")["health"]["sync"]
    assert (sync["in_sync"], sync["edited_outputs"]) == (False, [".claude/agents/orchestrator.md"])


# --- agents ---------------------------------------------------------------------------------


def test_agents_list_gives_jq_friendly_rows_sorted_by_name(ws):
    data = cli_json(ws, "agents", "list")
    assert [a["name"] for a in data["agents"]] == [
        "architecture-advisor",
        "database-engineer",
        "orchestrator",
        "security-auditor",
    ]
    assert list(data) == ["count", "agents"]
    assert data["count"] == 4
    assert data["agents"][1] == {
        "name": "database-engineer",
        "category": "engineering",
        "model": "sonnet",
        "description": "Schema design, migrations and query tuning for the database layer. "
        "Use when a table changes.",
        "scopes": ["database", "bioinformatics"],
        "domains": ["data-architecture"],
        "skills": 6,
    }


def test_agents_list_filters_by_model_category_and_scope(ws):
    def names(**filters) -> list[str]:
        return [a["name"] for a in api.list_agents(ws, **filters)["agents"]]

    assert names(model="opus") == ["architecture-advisor", "orchestrator", "security-auditor"]
    assert names(category="quality") == ["security-auditor"]
    assert names(scope="database") == ["architecture-advisor", "database-engineer"]
    assert names(model="opus", scope="database") == ["architecture-advisor"]


def test_agents_info_explains_why_each_skill_is_included(ws):
    info = cli_json(ws, "agents", "info", "database-engineer")
    assert [(s["name"], s["reason"], s["via"]) for s in info["skills"]] == [
        ("systematic-debugging", "universal", ""),
        ("test-first-discipline", "universal", ""),
        ("schema-migration-workflow", "scope", "database"),
        ("acme-postgres-tuning", "scope", "database"),
        ("genome-alignment", "dormant-scope", "bioinformatics"),
        ("maguyva-quickstart", "explicit", ""),
    ]
    assert info["tools"] == {"builtin": ["Read", "Edit", "Bash"], "mcp_tools": ["mcp__maguyva__find_symbol"]}
    assert info["tool_guides"] == [
        {"server": "maguyva", "guide": "Ask maguyva for exact locations before reading files."}
    ]
    assert [i["name"] for i in info["identity"]] == ["architect", "debugger"]
    assert (info["mindset"]["name"], info["style"]["name"]) == ("analytical", "technical")
    assert info["domains"] == ["data-architecture"]
    assert info["path"] == "registries/agents/database-engineer.yaml"


def test_unknown_agent_exits_1_with_did_you_mean(ws):
    result = run_cli("agents", "info", "database-enginer", "--root", str(ws), cwd=ws)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr == "error: unknown agent 'database-enginer' (did you mean 'database-engineer'?)\n"


def test_bad_option_is_a_usage_error_with_exit_2(ws):
    result = run_cli("agents", "list", "--colour", "red", "--root", str(ws), cwd=ws)
    assert result.returncode == 2
    assert "No such option: --colour" in result.stderr


def test_agents_search_ranks_the_database_specialist_first(ws):
    data = cli_json(ws, "agents", "search", "database")
    assert [(a["name"], a["skills"]) for a in data["agents"]] == [
        ("database-engineer", 6),
        ("architecture-advisor", 4),
    ]
    assert data["query"] == "database"
    assert data["agents"][0]["score"] > data["agents"][1]["score"]


# --- skills ---------------------------------------------------------------------------------


def test_skills_list_filters_by_tier_type_scope_and_source(ws):
    def names(**filters) -> list[str]:
        return [s["name"] for s in api.list_skills(ws, **filters)["skills"]]

    assert [s["name"] for s in cli_json(ws, "skills", "list", "--tier", "K0")["skills"]] == [
        "systematic-debugging",
        "test-first-discipline",
    ]
    assert names(source="vendor") == ["acme-postgres-tuning"]
    assert names(scope="database") == ["acme-postgres-tuning", "schema-migration-workflow"]
    assert names(type="checklist") == ["secrets-audit-checklist"]
    assert names(tier="k2", scope="bioinformatics") == ["genome-alignment"]


def test_skills_info_by_ref_lists_the_agents_that_load_it(ws):
    info = cli_json(ws, "skills", "info", "domains/schema-migration-workflow")
    assert info["name"] == "schema-migration-workflow"
    assert info["used_by"] == ["architecture-advisor", "database-engineer"]
    assert (info["tier"], info["type"], info["scope"], info["scopes"]) == (
        "K2",
        "workflow",
        "database",
        ["database"],
    )
    assert cli_json(ws, "skills", "info", "test-first-discipline")["used_by"] == [
        "architecture-advisor",
        "database-engineer",
        "orchestrator",
        "security-auditor",
    ]


def test_skills_search_matches_tags_and_description(ws):
    postgres = cli_json(ws, "skills", "search", "postgres")["skills"]
    assert [s["name"] for s in postgres] == ["acme-postgres-tuning"]
    hits = api.search_skills(ws, "migration schema")["skills"]
    assert hits[0]["name"] == "schema-migration-workflow"


# --- decisions ------------------------------------------------------------------------------


def test_decisions_list_is_newest_first_and_limited(ws):
    data = cli_json(ws, "decisions", "list", "--limit", "2")
    assert data == {
        "count": 2,
        "total": 5,
        "decisions": [
            {
                "id": "DEC-AD-001",
                "title": "Flat orchestration for agents",
                "domain": "agent-design",
                "status": "active",
                "created": "2026-01-15",
            },
            {
                "id": "DEC-PL-002",
                "title": "Retry failed pipeline stages with exponential backoff",
                "domain": "pipeline",
                "status": "active",
                "created": "2026-01-12",
            },
        ],
    }
    search_domain = api.list_decisions(ws, domain="search")["decisions"]
    assert [d["id"] for d in search_domain] == ["DEC-SR-001", "DEC-SR-002"]
    assert [d["id"] for d in api.list_decisions(ws, status="superseded")["decisions"]] == ["DEC-SR-002"]


def test_registry_decisions_search_by_query_option_equals_the_short_form(ws):
    long_form = cli_json(ws, "registry", "decisions", "search", "--query", "retry")
    assert [d["id"] for d in long_form["decisions"]] == ["DEC-PL-002"]
    assert cli_json(ws, "decisions", "search", "retry") == long_form
    assert run_cli("decisions", "search", "--root", str(ws), cwd=ws).returncode == 2


def test_decisions_info_returns_the_whole_record_and_suggests_close_ids(ws):
    info = cli_json(ws, "registry", "decisions", "info", "DEC-SR-001")
    assert info["title"] == "Binary-quantised embeddings for semantic search"
    assert info["rationale"] == ["32x smaller", "recall loss under two percent on our queries"]
    assert info["path"] == "ai_assets/reference/decisions/records/DEC-SR-001.yaml"
    missing = run_cli("decisions", "info", "DEC-SR-009", "--root", str(ws), cwd=ws)
    assert missing.returncode == 1
    assert missing.stderr == (
        "error: unknown decision 'DEC-SR-009' (did you mean 'DEC-SR-002', 'DEC-SR-001', 'DEC-PL-002'?)\n"
    )


def test_decisions_new_dry_run_gives_the_next_id_and_writes_nothing(ws):
    data = cli_json(ws, "registry", "decisions", "new", "--domain", "pipeline", "--dry-run")
    assert data == {
        "id": "DEC-PL-003",
        "domain": "pipeline",
        "path": "ai_assets/reference/decisions/records/DEC-PL-003.yaml",
        "written": False,
    }
    assert not (ws / data["path"]).exists()


def test_decisions_new_writes_a_valid_skeleton_that_lists_and_validates(tmp_path):
    root = make_workspace(tmp_path / "ws")
    cli_json(root, "decisions", "list")  # warm the cache first: the new file must invalidate it
    data = cli_json(root, "decisions", "new", "--domain", "SR")
    assert (data["id"], data["domain"], data["written"]) == ("DEC-SR-003", "search", True)
    assert "DEC-SR-003" in [d["id"] for d in cli_json(root, "decisions", "list")["decisions"]]
    assert cli_json(root, "system", "status")["health"]["validation"]["errors"] == 0
    again = run_cli("decisions", "new", "--domain", "nowhere", "--root", str(root), cwd=root)
    assert again.returncode == 1
    assert "unknown decision domain 'nowhere'" in again.stderr


# --- truths ---------------------------------------------------------------------------------


def test_truths_list_filters_by_status_tag_and_scope(ws):
    data = cli_json(ws, "registry", "truths", "list", "--status", "current")
    assert [t["id"] for t in data["truths"]] == ["GT-PLT-001", "GT-PLT-002", "GT-PLT-004", "GT-SRCH-001"]
    assert data["truths"][3]["package"] == "packages/search"
    tagged = api.list_truths(ws, tag="orchestration")["truths"]
    assert [t["id"] for t in tagged] == ["GT-PLT-003", "GT-PLT-004"]
    assert [t["id"] for t in api.list_truths(ws, scope="package")["truths"]] == ["GT-SRCH-001", "GT-SRCH-002"]


def test_truths_search_by_word_by_tag_or_both(ws):
    by_word = cli_json(ws, "registry", "truths", "search", "embedding")
    assert [t["id"] for t in by_word["truths"]] == ["GT-SRCH-001", "GT-SRCH-002"]  # statement+tag > rationale
    by_tag = cli_json(ws, "truths", "search", "--tag", "security")
    assert (by_tag["tag"], [t["id"] for t in by_tag["truths"]]) == ("security", ["GT-PLT-002"])
    both = api.search_truths(ws, "agents", tag="orchestration")
    assert [t["id"] for t in both["truths"]] == ["GT-PLT-003", "GT-PLT-004"]
    assert run_cli("truths", "search", "--root", str(ws), cwd=ws).returncode == 2


def test_truths_info_and_unknown_id(ws):
    assert cli_json(ws, "truths", "info", "gt-plt-003")["superseded_by"] == "GT-PLT-004"
    result = run_cli("truths", "info", "GT-PLT-005", "--root", str(ws), cwd=ws)
    assert result.returncode == 1
    assert "did you mean" in result.stderr


# --- unified search -------------------------------------------------------------------------


def test_search_summary_counts_hits_per_kind(ws):
    assert cli_json(ws, "search", "database", "--summary") == {
        "query": "database",
        "total": 4,
        "counts": {"agents": 2, "skills": 2, "decisions": 0, "truths": 0, "packages": 0},
    }


def test_search_puts_an_exact_id_first_and_honours_kind_and_limit(ws):
    data = cli_json(ws, "search", "DEC-SR-001")
    assert list(data) == ["query", "total", "hits"]
    assert data["hits"][0] == {
        "kind": "decision",
        "id": "DEC-SR-001",
        "title": "Binary-quantised embeddings for semantic search",
        "score": 6.0,
        "matched_terms": 1,
        "exact": True,
    }
    limited = cli_json(ws, "search", "orchestration", "--kind", "truth", "--kind", "decision", "--limit", "2")
    assert limited["total"] == 3
    assert [(h["kind"], h["id"]) for h in limited["hits"]] == [
        ("decision", "DEC-AD-001"),
        ("truth", "GT-PLT-004"),
    ]


def test_search_finds_packages_by_manifest_name_and_ai_assets(ws):
    hits = api.search(ws, "fixture", kinds=["package"])["hits"]
    assert [(h["id"], h["title"]) for h in hits] == [
        ("fixture-search", "Vector and text search for the fixture."),
        ("fixture-web", "The web front end of the fixture."),
        ("cli-fixture", "."),
    ]


# --- workspace discovery and formats --------------------------------------------------------


def test_root_defaults_to_the_nearest_ancestor_with_orkestra_yaml(ws, tmp_path):
    result = run_cli("agents", "list", cwd=ws / "packages" / "search")
    assert result.returncode == 0
    assert '"count": 4' in result.stdout
    outside = run_cli("agents", "list", cwd=tmp_path)
    assert outside.returncode == 1
    assert "no orkestra.yaml" in outside.stderr


def test_format_table_prints_a_table_for_people(ws):
    result = run_cli(
        "skills",
        "list",
        "--tier",
        "K0",
        "--format",
        "table",
        "--root",
        str(ws),
        cwd=ws,
        env={"COLUMNS": "200"},
    )
    assert result.returncode == 0
    assert "skills (2)" in result.stdout
    assert "systematic-debugging" in result.stdout
    assert not result.stdout.lstrip().startswith("{")


def test_an_unreadable_sync_manifest_is_reported_and_listings_still_work(tmp_path):
    root = make_workspace(tmp_path / "ws")
    (root / ".claude").mkdir()
    (root / ".claude" / ".orkestra-manifest.json").write_text("not json")
    status = cli_json(root, "system", "status")
    assert status["healthy"] is False
    assert "unreadable manifest" in status["health"]["sync"]["reason"]
    assert cli_json(root, "agents", "list")["count"] == 4
