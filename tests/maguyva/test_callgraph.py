"""The call graph agents trust: calls resolve through types and values, never by a name alone.

Small built repositories for every false edge and miss issue #15 lists (and the flask shapes:
``config.get()`` / ``kwargs.get()`` / ``_cv_app.get(None)`` against ``_AppCtxGlobals.get``,
``Flask.register_blueprint`` defined on its base ``App``), plus the graph export and the API views.
"""

from __future__ import annotations

import json

import pytest
from clirun import run_cli
from index_helpers import write_tree

from maguyva.api import Maguyva
from maguyva.index.pipeline import extract_tree, index_repository

PYTHON = {
    "pkg/__init__.py": "",
    "pkg/sqlfmt.py": """
        def format(sql):
            return sql

        def split(sql):
            return [sql]

        def group(tokens):
            return tokens
        """,
    "pkg/keys.py": """
        class Key:
            def get(self):
                return 1
        """,
    "pkg/filters.py": """
        class StatementSplitter:
            def process(self, stream):
                return stream

        class Other:
            def process(self, stream):
                return stream
        """,
    "pkg/use.py": """
        import sys, os, re
        from pkg import sqlfmt
        from pkg.sqlfmt import format, split


        def a():
            return 1


        class Mv:
            pass


        def right(x):
            return x


        def strings(x, filter_):
            "{}".format(x)
            m = re.match("a", x)
            m.group()
            os.environ.get("HOME")
            filter_.process(x)
            return format(x)


        def values(a):
            a()
            f = right
            f(1)
            Mv.r = right
            Mv.r(5)
            table = {"go": right}
            table["go"](2)
            return [split][0]("x")
        """,
    "pkg/types_.py": """
        from pkg.filters import StatementSplitter


        class Engine:
            def run(self):
                return 1


        class Car:
            def __init__(self):
                self.engine = Engine()

            def drive(self) -> "Engine":
                self.engine.run()
                return self.engine


        def build() -> Car:
            return Car()


        def use(splitter: StatementSplitter):
            car = build()
            car.drive().run()
            first, second = Car(), Engine()
            second.run()
            splitter.process(1)
            with Car() as ctx:
                ctx.drive()
        """,
}

FLASK_SHAPE = {
    "app/__init__.py": "",
    "app/sansio.py": """
        class App:
            def register_blueprint(self, blueprint):
                return blueprint
        """,
    "app/ctx.py": """
        class _AppCtxGlobals:
            def get(self, name, default=None):
                return default

        class AppContext:
            def __init__(self):
                self.g = _AppCtxGlobals()

            def lookup(self):
                return self.g.get("x")
        """,
    "app/app.py": """
        from contextvars import ContextVar

        from app.sansio import App

        _cv_app = ContextVar("app")


        class Flask(App):
            def __init__(self, **kwargs):
                self.config = {}
                self.config.get("DEBUG")
                kwargs.get("name")
                _cv_app.get(None)

            def setup(self, bp):
                self.register_blueprint(bp)
        """,
}


def _edges(tmp_path, files):
    write_tree(tmp_path, files)
    _, edges = extract_tree(tmp_path)
    found: dict = {}
    for e in edges:
        found.setdefault((e.src_path, e.src_line, e.name), []).append(e)
    return found


def _to(edges):
    return sorted((e.resolution, e.dst_symbol) if e.dst_path else (e.resolution, None) for e in edges)


def test_names_of_module_functions_never_catch_method_calls_on_other_values(tmp_path):
    edges = _edges(tmp_path, PYTHON)
    assert _to(edges[("pkg/use.py", 19, "format")]) == [("external", None)]  # a str literal's format
    assert _to(edges[("pkg/use.py", 21, "group")]) == [("external", None)]  # a re.Match, not sqlfmt.group
    assert _to(edges[("pkg/use.py", 22, "get")]) == [("external", None)]  # import sys, os: os is bound too
    assert _to(edges[("pkg/use.py", 23, "process")]) == [("ambiguous", None)]  # no same-folder tie-break
    assert "2 candidates" in edges[("pkg/use.py", 23, "process")][0].reason
    assert _to(edges[("pkg/use.py", 24, "format")]) == [("resolved", "pkg.sqlfmt.format")]


def test_import_of_several_modules_binds_every_one(tmp_path):
    write_tree(tmp_path, PYTHON)
    extractions, _ = extract_tree(tmp_path)
    use = next(e for e in extractions if e.path == "pkg/use.py")
    assert [r.module for r in use.references if r.kind == "import" and r.line == 1] == ["os", "re", "sys"]


def test_edges_follow_values_never_variables_or_fields(tmp_path):
    edges = _edges(tmp_path, PYTHON)
    assert _to(edges[("pkg/use.py", 28, "a")])[0][1] is None  # the parameter a shadows the module's a
    assert _to(edges[("pkg/use.py", 30, "f")]) == [("resolved", "pkg.use.right")]  # f = right; f(1)
    assert _to(edges[("pkg/use.py", 32, "r")]) == [("resolved", "pkg.use.right")]  # Mv.r = right; Mv.r(5)
    assert _to(edges[("pkg/use.py", 34, "")]) == [("resolved", "pkg.use.right")]  # a dict of functions
    assert _to(edges[("pkg/use.py", 35, "")]) == [("resolved", "pkg.sqlfmt.split")]  # a list of functions


def test_receivers_are_typed_by_constructors_annotations_returns_and_self_attributes(tmp_path):
    edges = _edges(tmp_path, PYTHON)
    assert _to(edges[("pkg/types_.py", 14, "run")]) == [("resolved", "pkg.types_.Engine.run")]  # self.engine
    assert _to(edges[("pkg/types_.py", 24, "run")]) == [("resolved", "pkg.types_.Engine.run")]  # -> "Engine"
    assert _to(edges[("pkg/types_.py", 24, "drive")]) == [("resolved", "pkg.types_.Car.drive")]  # -> Car
    assert _to(edges[("pkg/types_.py", 26, "run")]) == [("resolved", "pkg.types_.Engine.run")]  # unpacking
    assert _to(edges[("pkg/types_.py", 27, "process")]) == [
        ("resolved", "pkg.filters.StatementSplitter.process")
    ]
    assert _to(edges[("pkg/types_.py", 29, "drive")]) == [("resolved", "pkg.types_.Car.drive")]  # with … as


def test_flask_shapes_give_get_only_its_real_callers_and_inherited_members_resolve(tmp_path):
    edges = _edges(tmp_path, FLASK_SHAPE)
    callers = sorted(
        (path, line)
        for (path, line, name), found in edges.items()
        if name == "get"
        for e in found
        if e.dst_symbol == "app.ctx._AppCtxGlobals.get"
    )
    assert callers == [("app/ctx.py", 10)]  # self.g.get, not config.get / kwargs.get / _cv_app.get
    assert _to(edges[("app/app.py", 16, "register_blueprint")]) == [
        ("resolved", "app.sansio.App.register_blueprint")
    ]


@pytest.fixture
def flask_index(git_repo, tmp_path):
    write_tree(git_repo, FLASK_SHAPE)
    index_repository(git_repo, tmp_path / "index.db")
    api = Maguyva.open(git_repo, str(tmp_path / "index.db"))
    yield git_repo, tmp_path / "index.db", api
    api.close()


def test_find_symbol_finds_a_member_on_a_base_and_says_where_it_came_from(flask_index):
    _, _, api = flask_index
    found = api.find_symbol("Flask.register_blueprint")
    assert found["count"] == 1
    (symbol,) = found["symbols"]
    assert (symbol["qualified_name"], symbol["inherited_by"], symbol["inherited_from"]) == (
        "app.sansio.App.register_blueprint",
        "app.app.Flask",
        "app.sansio.App",
    )
    assert api.find_symbol("Flask.no_such_member")["count"] == 0


def test_references_carry_their_resolution_and_possible_ones_only_when_asked(flask_index):
    _, _, api = flask_index
    plain = api.find_references("_AppCtxGlobals.get")
    assert [(r["citation"], r["resolution"]) for r in plain["references"]] == [("app/ctx.py:10", "resolved")]
    wider = api.find_references("_AppCtxGlobals.get", include_possible=True)
    possible = [r for r in wider["references"] if r.get("possible")]
    # kwargs.get(…) and the like
    assert possible
    assert all(r["resolution"] == "ambiguous" for r in possible)
    deps = api.analyze_dependencies("app.ctx.AppContext.lookup", direction="callees")
    assert [(e["symbol"], e["resolution"]) for e in deps["entries"] if e["relation"] == "callee"] == [
        ("app.ctx._AppCtxGlobals.get", "resolved")
    ]
    callers = api.analyze_dependencies("Flask.register_blueprint", direction="callers")
    assert [(e["citation"], e["resolution"]) for e in callers["entries"]] == [("app/app.py:16", "resolved")]


def test_graph_export_streams_nodes_and_edges_as_json(flask_index):
    repo, store, _ = flask_index
    result = run_cli("code", "graph", "--format", "json", "--store", str(store), str(repo), cwd=repo)
    assert result.returncode == 0, result.stderr
    graph = json.loads(result.stdout)
    nodes = {n["name"]: n for n in graph["nodes"]}
    assert nodes["app.ctx._AppCtxGlobals.get"] == {
        "name": "app.ctx._AppCtxGlobals.get",
        "kind": "method",
        "location": "app/ctx.py:2",
    }
    assert nodes["app.app"]["kind"] == "module"
    assert {
        "kind": "calls",
        "resolution": "resolved",
        "source": "app.ctx.AppContext.lookup",
        "target": "app.ctx._AppCtxGlobals.get",
        "site": "app/ctx.py:10",
        "target_location": "app/ctx.py:2",
    } in graph["edges"]
    assert all(e["resolution"] in ("resolved", "inferred") for e in graph["edges"])
    wide = run_cli(
        "code", "graph", "--include-unresolved", "--kind", "calls", "--store", str(store), str(repo), cwd=repo
    )
    assert any(
        e["resolution"] == "ambiguous" and e["target"] is None for e in json.loads(wide.stdout)["edges"]
    )


def test_graph_export_without_an_index_fails_with_a_clear_message(tmp_path):
    result = run_cli("code", "graph", "--store", str(tmp_path / "missing.db"), str(tmp_path), cwd=tmp_path)
    assert result.returncode == 1
    assert "no index" in result.stderr


JS = {
    "web/models.js": """
        export class Engine {
          run() { return 1; }
        }
        export class Car {
          constructor() { this.engine = new Engine(); }
          drive() { this.engine.run(); return this.engine; }
        }
        """,
    "web/util.js": "function format(x) { return x; }\nmodule.exports = { format };\n",
    "web/app.js": """
        import { Car } from "./models.js";
        const util = require("./util.js");
        const registry = { start(car) { return car.drive(); } };

        export function main(text) {
          const car = new Car();
          car.drive();
          registry.start(car);
          text.format();
          return util.format(text);
        }
        """,
}


def test_javascript_follows_this_new_imports_require_and_object_literals(tmp_path):
    edges = _edges(tmp_path, JS)
    assert _to(edges[("web/models.js", 6, "run")]) == [("resolved", "web.models.Engine.run")]  # this.engine
    assert _to(edges[("web/app.js", 7, "drive")]) == [("resolved", "web.models.Car.drive")]  # new Car()
    assert _to(edges[("web/app.js", 8, "start")]) == [("resolved", "web.app.registry.start")]
    assert _to(edges[("web/app.js", 9, "format")]) == [("external", None)]  # no method: module function
    assert _to(edges[("web/app.js", 10, "format")]) == [("resolved", "web.util.format")]  # CommonJS


def test_commonjs_exports_assignments_define_what_require_callers_reach(tmp_path):
    edges = _edges(
        tmp_path,
        {
            "lib/util.js": "exports.slug = function (t) { return t; };\nmodule.exports.shout = (t) => t.toUpperCase();\n",
            "app.js": 'const u = require("./lib/util.js");\nfunction main() { u.slug("a"); return u.shout("b"); }\n',
        },
    )
    assert _to(edges[("app.js", 2, "slug")]) == [("resolved", "lib.util.slug")]
    assert _to(edges[("app.js", 2, "shout")]) == [("resolved", "lib.util.shout")]
    assert _to(edges[("lib/util.js", 2, "toUpperCase")]) == [("external", None)]
