"""Call-graph accuracy on the PyCG micro-benchmark, through `orkestra code graph`'s export.

Each case folder (``snippets/<category>/<case>/`` with ``callgraph.json``) is indexed on its own
(its own root, so module names are PyCG's: ``main.func``, ``pkg.mod.Class.method``), the graph
export (``maguyva.export.write_graph``: the JSON `orkestra code graph --format json` writes) is
read back, and its ``calls`` edges are compared with the case's gold edges as sets of
(caller, callee) pairs. PyCG's conventions: a call to a class counts as a call to its
``__init__`` (dropped when the class defines none); ``<builtin>`` callees are left out; top-level
code is the module. A naive name-matching floor runs in the same process over the same cases:
every call ``f(…)`` / ``x.f(…)`` goes to every definition named ``f`` in the case.

Fetch the benchmark (no network needed here; the mirror is a bare git directory)::

    mkdir -p /tmp/pycg && git --git-dir=/work/.mirror/vitsalis+PyCG/repo archive HEAD micro-benchmark \\
        | tar -x -C /tmp/pycg
    python bench/bench_callgraph.py /tmp/pycg/micro-benchmark

Prints one JSON line per category and one overall line; ``--errors`` lists every false and
missing edge.
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from maguyva.export import write_graph  # noqa: E402 - after the sys.path line
from maguyva.index.pipeline import index_repository  # noqa: E402 - after the sys.path line
from maguyva.store import open_store  # noqa: E402 - after the sys.path line


def gold_edges(case: Path) -> set[tuple[str, str]]:
    graph = json.loads((case / "callgraph.json").read_text())
    return {
        (src, dst)
        for src, dsts in graph.items()
        for dst in dsts
        if not src.startswith("<builtin>") and not dst.startswith("<builtin>")
    }


def exported_edges(case: Path, work: Path) -> tuple[set[tuple[str, str]], list[dict]]:
    """Index a copy of ``case`` and read its graph export back as PyCG pairs."""
    root = work / "repo"
    shutil.copytree(case, root, ignore=shutil.ignore_patterns("callgraph.json", "README.md"))
    store = work / "index.db"
    index_repository(root, store, full=True, workers=1)
    buffer = io.StringIO()
    index = open_store(store, readonly=True)
    try:
        write_graph(index, buffer, kinds=("calls", "inherits"))
    finally:
        index.close()
    graph = json.loads(buffer.getvalue())
    kinds = {node["name"]: node["kind"] for node in graph["nodes"]}
    bases = defaultdict(list)
    for edge in graph["edges"]:
        if edge["kind"] == "inherits":
            bases[edge["source"]].append(edge["target"])
    pairs = set()
    for edge in graph["edges"]:
        target = edge["target"]
        if edge["kind"] != "calls":
            continue
        if kinds.get(target) == "class":
            target = _init(target, kinds, bases)
            if target is None:
                continue
        pairs.add((edge["source"], target))
    return pairs, graph["edges"]


def _init(cls: str, kinds: dict, bases: dict, seen: frozenset = frozenset()) -> str | None:
    """The ``__init__`` a call of ``cls`` runs: its own, else the first base's (depth-first)."""
    if f"{cls}.__init__" in kinds:
        return f"{cls}.__init__"
    for base in bases.get(cls, ()):
        if base not in seen:
            found = _init(base, kinds, bases, seen | {cls})
            if found:
                return found
    return None


def naive_edges(case: Path) -> set[tuple[str, str]]:
    """The floor: every call goes to every same-named definition of the case."""
    trees = {}
    for path in sorted(case.rglob("*.py")):
        rel = path.relative_to(case).with_suffix("").as_posix().replace("/", ".")
        module = rel[: -len(".__init__")] if rel.endswith(".__init__") else rel
        try:
            trees[module] = ast.parse(path.read_text())
        except SyntaxError:
            continue
    defs: dict[str, list[str]] = defaultdict(list)
    calls: list[tuple[str, str]] = []

    def walk(node, scope: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{scope}.{child.name}"
                defs[child.name].append(name)
                walk(child, name)
                continue
            if isinstance(child, ast.Call):
                func = child.func
                called = (
                    func.id
                    if isinstance(func, ast.Name)
                    else func.attr
                    if isinstance(func, ast.Attribute)
                    else None
                )
                if called:
                    calls.append((scope, called))
            walk(child, scope)

    for module, tree in trees.items():
        walk(tree, module)
    classes = {name for names in defs.values() for name in names}
    pairs = set()
    for scope, called in calls:
        for target in defs.get(called, ()):
            init = f"{target}.__init__"
            pairs.add((scope, init if init in classes else target))
    return pairs


def score(found: set, gold: set) -> dict:
    hits = len(found & gold)
    precision = hits / len(found) if found else 1.0
    recall = hits / len(gold) if gold else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "precision": round(precision, 3),
        "recall": round(recall, 3),
        "f1": round(f1, 3),
        "found": len(found),
        "gold": len(gold),
        "matched": hits,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("benchmark", type=Path, help="PyCG's micro-benchmark folder (holding snippets/)")
    parser.add_argument("--errors", action="store_true", help="print every false and missing edge")
    args = parser.parse_args()
    snippets = args.benchmark / "snippets" if (args.benchmark / "snippets").is_dir() else args.benchmark
    cases = sorted(p.parent for p in snippets.glob("*/*/callgraph.json"))
    if not cases:
        parser.error(f"no <category>/<case>/callgraph.json under {snippets}")
    totals = {"ours": [set(), set()], "naive": [set(), set()]}
    per_category: dict[str, dict] = defaultdict(lambda: {"ours": [set(), set()], "naive": [set(), set()]})
    started = time.perf_counter()
    errors = []
    for case in cases:
        category, name = case.parent.name, case.name
        gold = {(f"{category}/{name}", *pair) for pair in gold_edges(case)}
        with tempfile.TemporaryDirectory() as work:
            ours, _ = exported_edges(case, Path(work))
        ours = {(f"{category}/{name}", *pair) for pair in ours}
        naive = {(f"{category}/{name}", *pair) for pair in naive_edges(case)}
        for label, found in (("ours", ours), ("naive", naive)):
            for bucket in (totals[label], per_category[category][label]):
                bucket[0].update(found)
                bucket[1].update(gold)
        errors += [("false", *e) for e in sorted(ours - gold)] + [
            ("missing", *e) for e in sorted(gold - ours)
        ]
    for category in sorted(per_category):
        row = per_category[category]
        print(json.dumps({"category": category, "ours": score(*row["ours"]), "naive": score(*row["naive"])}))
    print(
        json.dumps(
            {
                "category": "ALL",
                "cases": len(cases),
                "ours": score(*totals["ours"]),
                "naive": score(*totals["naive"]),
                "seconds": round(time.perf_counter() - started, 1),
                "targets": {"precision": 0.95, "recall": 0.75},
            }
        )
    )
    if args.errors:
        for error in errors:
            print("\t".join(error))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
