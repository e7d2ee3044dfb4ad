"""`orkestra init` reads what a real repository says about itself: its own test/lint/build commands,
the framework it is (or is built on), its real source packages, hub files and entry points, and
the version and authors from every field its ecosystem uses. Each case is a real git repository
shaped like a public project (flask, requests, xarray, an npm package, a Go module)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from clirun import run_cli
from conftest import git

from orkestra.init import init_workspace
from orkestra.project_info import inspect_project, read_manifest


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def commit(root: Path, tag: str = "") -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", "initial")
    if tag:
        git(root, "tag", tag)


def agent(root: Path, name: str) -> dict:
    return yaml.safe_load((root / f"registries/agents/{name}.yaml").read_text())


def truths(root: Path) -> list[str]:
    doc = yaml.safe_load((root / "ai_assets/reference/ground_truths.yaml").read_text())
    return [s["statement"] for s in doc["statements"]]


def flask_like(root: Path) -> Path:
    return write(
        root,
        {
            "pyproject.toml": '[project]\nname = "Flask"\ndescription = "A web framework."\n'
            'dynamic = ["version"]\nmaintainers = [{name = "Pallets", email = "contact@palletsprojects.com"}]\n'
            'dependencies = ["Werkzeug>=3.1", "Jinja2>=3.1", "click>=8.1"]\n'
            '[project.scripts]\nflask = "flask.cli:main"\n'
            '[build-system]\nrequires = ["flit_core<4"]\nbuild-backend = "flit_core.buildapi"\n',
            "src/flask/__init__.py": '__version__ = "3.1.0"\nfrom .app import Flask\n',
            "src/flask/__main__.py": "from .cli import main\nmain()\n",
            "src/flask/cli.py": "from .globals import current_app\n\ndef main():\n    pass\n",
            "src/flask/globals.py": "current_app = None\n",
            "src/flask/app.py": "from .globals import current_app\nfrom . import helpers\n",
            "src/flask/helpers.py": "from flask.globals import current_app\n",
            "src/flask/ctx.py": "from .globals import current_app\n",
            "tests/conftest.py": "",
            "tests/test_app.py": "def test_app():\n    pass\n",
        },
    )


def test_flask_maintainers_dynamic_version_and_the_framework_reach_the_agents(git_repo: Path, tmp_path: Path):
    root = flask_like(git_repo)
    commit(root)
    info = read_manifest(root)
    assert (info.version, info.authors) == ("3.1.0", ("Pallets",))  # was ("", ()): plugin 0.0.0, no author
    result = init_workspace(root)
    assert "flask-specialist" in result.agents
    python = agent(root, "python-specialist")
    assert "Flask" in python["description"]
    assert "Werkzeug" in python["description"]
    assert "`src/flask/globals.py`" in python["instructions"]  # imported by four modules: the hub
    assert "`src/flask/__main__.py`" in python["instructions"]
    assert "`src/flask/cli.py`" in python["instructions"]
    assert "`src/flask`" in python["instructions"]
    flask = agent(root, "flask-specialist")
    assert "this is Flask itself" in flask["description"]
    assert "src/flask/globals.py" in flask["instructions"]
    for name in ("code-reviewer", "debugger", "test-engineer"):
        assert "src/flask/globals.py" in agent(root, name)["instructions"]
    assert "Flask: this is Flask itself, built on Werkzeug, Jinja and Click." in truths(root)
    assert list(result.project["packages"]) == ["src/flask"]
    out = tmp_path / "market"
    assert run_cli("sync", cwd=root).returncode == 0
    build = run_cli("plugin", "build", "--out", str(out), cwd=root)
    assert build.returncode == 0, build.stderr
    manifest = json.loads((out / "plugins/flask/.claude-plugin/plugin.json").read_text())
    assert manifest["version"] == "3.1.0"
    assert manifest["author"] == {"name": "Pallets"}


def test_requests_setup_py_is_read_never_run_and_version_comes_from_the_version_module(git_repo: Path):
    marker = git_repo.parent / "setup-py-ran"
    root = write(
        git_repo,
        {
            "setup.py": "import os\n"
            f"open({str(marker)!r}, 'w').write('ran')\n"
            "about = {}\n"
            "with open(os.path.join('requests', '__version__.py')) as f:\n"
            "    exec(f.read(), about)\n"
            "setup(name='requests', version=about['__version__'], author='Kenneth Reitz',\n"
            "      maintainer='Nate Prewitt', description='Python HTTP for Humans.',\n"
            "      packages=['requests'], install_requires=['urllib3>=1.21', 'idna'])\n",
            "requests/__init__.py": "from .api import get\nfrom .models import Response\n",
            "requests/__version__.py": '__title__ = "requests"\n__version__ = "2.32.3"\n',
            "requests/api.py": "from . import sessions\nfrom .models import Response\n",
            "requests/sessions.py": "from .models import Response\n",
            "requests/models.py": "class Response:\n    pass\n",
            "Makefile": "init:\n\tpip install -r requirements.txt\ntest:\n\tpython -m pytest tests\n",
            "tests/test_requests.py": "def test_get():\n    pass\n",
            "tox.ini": "[tox]\nenvlist = py3\n[testenv]\ncommands = pytest tests\n",
        },
    )
    commit(root)
    info = inspect_project(root)
    assert not marker.exists()  # setup.py parsed with ast, never executed
    assert (info.name, info.version, info.authors) == (
        "requests",
        "2.32.3",
        ("Kenneth Reitz", "Nate Prewitt"),
    )
    assert info.manifest == "setup.py"
    assert info.packages == ("requests",)
    assert info.hubs[0] == "requests/models.py"
    assert (info.test_command, info.command_sources["test"]) == ("make test", "Makefile")
    init_workspace(root)
    assert "Tests run with `make test`." in truths(root)
    assert "`make test`" in agent(root, "test-engineer")["instructions"]


def test_xarray_layout_claude_md_command_and_scm_version(git_repo: Path):
    root = write(
        git_repo,
        {
            "pyproject.toml": '[project]\nname = "xarray"\ndynamic = ["version"]\n'
            'authors = [{ name = "xarray Developers", email = "xarray@googlegroups.com" }]\n'
            'dependencies = ["numpy>=1.26", "pandas>=2.2"]\n'
            '[build-system]\nrequires = ["setuptools>=80", "setuptools-scm>=10"]\n'
            '[tool.setuptools.packages.find]\ninclude = ["xarray*"]\n'
            '[tool.pytest.ini_options]\naddopts = ["--strict-markers"]\n',
            "CLAUDE.md": "# xarray development setup\n\n## Setup\n\n```bash\nuv sync\n```\n\n"
            "## Run tests\n\n```bash\nuv run pytest xarray -n auto  # All tests in parallel\n"
            "uv run pytest xarray/tests/test_dataarray.py  # Specific file\n```\n\n"
            "## Linting & type checking\n\n```bash\npre-commit run --all-files  # Includes ruff\n```\n",
            "conftest.py": "",
            "xarray/__init__.py": "from xarray.core.dataset import Dataset\n",
            "xarray/core/__init__.py": "",
            "xarray/core/dataset.py": "from xarray.core import utils\n",
            "xarray/core/dataarray.py": "from xarray.core import utils\nfrom xarray.core.dataset import Dataset\n",
            "xarray/core/utils.py": "def f():\n    pass\n",
            "xarray/tests/__init__.py": "",
            "properties/__init__.py": "",
            "properties/conftest.py": "",
            "properties/test_properties.py": "def test_x():\n    pass\n",
            "asv_bench/__init__.py": "",
            "asv_bench/benchmarks.py": "def time_x():\n    pass\n",
            "ci/__init__.py": "",
            "ci/min_deps_check.py": "print(1)\n",
        },
    )
    commit(root, "v2025.01.2")
    result = init_workspace(root)
    info = json.loads(json.dumps(result.project))
    assert info["packages"] == ["xarray"]  # not properties/, asv_bench/ or ci/
    assert (info["version"], info["authors"]) == ("2025.01.2", ["xarray Developers"])
    assert (
        info["test_command"] == "uv run pytest xarray -n auto"
    )  # the repository's own, not python -m pytest
    assert info["test_evidence"] == ["CLAUDE.md"]
    assert info["lint_command"] == "pre-commit run --all-files"
    assert "Tests run with `uv run pytest xarray -n auto`." in truths(root)
    tester = agent(root, "test-engineer")
    assert "`uv run pytest xarray -n auto` (as CLAUDE.md says)" in tester["instructions"]
    assert "xarray/core/utils.py" in tester["instructions"]
    assert "NumPy and pandas" in agent(root, "python-specialist")["description"]
    registry = yaml.safe_load((root / "ai_assets/reference/decisions/registry.yaml").read_text())
    assert set(registry["domains"]) == {"xarray"}


def test_undeclared_test_folders_are_not_packages(git_repo: Path):
    root = write(
        git_repo,
        {
            "pyproject.toml": '[project]\nname = "thing"\nversion = "1.0"\n',
            "engine/__init__.py": "",
            "engine/core.py": "x = 1\n",
            "properties/__init__.py": "",
            "properties/test_roundtrip.py": "def test_x():\n    pass\n",
        },
    )
    assert inspect_project(root).packages == ("engine",)


def test_package_json_scripts_contributors_and_react(git_repo: Path):
    root = write(
        git_repo,
        {
            "package.json": json.dumps(
                {
                    "name": "widget-board",
                    "version": "0.9.1",
                    "author": {"name": "Ada Lovelace", "email": "ada@example.org"},
                    "contributors": [
                        "Grace Hopper <grace@example.org> (https://example.org)",
                        {"name": "Alan"},
                    ],
                    "maintainers": ["Linus"],
                    "main": "src/index.js",
                    "scripts": {"test": "vitest run", "lint": "eslint .", "build": "vite build"},
                    "dependencies": {"react": "^19.0.0", "react-dom": "^19.0.0"},
                }
            ),
            "pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
            "src/index.js": "import { App } from './app.js'\nimport { api } from './lib/api.js'\n",
            "src/app.js": "import { api } from './lib/api.js'\nimport { fmt } from './lib/format.js'\n",
            "src/lib/api.js": "import { fmt } from './format.js'\nexport const api = 1\n",
            "src/lib/format.js": "export const fmt = 1\n",
            ".github/workflows/ci.yml": "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
            "    steps:\n      - run: pnpm install --frozen-lockfile\n      - run: |\n          pnpm test\n",
        },
    )
    commit(root)
    result = init_workspace(root)
    info = json.loads(json.dumps(result.project))
    assert info["authors"] == ["Ada Lovelace", "Grace Hopper", "Alan", "Linus"]
    assert (info["test_command"], info["lint_command"], info["build_command"]) == (
        "pnpm test",
        "pnpm run lint",
        "pnpm run build",
    )
    assert info["frameworks"] == ["React"]
    assert "react-specialist" in result.agents
    specialist = agent(root, "javascript-specialist")
    assert "built on React" in specialist["description"]
    assert "`src/lib/api.js`" in specialist["instructions"]
    assert "`src/index.js`" in specialist["instructions"]
    assert "`pnpm run build`" in agent(root, "ci-maintainer")["instructions"]


def test_go_module_path_tag_version_cobra_and_make_lint(git_repo: Path):
    root = write(
        git_repo,
        {
            "go.mod": "module github.com/acme/shipit\n\ngo 1.22\n\nrequire (\n"
            "\tgithub.com/spf13/cobra v1.8.0\n\tgithub.com/spf13/pflag v1.0.5\n)\n",
            "cmd/shipit/main.go": 'package main\n\nimport "github.com/acme/shipit/internal/deploy"\n\n'
            "func main() { deploy.Run() }\n",
            "internal/deploy/deploy.go": "package deploy\n\n" + "// Run deploys.\nfunc Run() {}\n" * 20,
            "internal/deploy/deploy_test.go": "package deploy\n",
            "Makefile": "lint:\n\tgolangci-lint run\n\ntest:\n\tgo test ./...\n",
        },
    )
    commit(root, "v1.4.0")
    result = init_workspace(root)
    info = json.loads(json.dumps(result.project))
    assert (info["name"], info["module"], info["version"]) == ("shipit", "github.com/acme/shipit", "1.4.0")
    assert info["frameworks"] == ["cobra"]
    assert "cobra-specialist" in result.agents
    assert (info["test_command"], info["lint_command"]) == ("make test", "make lint")
    go = agent(root, "go-specialist")
    assert "built on cobra" in go["description"]
    assert "`cmd/shipit/main.go`" in go["instructions"]
    assert "`internal/deploy/deploy.go`" in go["instructions"]


def test_hub_files_come_from_the_maguyva_index_when_there_is_one(git_repo: Path):
    root = flask_like(git_repo)
    commit(root)
    assert inspect_project(root).hubs_from == "scan"
    indexed = run_cli("code", "index", cwd=root)
    assert indexed.returncode == 0, indexed.stderr
    info = inspect_project(root)
    assert info.hubs_from == "maguyva index"
    assert info.hubs
    assert all(h.startswith("src/flask/") for h in info.hubs)
    init_workspace(root)
    assert "from the Maguyva index" in agent(root, "python-specialist")["instructions"]


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {"pyproject.toml": '[project]\nname = "shop"\ndependencies = ["Django>=5", "celery"]\n'},
            ["Django", "Celery"],
        ),
        (
            {"pyproject.toml": '[project]\nname = "api"\ndependencies = ["fastapi", "pydantic>=2"]\n'},
            ["FastAPI", "Pydantic"],
        ),
        (
            {
                "pyproject.toml": '[project]\nname = "pytest-slow"\ndependencies = ["pytest>=8"]\n'
                '[project.entry-points.pytest11]\nslow = "pytest_slow.plugin"\n'
            },
            ["pytest plugin"],
        ),
        (
            {
                "pyproject.toml": '[tool.poetry]\nname = "cli"\nversion = "0.1.0"\n'
                'authors = ["Ann <ann@example.org>"]\n[tool.poetry.dependencies]\npython = "^3.11"\ntyper = "*"\n'
            },
            ["Typer"],
        ),
        (
            {
                "Cargo.toml": '[package]\nname = "srv"\nversion = "0.3.0"\n[dependencies]\naxum = "0.7"\ntokio = "1"\n'
            },
            ["axum", "Tokio"],
        ),
        ({"package.json": '{"name": "web", "dependencies": {"express": "^5"}}'}, ["Express"]),
    ],
    ids=["django", "fastapi", "pytest-plugin", "poetry-typer", "cargo-axum", "express-app"],
)
def test_the_framework_comes_from_the_dependencies(git_repo: Path, files: dict, expected: list[str]):
    assert list(inspect_project(write(git_repo, files)).frameworks) == expected


def test_setup_cfg_attr_version_and_authors(git_repo: Path):
    root = write(
        git_repo,
        {
            "setup.cfg": "[metadata]\nname = legacy\nversion = attr: legacy.__version__\n"
            "author = Old Timer\nmaintainer = New Keeper\n[options]\npackages = legacy\n",
            "legacy/__init__.py": "__version__ = '0.8.2'\n",
        },
    )
    info = read_manifest(root)
    assert (info.name, info.version, info.authors) == ("legacy", "0.8.2", ("Old Timer", "New Keeper"))
    assert inspect_project(root).packages == ("legacy",)


def test_contributing_rst_code_blocks_give_the_commands(git_repo: Path):
    root = write(
        git_repo,
        {
            "setup.cfg": "[metadata]\nname = rsty\nversion = 1.0\n",
            "rsty/__init__.py": "",
            "tests/conftest.py": "",
            "CONTRIBUTING.rst": "Contributing\n============\n\nRun the tests:\n\n.. code-block:: console\n\n"
            "    $ nox -s tests-3.12\n\nCheck the style with ``ruff check src`` and build with::\n\n"
            "    hatch build\n\nThat is all.\n",
        },
    )
    info = inspect_project(root)
    assert (info.test_command, info.lint_command, info.build_command) == (
        "nox -s tests-3.12",
        "ruff check src",
        "hatch build",
    )
    assert info.command_sources == {
        "test": "CONTRIBUTING.rst",
        "lint": "CONTRIBUTING.rst",
        "build": "CONTRIBUTING.rst",
    }
