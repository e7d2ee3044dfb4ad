"""Resolution order, re-exports, relative imports, and unresolved references kept with a reason."""

from __future__ import annotations

from index_helpers import write_tree

from maguyva.index.pipeline import extract_tree
from maguyva.index.resolve import is_fact

PROJECT = {
    "shop/__init__.py": "from .models import Order\n",
    "shop/models.py": """
        class Base:
            def save(self):
                return validate(self)

        def validate(obj):
            return obj

        class Order(Base):
            def total(self):
                self.save()
                return compute()

        def compute():
            return 1
        """,
    "shop/api.py": """
        import shop.models as m
        from shop import Order
        from .models import compute as calc
        from . import models


        def handler():
            def compute():
                return 2
            order = Order()
            order.total()
            calc()
            m.validate(order)
            models.compute()
            return compute()


        def report():
            print(missing_name())
            return helper()
        """,
    "tools/helpers.py": "def helper():\n    return 1\n",
    "tools/a/util.py": "def helper():\n    return 2\n",
    "tools/b/util.py": "def helper():\n    return 3\n",
    "tools/a/use.py": "from os import path\n\ndef run():\n    return helper()\n",
}


def _edges(tmp_path):
    write_tree(tmp_path, PROJECT)
    extractions, edges = extract_tree(tmp_path)
    return extractions, {(e.src_path, e.src_line, e.name): e for e in edges}


def _to(edge):
    return (edge.resolution, f"{edge.dst_path}:{edge.dst_line}" if edge.dst_path else edge.reason)


def test_every_reference_becomes_exactly_one_edge(tmp_path):
    # facts (assignments, parameters, returns …) feed the type pass and give no edge of their own;
    # a call with several possible values would give one edge per value, and this project has none
    extractions, edges = _edges(tmp_path)
    assert len(edges) == sum(1 for e in extractions for r in e.references if not is_fact(r))


def test_imports_resolve_to_the_module_file_or_the_imported_definition(tmp_path):
    _, edges = _edges(tmp_path)
    assert _to(edges[("shop/api.py", 1, "shop.models")]) == ("resolved", "shop/models.py:1")
    assert _to(edges[("shop/api.py", 2, "Order")]) == (
        "resolved",
        "shop/models.py:8",
    )  # via the package re-export
    assert _to(edges[("shop/api.py", 3, "compute")]) == ("resolved", "shop/models.py:13")
    assert _to(edges[("shop/api.py", 4, "models")]) == ("resolved", "shop/models.py:1")
    assert edges[("shop/api.py", 4, "models")].dst_symbol == "shop.models"
    assert _to(edges[("tools/a/use.py", 1, "path")]) == ("external", "module 'os' is not in the repository")


def test_calls_resolve_through_scopes_aliases_modules_and_self(tmp_path):
    _, edges = _edges(tmp_path)
    assert _to(edges[("shop/api.py", 10, "Order")]) == ("resolved", "shop/models.py:8")
    assert _to(edges[("shop/api.py", 11, "total")]) == ("resolved", "shop/models.py:9")
    assert _to(edges[("shop/api.py", 12, "calc")]) == ("resolved", "shop/models.py:13")
    assert _to(edges[("shop/api.py", 13, "validate")]) == ("resolved", "shop/models.py:5")
    assert _to(edges[("shop/api.py", 14, "compute")]) == ("resolved", "shop/models.py:13")
    assert _to(edges[("shop/api.py", 15, "compute")]) == ("resolved", "shop/api.py:8")  # the nested def wins
    assert _to(edges[("shop/models.py", 10, "save")]) == ("resolved", "shop/models.py:2")  # inherited method
    assert edges[("shop/models.py", 10, "save")].src_symbol == "shop.models.Order.total"
    assert _to(edges[("shop/models.py", 8, "Base")]) == ("resolved", "shop/models.py:1")
    assert edges[("shop/models.py", 8, "Base")].kind == "inherits"


def test_a_unique_name_resolves_repo_wide_and_the_same_directory_breaks_ties(tmp_path):
    # nothing in scope binds ``helper``: the same-directory definition is a guess, said so
    _, edges = _edges(tmp_path)
    assert _to(edges[("tools/a/use.py", 4, "helper")]) == ("inferred", "tools/a/util.py:1")


def test_unresolvable_references_are_kept_as_external_or_ambiguous_with_a_reason(tmp_path):
    _, edges = _edges(tmp_path)
    assert _to(edges[("shop/api.py", 19, "print")]) == (
        "external",
        "no definition of 'print' in the repository",
    )
    assert _to(edges[("shop/api.py", 20, "helper")]) == (
        "ambiguous",
        "3 candidates: tools/a/util.py:1, tools/b/util.py:1, tools/helpers.py:1",
    )


def test_javascript_relative_imports_resolve_across_extensions_and_index_files(tmp_path):
    write_tree(
        tmp_path,
        {
            "web/lib/index.ts": "export function format(x: number): string { return String(x); }\n",
            "web/app.js": 'import { format } from "./lib";\nimport * as lib from "./lib/index.js";\n'
            "export function main() { return format(1) + lib.format(2); }\n"
            'import Shop from "./shop";\nimport other from "./shop";\n',
            "web/shop.js": "export default class Shop {}\n",
        },
    )
    _, edges = extract_tree(tmp_path)
    found = {(e.src_line, e.name): _to(e) for e in edges if e.src_path == "web/app.js"}
    assert found == {
        (1, "format"): ("resolved", "web/lib/index.ts:1"),
        (2, "*"): ("resolved", "web/lib/index.ts:1"),
        (3, "format"): ("resolved", "web/lib/index.ts:1"),
        (4, "./shop"): ("resolved", "web/shop.js:1"),  # default import: the same-named definition
        (5, "./shop"): ("resolved", "web/shop.js:1"),  # ... or else the module
    }
    default, fallback = sorted(
        (e for e in edges if e.src_path == "web/app.js" and e.src_line > 3), key=lambda e: e.src_line
    )
    assert (default.dst_symbol, fallback.dst_symbol) == ("web.shop.Shop", "web.shop")


def test_inheritance_cycles_and_self_referring_bases_terminate(tmp_path):
    write_tree(
        tmp_path,
        {
            "loop.py": "class A(B):\n    def f(self):\n        return self.g()\n\n\nclass B(A):\n    pass\n\n\n"
            "class C:\n    def make(self):\n        class D(self.Base):\n            pass\n"
            "        return D\n"
        },
    )
    _, edges = extract_tree(tmp_path)
    found = {(e.src_line, e.name): _to(e) for e in edges}
    assert found[(3, "g")] == ("external", "no member 'g' on A or its in-repo bases")
    assert found[(12, "Base")] == ("external", "no member 'Base' on C or its in-repo bases")  # self is C's


PICKS = """
import json, sys
from maguyva.index.pipeline import extract_tree
_, edges = extract_tree(sys.argv[1])
print(json.dumps(sorted([e.src_path, e.src_line, e.dst_path or "", e.dst_line or 0, e.resolution, e.reason]
                        for e in edges if e.kind == "calls")))
"""


def test_which_definition_an_edge_names_is_the_same_in_every_process(tmp_path):
    """Sets of values order by hash, and hash(None) moves with the address space on Python 3.11: a
    name defined twice in one scope, or a receiver of several classes, must not pick by that order."""
    import json
    import os
    import subprocess
    import sys

    write_tree(
        tmp_path,
        {
            "app/tools.py": "def build():\n    return 1\n\n\ndef build():\n    return 2\n",
            "app/shapes.py": "class A:\n    pass\n\n\nclass B:\n    pass\n",
            "app/main.py": "from app.tools import build\nfrom app.shapes import A, B\n\n\n"
            "def run(flag):\n    shape = A() if flag else B()\n    shape.area()\n    return build()\n",
        },
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    answers = {
        subprocess.run(
            [sys.executable, "-c", PICKS, str(tmp_path)], capture_output=True, text=True, check=True, env=env
        ).stdout
        for _ in range(6)
    }
    assert len(answers) == 1
    calls = json.loads(answers.pop())
    assert ["app/main.py", 7, "", 0, "external", "no member 'area' on A or its in-repo bases"] in calls
