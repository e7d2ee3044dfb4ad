"""`orkestra why` and stale facts on a workspace with real history (tests/memory_repo.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clirun import run_cli
from conftest import git
from memory_repo import make_memory_repo, mine_rules, symbol_index

from orkestra.errors import OrkestraError
from orkestra.why.answer import why


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    repo = tmp_path_factory.mktemp("memory") / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    shas = make_memory_repo(repo)
    mine_rules(repo, shas["rules"])
    return repo, shas


@pytest.fixture(scope="module")
def indexed(shop) -> Path:
    """A real Maguyva index at the default place (<git dir>/maguyva/index.db), found as ``why`` finds it."""
    store = shop[0] / ".git" / "maguyva" / "index.db"
    symbol_index(shop[0], store)
    return store


def citations(answer: dict) -> list[str]:
    return [r["citation"] for r in answer["results"]]


def test_why_a_path_ranks_direct_before_history_and_cites_everything(shop):
    repo, shas = shop
    answer = why(repo, "src/shop/pricing.py", index_lookup=False)
    assert answer["via"] == "path"
    assert citations(answer) == ["GT-SHOP-001", "DEC-PR-001", "DEC-PR-003", shas["rules"][:12]]
    decision = answer["results"][1]
    assert decision["match"] == "direct"
    assert decision["matched_files"] == ["src/shop/pricing.py"]
    assert decision["do"] == ["Round with round(x, 2) at the end of each pricing function."]
    assert decision["avoid"] == ["Returning unrounded floats from pricing code."]
    assert [c["sha"] for c in decision["commits"]] == [shas["rules"]]  # from source_commits and the ledger
    history = answer["results"][2]
    assert (history["id"], history["match"], history["date"]) == ("DEC-PR-003", "history", "2026-01-07")
    changelog = answer["results"][3]
    assert (changelog["kind"], changelog["title"], changelog["date"]) == (
        "changelog",
        "Prices include 25 % VAT",
        "2026-01-02",
    )
    assert {c["sha"] for c in answer["commits"]} >= {shas["rules"], shas["rebate"], shas["base"]}


def test_why_ranks_active_before_superseded_for_a_folder(shop):
    repo, _ = shop
    found = citations(why(repo, "src/shop", index_lookup=False))
    assert found.index("DEC-PR-001") < found.index("DEC-PR-002")


def test_why_a_line_uses_the_history_of_that_line_only(shop):
    repo, shas = shop
    answer = why(repo, "src/shop/notes.py:1", index_lookup=False)
    assert (answer["via"], answer["lines"]) == ("line", [1, 1])
    assert citations(answer) == ["GT-SHOP-002", "DEC-PR-002"]  # current truth before the superseded decision
    assert [c["sha"] for c in answer["commits"]] == [shas["base"]]
    line = why(repo, "src/shop/pricing.py:10-12", index_lookup=False)
    assert [c["sha"] for c in line["commits"]] == [shas["rebate"]]  # lines added by the rewrite only
    assert "DEC-PR-003" not in citations(line)  # its commit shaped the file, never these lines


def test_why_follows_renames(shop):
    repo, _ = shop
    answer = why(repo, "src/shop/new_name.py", index_lookup=False)
    assert answer["former_names"] == ["src/shop/old_name.py"]
    assert set(citations(answer)) == {"DEC-PR-001", "GT-SHOP-001"}  # both still list the old name


def test_why_a_symbol_resolves_through_the_index(shop, indexed):
    repo, shas = shop
    answer = why(repo, "apply_rebate")
    assert (answer["via"], answer["path"], answer["symbol"]) == (
        "symbol",
        "src/shop/pricing.py",
        "shop.pricing.apply_rebate",
    )
    assert answer["lines"][0] == 35
    assert answer["commits"][0]["sha"] == shas["rebate"]
    assert citations(answer)[:2] == ["GT-SHOP-001", "DEC-PR-001"]
    with pytest.raises(OrkestraError, match="no symbol 'apply_discount'"):
        why(repo, "apply_discount")
    qualified = why(repo, "src/shop/pricing.py::apply_rebate")
    assert qualified["via"] == "symbol"
    assert qualified["lines"] == answer["lines"]
    cli = run_cli("why", "apply_rebate", "--root", str(repo), cwd=repo)
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout)["symbol"] == "shop.pricing.apply_rebate", cli.stderr


def test_why_without_an_index_still_answers_paths_and_says_why_a_symbol_cannot(shop):
    repo, _ = shop
    with pytest.raises(OrkestraError, match="no Maguyva index"):
        why(repo, "apply_rebate", index_lookup=False)
    answer = why(repo, "src/shop/pricing.py::apply_rebate", index_lookup=False)
    assert answer["via"] == "path"
    assert "no Maguyva index" in answer["notes"][0]


def test_why_refuses_paths_outside_the_repository(shop):
    repo, _ = shop
    for bad in ("../outside.py", "/etc/passwd", ".git/config", "src/../../x.py"):
        with pytest.raises(OrkestraError):
            why(repo, bad, index_lookup=False)


def test_why_cli_json_table_and_errors(shop):
    repo, _ = shop
    result = run_cli("why", "src/shop/pricing.py", "--no-index", "--root", str(repo), cwd=repo)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["results"][0]["citation"] == "GT-SHOP-001"
    text = run_cli(
        "why", "src/shop/new_name.py", "--format", "text", "--no-index", "--root", str(repo), cwd=repo
    )
    assert "formerly: src/shop/old_name.py" in text.stdout
    assert "DEC-PR-001" in text.stdout
    table = run_cli(
        "why", "src/shop/new_name.py", "--format", "table", "--no-index", "--root", str(repo), cwd=repo
    )
    assert "┃ citation" in table.stdout
    assert "│ DEC-PR-001" in table.stdout
    missing = run_cli("why", "src/shop/never.py", "--no-index", "--root", str(repo), cwd=repo)
    assert missing.returncode == 1
    assert "no such path" in missing.stderr
    bounded = run_cli("why", "src/shop", "--no-index", "--limit", "2", "--root", str(repo), cwd=repo)
    data = json.loads(bounded.stdout)
    assert len(data["results"]) == 2
    assert data["truncated"]
    assert data["count"] == 6


# --- stale facts ----------------------------------------------------------------------------


def stale(repo: Path, lookup=False) -> dict[tuple[str, str], str]:
    from orkestra.why.stale import stale_facts
    from orkestra.workspace import Workspace

    found = {}
    for d in stale_facts(Workspace.load(repo), symbol_lookup=lookup):
        assert d.severity == "warning"
        found[(d.code, d.field)] = d.message
    return found


def test_validate_reports_a_deleted_evidence_file_with_the_deleting_commit(shop):
    repo, shas = shop
    found = stale(repo)
    message = found[("evidence", "statements.0.evidence.1")]
    assert "'src/shop/legacy.py' does not exist" in message
    assert f"deleted in {shas['drop'][:10]}" in message
    assert "deleted in" in found[("decision-file", "files.0")]


def test_validate_suggests_the_rename_git_knows(shop):
    repo, shas = shop
    found = stale(repo)
    for key in (("evidence", "statements.0.evidence.2"), ("decision-file", "files.1")):
        assert "renamed it to 'src/shop/new_name.py'" in found[key]
        assert shas["rename"][:10] in found[key]


def test_validate_reports_evidence_changed_after_last_verified_with_the_commits(shop):
    repo, shas = shop
    message = stale(repo)[("evidence-changed", "statements.0.evidence.0")]
    assert "after last_verified 2026-01-03" in message
    assert shas["rebate"][:10] in message
    assert shas["rules"][:10] not in message  # committed before the truth was verified
    assert "set last_verified" in message
    assert not any(key[1].startswith("statements.1") for key in stale(repo))  # notes.py untouched since


def test_validate_reports_a_rewritten_decision_file(shop):
    repo, shas = shop
    message = stale(repo)[("decision-rewritten", "files.2")]
    assert "'src/shop/pricing.py' was rewritten" in message
    assert shas["rebate"][:10] in message
    assert "--decision DEC-PR-001 --role supporting" in message


def test_validate_reports_a_vanished_symbol(shop, indexed):
    repo, _ = shop
    message = stale(repo, True)[("evidence-symbol", "statements.0.evidence.0")]
    assert "'apply_discount' is no longer in src/shop/pricing.py" in message
    assert "--similar" in message


def test_validate_cli_shows_stale_facts_as_warnings_only(shop):
    repo, _ = shop
    result = run_cli("validate", "--show-warnings", "--json", "--root", str(repo), cwd=repo)
    assert result.returncode == 0, result.stdout + result.stderr
    codes = {d["code"] for d in json.loads(result.stdout)["diagnostics"]}
    assert {"evidence", "decision-file", "evidence-changed", "decision-rewritten"} <= codes


def test_system_status_counts_the_stale_warnings(shop):
    repo, _ = shop
    result = run_cli("system", "status", "--root", str(repo), cwd=repo)
    assert result.returncode == 0, result.stderr
    health = json.loads(result.stdout)["health"]
    assert health["validation"]["warnings"] >= 6
    assert health["stale_facts"]["count"] >= 6
    assert len(health["stale_facts"]["first"]) == 5
    assert any("renamed it to 'src/shop/new_name.py'" in line for line in health["stale_facts"]["first"])


def test_dogfood_why_fuse_returns_the_search_decision_and_truths():
    from conftest import REPO

    answer = why(REPO, "maguyva/retrieve/fuse.py", index_lookup=False)
    found = citations(answer)
    assert found[:2] == ["DEC-SR-001", "GT-ORK-014"] or set(found[:2]) == {"DEC-SR-001", "GT-ORK-014"}
    decision = answer["results"][found.index("DEC-SR-001")]
    assert decision["match"] == "direct"
    assert decision["do"]
    assert decision["avoid"]
    assert any(r["kind"] == "changelog" for r in answer["results"])  # the commit that made it, released


def test_a_classified_decision_takes_its_files_from_its_commits(tmp_path):
    import yaml

    from orkestra.mining.classify import classify_commit
    from orkestra.mining.config import load_mining_paths
    from orkestra.mining.index import sync_index

    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    shas = make_memory_repo(repo)
    paths = load_mining_paths(repo.resolve())
    sync_index(paths)
    classify_commit(paths, shas["rebate"], decision="DEC-PR-009")
    record = yaml.safe_load((repo / "ai_assets/reference/decisions/records/DEC-PR-009.yaml").read_text())
    assert record["files"] == ["src/shop/pricing.py"]
    assert record["status"] == "proposed"
    classify_commit(paths, shas["rename"], decision="DEC-PR-009", role="supporting")
    record = yaml.safe_load((repo / "ai_assets/reference/decisions/records/DEC-PR-009.yaml").read_text())
    assert record["files"] == ["src/shop/new_name.py", "src/shop/old_name.py", "src/shop/pricing.py"]
    answer = why(repo, "src/shop/new_name.py", index_lookup=False)
    assert "DEC-PR-009" in citations(answer)  # now linked to the code its commits changed


def test_system_status_sees_a_new_stale_fact_after_a_commit(tmp_path):
    from mine_repo import commit

    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    make_memory_repo(repo)

    def stale_count() -> int:
        result = run_cli("system", "status", "--root", str(repo), cwd=repo)
        return json.loads(result.stdout)["health"]["stale_facts"]["count"]

    (repo / "src/shop/notes.py").write_text("# notes, now with logic\nX = 1\n")  # GT-SHOP-002's evidence
    before = stale_count()  # an uncommitted edit is not history yet: cached with this count
    git(repo, "add", "src/shop/notes.py")
    commit(repo, "feat(shop): logic in notes", day=9)  # the file is not touched again
    assert stale_count() == before + 1  # only HEAD moved; the cache saw it and re-read history


def test_rank_orders_direct_then_live_then_newest():
    from orkestra.why.answer import rank

    def row(kind, id, match, status, date):
        return {"kind": kind, "id": id, "match": match, "status": status, "date": date}

    rows = [
        row("changelog", "abc", "history", "active", "2026-03-01"),
        row("decision", "DEC-A-002", "direct", "superseded", "2026-02-01"),
        row("decision", "DEC-A-003", "history", "active", "2026-04-01"),
        row("truth", "GT-A-001", "direct", "current", "2026-01-01"),
        row("decision", "DEC-A-001", "direct", "active", "2026-01-15"),
        row("truth", "GT-A-002", "direct", "tentative", "2026-05-01"),
    ]
    assert [r["id"] for r in rank(rows)] == [
        "DEC-A-001",
        "GT-A-001",
        "GT-A-002",
        "DEC-A-002",
        "DEC-A-003",
        "abc",
    ]


def test_a_symbols_own_evidence_ranks_first(shop):
    repo, _ = shop

    def lookup(symbol, path):  # an index from before the rewrite, where apply_discount still lived
        return (
            [("src/shop/pricing.py", 4, 6, "shop.pricing.apply_discount")]
            if symbol == "apply_discount"
            else []
        )

    answer = why(repo, "apply_discount", index_lookup=lookup)
    first = answer["results"][0]
    assert (first["id"], first["symbol_match"]) == ("GT-SHOP-001", True)
    assert answer["citation"] == "src/shop/pricing.py:4"


def test_a_style_commit_does_not_make_a_truth_stale(tmp_path):
    from mine_repo import commit

    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    make_memory_repo(repo)

    def stale_keys() -> set:
        return set(stale(repo))

    before = stale_keys()
    (repo / "src/shop/notes.py").write_text("# notes\n\n\nX = 1\n")  # GT-SHOP-002's evidence, reformatted
    git(repo, "add", "src/shop/notes.py")
    commit(repo, "style(shop): blank lines in notes", day=9)
    assert stale_keys() == before  # formatting states no new fact
    (repo / "src/shop/notes.py").write_text("# notes, now with logic\nX = 2\n")
    git(repo, "add", "src/shop/notes.py")
    commit(repo, "feat(shop): logic in notes", day=10)
    assert len(stale_keys()) == len(before) + 1
