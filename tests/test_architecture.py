"""Maguyva stands alone: nothing under maguyva/ imports orkestra (orkestra may import maguyva)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys

import pytest
from conftest import REPO

MAGUYVA = REPO / "maguyva"


def orkestra_imports(path, root=REPO) -> list[str]:
    """``file:line`` of every import of orkestra in one module (top level, in functions, TYPE_CHECKING)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            names = [str(node.args[0].value)]
        found += [
            f"{path.relative_to(root)}:{node.lineno}"
            for name in names
            if name == "orkestra" or name.startswith("orkestra.")
        ]
    return found


def test_no_module_under_maguyva_imports_orkestra():
    modules = sorted(MAGUYVA.rglob("*.py"))
    assert len(modules) > 50  # the scan really walked the package
    offenders = [where for path in modules for where in orkestra_imports(path)]
    assert offenders == []


def test_the_scan_catches_every_import_form(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import orkestra\nfrom orkestra.errors import X\ndef f():\n    import orkestra.cli as c\n"
        "importlib.import_module('orkestra.memory')\nfrom maguyva import y\nimport orkestral\n"
    )
    assert orkestra_imports(sample, tmp_path) == ["sample.py:1", "sample.py:2", "sample.py:4", "sample.py:5"]


def import_graph(package: str = "maguyva") -> dict[str, set[str]]:
    """module -> the package's modules it imports, anywhere in it (a lazy import inside a function counts:
    it still ties the two modules together)."""
    modules = {}
    for path in (REPO / package).rglob("*.py"):
        name = ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")
        modules[name] = path
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                submodules = [f"{node.module}.{alias.name}" for alias in node.names]
                targets = [t for t in submodules if t in modules] or [node.module]
            else:
                continue
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_maguyva_has_no_import_cycles():
    graph = import_graph()
    assert "maguyva.embed.local" in graph["maguyva.embed.base"]  # lazy imports are seen
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_orkestra_has_no_import_cycles():
    graph = import_graph("orkestra")
    assert "orkestra.render.outputs" in graph["orkestra.import_verify"]  # lazy imports are seen
    assert cycles(graph) == []


MAX_MODULE_LINES = 600


def long_modules(*packages: str, root=REPO) -> dict[str, int]:
    """Modules over MAX_MODULE_LINES lines: a module that long holds more than one thing."""
    found = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > MAX_MODULE_LINES:
                found[str(path.relative_to(root))] = lines
    return found


def test_no_module_is_over_600_lines():
    assert long_modules("orkestra", "maguyva") == {}


def test_the_length_check_counts_lines(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "short.py").write_text("x = 1\n" * MAX_MODULE_LINES)
    (tmp_path / "pkg" / "long.py").write_text("x = 1\n" * (MAX_MODULE_LINES + 1))
    assert long_modules("pkg", root=tmp_path) == {"pkg/long.py": MAX_MODULE_LINES + 1}


RUNNER = """
import json, sys
import maguyva.api, maguyva.cli.app, maguyva.server.app, maguyva.server.team, maguyva.server.tools
import maguyva.status, maguyva.config, maguyva.workspace, maguyva.embed.repository, maguyva.export
from maguyva.cli.app import app
from typer.testing import CliRunner
result = CliRunner().invoke(app, ["--help"])
print(json.dumps({"help": result.exit_code, "orkestra": sorted(m for m in sys.modules if m.split(".")[0] == "orkestra")}))
"""


def test_importing_maguyva_api_cli_and_server_loads_no_orkestra_module():
    pytest.importorskip("mcp")
    done = subprocess.run(
        [sys.executable, "-c", RUNNER], capture_output=True, text=True, cwd=REPO, check=True
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {"help": 0, "orkestra": []}


# --- the eleven tools: declared once (maguyva/tools/contract.py), generated everywhere else ---------

TOOL_SURFACES = ("maguyva/server/tools.py", "maguyva/cli/query.py")


def declared_literals(path, root=REPO) -> list[str]:
    """``file:line`` of every ``Field(…)``, ``Option(…)`` or ``Argument(…)`` call given literal text or
    numbers: a parameter declared there rather than read from the contract."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "attr", getattr(node.func, "id", ""))
        values = [*node.args, *(k.value for k in node.keywords)]
        if name in ("Field", "Option", "Argument") and any(isinstance(v, ast.Constant) for v in values):
            found.append(f"{path.relative_to(root)}:{node.lineno}")
    return found


def test_no_tool_parameter_is_declared_in_the_server_or_the_cli(tmp_path):
    offenders = [where for surface in TOOL_SURFACES for where in declared_literals(REPO / surface)]
    assert offenders == []
    sample = tmp_path / "sample.py"  # the scan sees a parameter written by hand, in either form
    sample.write_text(
        "def f(limit: Annotated[int, Field(ge=1, description='Max.')] = 10): ...\n"
        "def g(limit: Annotated[int, typer.Option('--limit', help='At most N.')] = 10): ...\n"
        "def h(n: Annotated[int, typer.Option(*spec.flags, help=spec.help)] = 10): ...\n"
    )
    assert declared_literals(sample, tmp_path) == ["sample.py:1", "sample.py:2"]


def test_every_declared_text_is_written_only_in_the_contract():
    """A tool's descriptions and CLI help exist once, as literals of maguyva/tools/contract.py."""
    from maguyva.tools.contract import TOOLS

    texts = {tool.description for tool in TOOLS} | {
        text for tool in TOOLS for p in tool.params for text in (p.description, p.cli and p.cli.help) if text
    }
    elsewhere = []
    for path in sorted((REPO / "maguyva").rglob("*.py")):
        if path.name == "contract.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in texts:
                elsewhere.append(f"{path.relative_to(REPO)}:{node.lineno}: {node.value!r}")
    assert elsewhere == []


def test_the_mcp_tools_publish_the_declared_parameter_models():
    import anyio
    from mcp import Client

    from maguyva.server.app import build_server
    from maguyva.server.schemas import compact
    from maguyva.tools.contract import BY_NAME
    from maguyva.tools.params import parameter_model

    async def listed():
        async with Client(build_server(lambda: None)) as client:  # listing never opens the index
            return (await client.list_tools()).tools

    tools = {t.name: t for t in anyio.run(listed)}
    assert sorted(tools) == sorted(BY_NAME)
    for name, tool in tools.items():
        declared = compact(parameter_model(name).model_json_schema())
        assert tool.input_schema == declared, name
        assert tool.description == BY_NAME[name].description, name
    assert tools["search_text"].input_schema["properties"]["limit"]["maximum"] == 200  # a real schema


def test_every_cli_query_command_has_the_declared_options_and_help():
    import typer

    from maguyva.cli.app import app
    from maguyva.tools.contract import TOOLS

    commands = typer.main.get_command(app).commands
    for tool in (t for t in TOOLS if t.command is not None):
        exposed = [p for p in tool.params if p.cli is not None]
        params = commands[tool.command.name].params
        assert [p.name for p in params] == [p.cli.name for p in exposed] + ["repo", "store", "fmt"]
        for param, declared in zip(params, exposed, strict=False):
            assert param.help == declared.cli.help, (tool.command.name, param.name)
            assert getattr(param.type, "max", None) == declared.le, (tool.command.name, param.name)
            assert getattr(param.type, "min", None) == declared.ge, (tool.command.name, param.name)
            assert param.required == declared.required, (tool.command.name, param.name)
            if not declared.required:
                assert param.default == declared.default, (tool.command.name, param.name)


def test_both_retrievals_answer_every_tool_with_the_declared_defaults():
    """One repository's Maguyva and a scope's ScopedMaguyva: the tools' parameters, in the declared
    order, with the declared defaults (a library-only option may follow, with a default)."""
    import inspect

    from maguyva.api import Maguyva
    from maguyva.scope import ScopedMaguyva
    from maguyva.tools.contract import TOOLS
    from maguyva.tools.protocol import Retrieval

    protocol = {name for name in dir(Retrieval) if not name.startswith("_")}
    assert {tool.name for tool in TOOLS} <= protocol
    for cls in (Maguyva, ScopedMaguyva):
        assert protocol <= set(dir(cls)), cls.__name__
        for tool in TOOLS:
            params = list(inspect.signature(getattr(cls, tool.name)).parameters.values())[1:]
            declared = [(p.name, inspect.Parameter.empty if p.required else p.default) for p in tool.params]
            assert [(p.name, p.default) for p in params[: len(declared)]] == declared, (
                cls.__name__,
                tool.name,
            )
            assert all(p.default is not inspect.Parameter.empty for p in params[len(declared) :])


def test_scope_calls_no_private_method_of_maguyva():
    """scope.py reaches the one-store retrieval through its public methods only (``self._…`` is its own)."""
    tree = ast.parse((MAGUYVA / "scope.py").read_text(encoding="utf-8"))
    private = [
        f"scope.py:{node.lineno}: {node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr.startswith("_")
        and not node.attr.startswith("__")
        and not (isinstance(node.value, ast.Name) and node.value.id == "self")
    ]
    assert private == []


# --- processes through the standard library: no hand-made fork, no prctl, no GitPython ----------------

PROCESS_HACKS = ("fork", "forkpty", "prctl")


def process_hacks(path, root=REPO) -> list[str]:
    """``file:line: what`` for every ``os.fork``-style name (an attribute, an imported name, a call), any
    ``prctl`` (also as a string, as ctypes looks it up) and any import of GitPython (``git``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        what = None
        if isinstance(node, ast.Attribute) and node.attr in PROCESS_HACKS:
            what = node.attr
        elif isinstance(node, ast.Name) and node.id in PROCESS_HACKS:
            what = node.id
        elif isinstance(node, ast.alias) and node.name.rsplit(".", 1)[-1] in PROCESS_HACKS:
            what = node.name
        elif isinstance(node, ast.Constant) and node.value == "prctl":
            what = "prctl"
        elif isinstance(node, ast.Import) and any(a.name.split(".")[0] == "git" for a in node.names):
            what = "import git"
        elif (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and (node.module or "").split(".")[0] == "git"
        ):
            what = "from git import"
        if what:
            found.append(f"{path.relative_to(root)}:{node.lineno}: {what}")
    return found


def test_no_module_forks_by_hand_or_calls_prctl():
    """Child processes go through ``subprocess`` or ``multiprocessing`` (orkestra/mining/lanes.py, the
    hook's Loki flusher); GitPython is no dependency."""
    modules = sorted([*MAGUYVA.rglob("*.py"), *(REPO / "orkestra").rglob("*.py")])
    assert len(modules) > 200  # both packages were walked
    offenders = [where for path in modules for where in process_hacks(path)]
    assert offenders == []


def test_the_process_scan_catches_every_form(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os\nif os.fork() == 0: pass\nfrom os import fork\npid = fork()\n"
        "ctypes.CDLL(None).prctl(1, 9)\ngetattr(libc, 'prctl')\nimport git\nfrom git.exc import X\n"
        "multiprocessing.get_context('fork')\nwrite_forked(parts)\n"
    )
    assert sorted({where.split(": ")[0] for where in process_hacks(sample, tmp_path)}) == [
        f"sample.py:{line}" for line in (2, 3, 4, 5, 6, 7, 8)
    ]
