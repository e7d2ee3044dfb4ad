"""The team server: several repositories per workspace in PostgreSQL, CI snapshots, keys, authenticated HTTP."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from clirun import run_cli
from conftest import git
from local_http import free_port, initialize_status, mcp_calls, serve_http, wait_for_port
from maguyva_project import make_project

from maguyva.errors import MaguyvaError
from maguyva.index.pipeline import index_repository
from maguyva.workspace import TeamWorkspace

pytestmark = pytest.mark.postgres
RUN = uuid.uuid4().hex[:6]  # workspaces of this run, should $MAGUYVA_TEST_PG name a long-lived server


def make_repo(root: Path, files: dict[str, str]) -> Path:
    root.mkdir(parents=True)
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "feat: initial")
    return root


@pytest.fixture(scope="module")
def team(tmp_path_factory, postgres_url) -> dict:
    """Workspace ``acme`` (repos shop and billing) and workspace ``rival`` (repo vault) on one server."""
    base = tmp_path_factory.mktemp("team")
    shop = make_project(base / "shop")
    billing = make_repo(
        base / "billing",
        {
            "billing.py": "def apply_discount(total):\n    return total * 0.9\n\n\ndef invoice(total):\n"
            "    return apply_discount(total)\n",
            "shop/pricing.py": "RATE = 1\n",
        },
    )
    vault = make_repo(
        base / "vault",
        {"vault.py": "TOPSECRET_TOKEN = 'rival only'\n\n\ndef apply_discount(x):\n    return x\n"},
    )
    acme, rival = f"{postgres_url}?workspace=acme-{RUN}", f"{postgres_url}?workspace=rival-{RUN}"
    index_repository(shop, acme, workers=1)
    index_repository(vault, rival, workers=1)
    published = run_cli("code", "index", str(billing), "--store", acme, cwd=base)  # what CI runs
    assert published.returncode == 0, published.stderr
    return {
        "acme": acme,
        "rival": rival,
        "base": base,
        "billing": billing,
        "published": json.loads(published.stdout),
    }


@pytest.fixture
def acme(team):
    workspace = TeamWorkspace(team["acme"])
    yield workspace
    workspace.close()


def test_search_spans_the_workspace_and_cites_repo_path_line(acme):
    found = acme.intelligent_search("def apply_discount").dump()["results"]
    assert {r["citation"] for r in found} >= {"shop:shop/pricing.py:8", "billing:billing.py:1"}
    assert all(r["repo"] in ("shop", "billing") for r in found)
    assert "vault" not in json.dumps(found)
    symbols = acme.find_symbol("apply_discount")
    assert [s["citation"] for s in symbols["symbols"]] == [
        "billing:billing.py:1",
        "shop:shop/pricing.py:8",
        "shop:vendor/legacy/pricing_copy.py:1",
    ]
    refs = acme.find_references("apply_discount")
    assert "billing:billing.py:6" in {r["citation"] for r in refs["references"]}


def test_workspace_search_fuses_repositories_by_rank_and_packs_context_like_one_repository(acme):
    found = acme.intelligent_search("apply_discount", limit=20)
    per_repo = {
        repo: acme.repos[repo].intelligent_search("apply_discount", limit=20).results
        for repo in ("shop", "billing")
    }
    # RRF over each repository's own order: rank r of every repository comes before rank r + 1 of any
    ranks = [[r.path for r in per_repo[hit.repo]].index(hit.path) for hit in found.results]
    assert ranks == sorted(ranks)
    assert {hit.repo for hit in found.results} == {"shop", "billing"}
    assert sorted(found.repos) == ["billing", "shop"]
    context = acme.gather_task_context("apply a discount to the invoice total", token_budget=800)
    assert context.snippets
    assert context.tokens_used <= 800
    for snippet in context.snippets:
        assert snippet.citation.startswith(f"{snippet.repo}:")
        assert snippet.text.split(":", 1)[0].isdigit()
    assert {s.repo for s in context.snippets} <= {"shop", "billing"}


def test_a_repo_prefix_filters_and_unknown_repositories_are_refused(acme):
    only_billing = acme.intelligent_search("apply_discount", path_prefix="billing:")["results"]
    assert only_billing
    assert {r["repo"] for r in only_billing} == {"billing"}
    grep = acme.search_text("apply_discount", path_prefix="shop:shop/")["results"]
    assert [r["citation"] for r in grep] == [
        "shop:shop/checkout.py:5",
        "shop:shop/checkout.py:13",
        "shop:shop/pricing.py:8",
        "shop:shop/pricing.py:14",
    ]
    for crafted in ("vault:", "rival:vault.py", "../vault:"):
        with pytest.raises(MaguyvaError, match="no repository"):
            acme.search_text("TOPSECRET", path_prefix=crafted)
    assert acme.search_text("TOPSECRET_TOKEN")["count"] == 0
    assert (
        acme.analyze_dependencies("billing:billing.py", direction="callees")["entries"][0]["citation"]
        == "billing:billing.py:1"
    )


def test_get_file_reads_the_index_and_never_leaves_the_workspace(acme):
    lines = acme.get_file("billing.py", start_line=5, end_line=6)
    assert (lines["citation"], [line["text"] for line in lines["lines"]]) == (
        "billing:billing.py:5",
        ["def invoice(total):", "    return apply_discount(total)"],
    )
    assert acme.get_file("shop:shop/pricing.py", include_metadata=True)["metadata"]["language"] == "python"
    with pytest.raises(MaguyvaError, match="several repositories"):
        acme.get_file("shop/pricing.py")
    for crafted in (
        "../vault/vault.py",
        "/etc/passwd",
        "shop:../../etc/passwd",
        "shop:.git/config",
        "vault:vault.py",
        "vault.py",
        "shop:/etc/passwd",
    ):
        with pytest.raises(MaguyvaError, match=r"outside|no repository|no file|\.git"):
            acme.get_file(crafted)


def test_ci_index_publishes_a_snapshot_that_clients_see(team, acme):
    head = git(team["billing"], "rev-parse", "HEAD").strip()
    assert team["published"]["commit"] == head
    assert team["published"]["store"].endswith(f"workspace=acme-{RUN}&repo=billing")
    status = {r["repo"]: r for r in acme.index_status()["repositories"]}
    assert set(status) == {"billing", "shop"}
    assert status["billing"]["snapshot"]["commit"] == head
    assert status["billing"]["snapshot"]["created_at"]
    listed = run_cli("code", "repos", "--store", team["acme"], cwd=team["base"])
    assert listed.returncode == 0, listed.stderr
    assert {r["repo"]: r["snapshot"]["commit"] for r in json.loads(listed.stdout)["repositories"]}[
        "billing"
    ] == head
    with pytest.raises(MaguyvaError, match="published from CI"):
        acme.refresh_index()


def test_keys_are_created_listed_revoked_and_only_their_hash_is_stored(team, postgres_url):
    import psycopg

    created = run_cli(
        "code",
        "keys",
        "create",
        "alice",
        "--store",
        postgres_url,
        "--workspace",
        f"keys-{RUN}",
        cwd=team["base"],
    )
    assert created.returncode == 0, created.stderr
    key = json.loads(created.stdout)
    assert key["token"].startswith(f"mgv_{key['id']}_")
    assert key["revoked_at"] is None
    with psycopg.connect(postgres_url) as conn:
        stored = conn.execute("SELECT * FROM api_keys WHERE id = %s", (key["id"],)).fetchone()
    assert key["token"].split("_", 2)[2] not in json.dumps(stored, default=str)
    listed = json.loads(
        run_cli(
            "code", "keys", "list", "--store", f"{postgres_url}?workspace=keys-{RUN}", cwd=team["base"]
        ).stdout
    )
    assert [(k["id"], k["name"]) for k in listed["keys"]] == [(key["id"], "alice")]
    assert "token" not in listed["keys"][0]
    revoked = run_cli(
        "code",
        "keys",
        "revoke",
        key["id"],
        "--store",
        postgres_url,
        "--workspace",
        f"keys-{RUN}",
        cwd=team["base"],
    )
    assert revoked.returncode == 0
    assert json.loads(revoked.stdout)["revoked_at"]
    unknown = run_cli(
        "code",
        "keys",
        "revoke",
        "nope",
        "--store",
        postgres_url,
        "--workspace",
        f"keys-{RUN}",
        cwd=team["base"],
    )
    assert unknown.returncode == 1
    assert "unknown API key 'nope'" in unknown.stderr
    sqlite = run_cli("code", "keys", "list", "--store", str(team["base"] / "x.db"), cwd=team["base"])
    assert sqlite.returncode == 2
    assert "PostgreSQL" in sqlite.stderr


def _key(store: str, name: str, cwd: Path) -> dict:
    done = run_cli("code", "keys", "create", name, "--store", store, cwd=cwd)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_http_server_answers_only_live_keys_of_its_own_workspace(team):
    acme_key = _key(team["acme"], "ci", team["base"])
    rival_key = _key(team["rival"], "rival-ci", team["base"])
    revoked_key = _key(team["acme"], "old", team["base"])
    run_cli("code", "keys", "revoke", revoked_key["id"], "--store", team["acme"], cwd=team["base"])
    port = free_port()
    server = serve_http(port, "--store", team["acme"], cwd=team["base"])
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        wait_for_port(port, server)
        assert server.poll() is None, server.stderr.read().decode()
        forged = acme_key["token"][:-4] + "AAAA"
        assert [
            initialize_status(url, token)
            for token in (None, "mgv__", "not-a-key", forged, rival_key["token"], revoked_key["token"])
        ] == [401] * 6
        assert initialize_status(url, acme_key["token"]) == 200
        search, crafted_repo, crafted_path, dropped, status = mcp_calls(
            url,
            acme_key["token"],
            [
                ("intelligent_search", {"query": "apply_discount", "limit": 20}),
                ("search_text", {"pattern": "TOPSECRET_TOKEN", "path_prefix": "vault:"}),
                ("get_file", {"path": "../vault/vault.py"}),
                ("search_text", {"pattern": "'; DROP TABLE files; --"}),
                ("index_status", {}),
            ],
        )
        cited = {r["citation"].split(":", 1)[0] for r in search.structured_content["results"]}
        assert cited == {"shop", "billing"}
        assert crafted_repo.is_error
        assert "no repository 'vault'" in crafted_repo.content[0].text
        assert crafted_path.is_error
        assert "outside the repository" in crafted_path.content[0].text
        assert not dropped.is_error
        assert dropped.structured_content["count"] == 0
        assert {r["repo"] for r in status.structured_content["repositories"]} == {"shop", "billing"}
        run_cli("code", "keys", "revoke", acme_key["id"], "--store", team["acme"], cwd=team["base"])
        assert initialize_status(url, acme_key["token"]) == 401  # revocation takes effect on the next request
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_cli_queries_span_the_workspace_with_repo_star(team):
    store = team["acme"] + "&repo=*"
    found = run_cli("code", "symbol", "apply_discount", "--store", store, cwd=team["base"])
    assert found.returncode == 0, found.stderr
    assert [s["citation"] for s in json.loads(found.stdout)["symbols"]] == [
        "billing:billing.py:1",
        "shop:shop/pricing.py:8",
        "shop:vendor/legacy/pricing_copy.py:1",
    ]
    missing = run_cli(
        "code",
        "search",
        "x",
        "--store",
        f"{team['acme'].split('?')[0]}?workspace=nobody-{RUN}&repo=*",
        cwd=team["base"],
    )
    assert missing.returncode == 1
    assert "no indexed repositories" in missing.stderr
