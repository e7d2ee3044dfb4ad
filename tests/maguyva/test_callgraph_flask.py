"""The call graph on flask itself (the public mirror; skipped, with the reason, where it is absent)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from maguyva.api import Maguyva
from maguyva.index.pipeline import index_repository

MIRROR = Path("/work/.mirror/pallets+flask/repo")
BUILTIN_NAMES = {"get", "setdefault", "pop", "update", "items", "keys", "values", "append", "format", "split"}


@pytest.fixture(scope="module")
def flask(tmp_path_factory):
    if not (MIRROR / "HEAD").exists():
        pytest.skip(f"no flask mirror at {MIRROR}")
    root = tmp_path_factory.mktemp("flask")
    archive = subprocess.run(
        ["git", "--git-dir", str(MIRROR), "archive", "HEAD", "src"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(root)], input=archive, check=True)
    index_repository(root, root / "index.db")
    api = Maguyva.open(root, str(root / "index.db"))
    yield api
    api.close()


@pytest.mark.slow
def test_appctxglobals_get_has_only_real_callers(flask):
    # flask's own code never calls g.get(); config.get(), kwargs.get() and _cv_app.get(None) are
    # dict / ContextVar calls and must not be counted (they are "possible" at most)
    found = flask.find_references("_AppCtxGlobals.get")
    assert found["definitions"] == ["src/flask/ctx.py:68"]
    assert found["references"] == []
    possible = flask.find_references("_AppCtxGlobals.get", include_possible=True)["references"]
    assert possible
    assert all(r["resolution"] == "ambiguous" for r in possible)


@pytest.mark.slow
def test_flask_register_blueprint_resolves_to_the_base_class_method(flask):
    found = flask.find_symbol("Flask.register_blueprint")
    assert [(s["qualified_name"], s["inherited_by"]) for s in found["symbols"]] == [
        ("flask.sansio.app.App.register_blueprint", "flask.app.Flask")
    ]
    deps = flask.analyze_dependencies("Flask.register_blueprint", direction="callees")
    assert deps["resolved"] == ["src/flask/sansio/app.py:567"]


@pytest.mark.slow
def test_repo_overview_hubs_are_real_hubs(flask):
    hubs = [h["symbol"] for h in flask.repo_overview(hubs=10)["hub_symbols"]]
    assert {"flask.app.Flask", "flask.sansio.app.App"} <= set(hubs)
    assert not [h for h in hubs if h.rsplit(".", 1)[-1] in BUILTIN_NAMES]
