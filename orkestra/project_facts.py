"""What a repository states about how it is worked on: its own test, lint and build commands, the
frameworks it is built on (or is), and the hub files and entry points a specialist starts from.

Reads only, through ``project_files.read_project_file`` (size-capped, never waits on a FIFO); nothing
the repository ships is executed (``setup.py`` is parsed with ``ast``). Commands are taken in the
order a contributor would trust them: the instructions written for people and agents (CLAUDE.md,
AGENTS.md, CONTRIBUTING), then task runners (Makefile targets, package.json scripts, hatch/pdm/poe
scripts in pyproject.toml, tox/nox), then the ``run:`` steps of CI workflows.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from orkestra.project_files import (
    dig,
    literal,
    load_manifest,
    package_script,
    read_inside,
    read_project_file,
    setup_calls,
)

INSTRUCTION_FILES = (
    "CLAUDE.md",
    "AGENTS.md",
    ".claude/CLAUDE.md",
    "CONTRIBUTING.md",
    "CONTRIBUTING.rst",
    ".github/CONTRIBUTING.md",
    "docs/CONTRIBUTING.md",
    "docs/contributing.md",
    "docs/contributing.rst",
    "doc/contributing.rst",
    "DEVELOPERS.md",
    "HACKING.md",
)
_KINDS = {
    "test": re.compile(
        r"(?:^|[\s/])(?:pytest|py\.test|tox|nox|unittest|hatch test|go test|cargo test|cargo nextest|"
        r"(?:npm|yarn|pnpm|bun)(?: run)? test(?::\S+)?|vitest|jest|mocha|make (?:test|check)|"
        r"ctest|phpunit|rspec|gradle test|mvn test)(?:\s|$)"
    ),
    "lint": re.compile(
        r"(?:^|[\s/])(?:ruff(?: check)?|flake8|pylint|mypy|dmypy|pyright|pre-commit|prek|eslint|biome|"
        r"golangci-lint|go vet|cargo clippy|(?:npm|yarn|pnpm|bun) run (?:lint|typecheck)\S*|"
        r"make (?:lint|check-style|style))(?:\s|$)"
    ),
    "build": re.compile(
        r"(?:^|[\s/])(?:python -m build|uv build|hatch build|poetry build|pdm build|flit build|"
        r"go build|cargo build|(?:npm|yarn|pnpm|bun) run build\S*|make (?:build|dist|all))(?:\s|$)"
    ),
}
_PROMPT = re.compile(r"^\s*(?:\$|>>>|%|#)\s+")
_SHELL_START = re.compile(r"^[A-Za-z0-9_./-]+(?:\s|$)")
MAX_COMMAND = 160
_INSTALL = re.compile(r"(?:^|\s)(?:install|ci|sync|add|get|setup)(?:\s|$)|^(?:sudo|apt|apt-get|brew)\s")


@dataclass(frozen=True)
class Command:
    command: str
    source: str  # the repo-relative file it was read from


def stated_commands(root: Path) -> dict[str, Command]:
    """{"test"|"lint"|"build": Command} as the repository states them; kinds not found are absent."""
    found: dict[str, Command] = {}
    for source, lines in _sources(root):
        for line in lines:
            for kind, pattern in _KINDS.items():
                if kind not in found and pattern.search(f" {line} "):
                    found[kind] = Command(line, source)
        if len(found) == len(_KINDS):
            break
    return found


def _sources(root: Path):
    """(file, candidate command lines) in order of trust."""
    for rel in INSTRUCTION_FILES:
        text = read_project_file(root, rel)
        if text:
            yield rel, _doc_commands(text[:200_000])
    text = read_project_file(root, "package.json")
    if text:
        yield "package.json", _npm_scripts(root, text)
    text = read_project_file(root, "Makefile")
    if text:
        yield "Makefile", _make_targets(text[:200_000])
    text = read_project_file(root, "pyproject.toml")
    if text:
        yield "pyproject.toml", _pyproject_scripts(text)
    for rel, command in (("tox.ini", "tox"), ("noxfile.py", "nox")):
        if (root / rel).is_file():
            yield rel, [command]
    workflows = root / ".github" / "workflows"
    if workflows.is_dir():
        for path in sorted(workflows.iterdir())[:50]:
            if path.suffix in (".yml", ".yaml"):
                text = read_project_file(workflows, path.name)
                if text:
                    yield f".github/workflows/{path.name}", _run_steps(text[:200_000])
    for rel in (".gitlab-ci.yml", ".circleci/config.yml"):
        text = read_project_file(root, rel)
        if text:
            yield rel, _run_steps(text[:200_000])


def _clean(line: str) -> str:
    """A shell line without its prompt and trailing comment; "" when it is not a plain command."""
    line = _PROMPT.sub("", line.strip())
    line = re.sub(r"\s+#.*$", "", line).strip().rstrip("\\").strip()
    if not line or len(line) > MAX_COMMAND or "${{" in line or not _SHELL_START.match(line):
        return ""
    if _INSTALL.search(line):
        return ""  # installing a tool is not running it
    return line


def _doc_commands(text: str) -> list[str]:
    """Lines of fenced/indented code blocks and inline ``code`` spans of Markdown or reStructuredText."""
    lines: list[str] = []
    fence = ""
    literal = False  # inside an rst ``::`` / ``.. code-block::`` indented block
    for raw in text.splitlines():
        stripped = raw.strip()
        if fence:
            if stripped.startswith(fence):
                fence = ""
            else:
                lines.append(_clean(raw))
            continue
        match = re.match(r"^\s*(```+|~~~+)", raw)
        if match:
            fence = match.group(1)
            continue
        if literal:
            if stripped and not raw[:1].isspace():
                literal = False
            elif stripped:
                lines.append(_clean(raw))
                continue
        for span in re.findall(r"``?([^`\n]{2,160})``?", raw):
            lines.append(_clean(span))
        if stripped.endswith("::") or re.match(r"\.\. (?:code-block|code|sourcecode|prompt)::", stripped):
            literal = True
    return [line for line in lines if line]


def _npm_scripts(root: Path, text: str) -> list[str]:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return []
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if not isinstance(scripts, dict):
        return []
    return [
        package_script(root, name)
        for name in ("test", "lint", "build", "typecheck")
        if isinstance(scripts.get(name), str)
    ]


def _make_targets(text: str) -> list[str]:
    targets = set(re.findall(r"^([A-Za-z][\w.-]*)\s*:(?!=)", text, re.MULTILINE))
    return [f"make {t}" for t in ("test", "check", "lint", "style", "build", "dist") if t in targets]


def _pyproject_scripts(text: str) -> list[str]:
    """Task runner scripts: hatch env scripts, pdm scripts, poe tasks, and a pyproject tox config."""
    try:
        tool = tomllib.loads(text).get("tool")
    except (ValueError, RecursionError):
        return []
    tool = tool if isinstance(tool, dict) else {}
    found = []
    hatch_envs = dig(tool, "hatch", "envs")
    for env, conf in hatch_envs.items() if isinstance(hatch_envs, dict) else ():
        scripts = conf.get("scripts") if isinstance(conf, dict) else None
        for name in scripts if isinstance(scripts, dict) else ():
            prefix = "hatch run" if env == "default" else f"hatch run {env}:"
            found.append(f"{prefix} {name}" if env == "default" else f"{prefix}{name}")
    for key, runner in (("pdm", "pdm run"), ("poe", "poe")):
        tasks = dig(tool, key, "scripts" if key == "pdm" else "tasks")
        for name in tasks if isinstance(tasks, dict) else ():
            found.append(f"{runner} {name}")
    found = [f for f in found if re.search(r"\b(test|lint|check|build|style|typing)\b", f)]
    if isinstance(tool.get("tox"), dict):
        found.append("tox")
    return found


def _run_steps(text: str) -> list[str]:
    """The shell lines of ``run:`` steps (one-line and block forms) of a CI YAML file."""
    lines: list[str] = []
    block_indent = -1
    for raw in text.splitlines():
        indent = len(raw) - len(raw.lstrip())
        if block_indent >= 0:
            if raw.strip() and indent <= block_indent:
                block_indent = -1
            else:
                lines.append(_clean(raw))
                continue
        match = re.match(r"^(\s*)(?:-\s+)?(?:run|script):\s*(.*)$", raw)
        if not match:
            continue
        value = match.group(2).strip()
        if value in ("|", ">", "|-", ">-", "") or value.startswith(("| ", "> ")):
            block_indent = len(match.group(1))
        else:
            lines.append(_clean(value.strip("'\"")))
    return [line for line in lines if line]


# ---- frameworks ------------------------------------------------------------------------------

FRAMEWORKS = {
    # Python distributions (normalised names)
    "flask": "Flask",
    "django": "Django",
    "fastapi": "FastAPI",
    "starlette": "Starlette",
    "pyramid": "Pyramid",
    "tornado": "Tornado",
    "aiohttp": "aiohttp",
    "sanic": "Sanic",
    "quart": "Quart",
    "litestar": "Litestar",
    "werkzeug": "Werkzeug",
    "jinja2": "Jinja",
    "click": "Click",
    "typer": "Typer",
    "sqlalchemy": "SQLAlchemy",
    "pydantic": "Pydantic",
    "celery": "Celery",
    "numpy": "NumPy",
    "pandas": "pandas",
    "torch": "PyTorch",
    "tensorflow": "TensorFlow",
    "astroid": "astroid",
    "scrapy": "Scrapy",
    "streamlit": "Streamlit",
    "pytest": "pytest",
    # JavaScript packages
    "react": "React",
    "next": "Next.js",
    "vue": "Vue",
    "nuxt": "Nuxt",
    "svelte": "Svelte",
    "@angular/core": "Angular",
    "express": "Express",
    "koa": "Koa",
    "fastify": "Fastify",
    "@nestjs/core": "NestJS",
    "hono": "Hono",
    "electron": "Electron",
    # Go modules
    "github.com/spf13/cobra": "cobra",
    "github.com/gin-gonic/gin": "Gin",
    "github.com/labstack/echo": "Echo",
    "github.com/gofiber/fiber": "Fiber",
    "github.com/gorilla/mux": "gorilla/mux",
    "github.com/urfave/cli": "urfave/cli",
    "google.golang.org/grpc": "gRPC",
    # Rust crates
    "tokio": "Tokio",
    "actix-web": "Actix Web",
    "axum": "axum",
    "rocket": "Rocket",
    "clap": "clap",
    "serde": "Serde",
    "bevy": "Bevy",
}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name.strip().lower())


def _requirement_name(spec: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9@][A-Za-z0-9._/@-]*)", spec)
    return _norm(match.group(1)) if match else ""


def dependencies(root: Path) -> list[str]:
    """Runtime dependency names the manifests declare (normalised), first manifest first."""
    names: list[str] = []
    data = load_manifest(root, "pyproject.toml")
    deps = dig(data, "project", "dependencies")
    names += [_requirement_name(d) for d in deps if isinstance(d, str)] if isinstance(deps, list) else []
    poetry = dig(data, "tool", "poetry", "dependencies")
    names += [_norm(n) for n in poetry if n != "python"] if isinstance(poetry, dict) else []
    for call in setup_calls(root):
        for kw in call.keywords:
            if kw.arg == "install_requires":
                value = literal(kw.value)
                if isinstance(value, list):
                    names += [_requirement_name(d) for d in value if isinstance(d, str)]
    text = read_project_file(root, "setup.cfg")
    if text:
        match = re.search(r"^install_requires\s*=\s*\n((?:[ \t]+\S.*\n?)+)", text, re.MULTILINE)
        if match:
            names += [_requirement_name(line) for line in match.group(1).splitlines() if line.strip()]
    data = load_manifest(root, "package.json")
    for key in ("dependencies", "peerDependencies", "devDependencies"):
        table = data.get(key) if isinstance(data, dict) else None
        names += [n.lower() for n in table] if isinstance(table, dict) else []
    text = read_project_file(root, "go.mod")
    if text:
        names += [
            m.lower() for m in re.findall(r"^\s*(?:require\s+)?([a-z0-9.-]+\.[a-z]+/\S+)\s+v", text, re.M)
        ]
    deps = load_manifest(root, "Cargo.toml").get("dependencies")
    names += [_norm(n) for n in deps] if isinstance(deps, dict) else []
    return [n for n in dict.fromkeys(names) if n]


def frameworks(root: Path, name: str, module: str = "", *, is_pytest_plugin: bool = False) -> list[str]:
    """The frameworks the project is (its own name first) or is built on, most telling first."""
    found: list[str] = []
    for own in (module.lower(), _norm(name)):
        if own in FRAMEWORKS:
            found.append(FRAMEWORKS[own])
    if is_pytest_plugin or _norm(name).startswith("pytest-"):
        found.append("pytest plugin")
    for dep in dependencies(root):
        key = dep if dep in FRAMEWORKS else re.sub(r"/v\d+$", "", dep)
        if key in FRAMEWORKS and (key != "pytest" or not found):
            found.append(FRAMEWORKS[key])
    return list(dict.fromkeys(found))[:5]


# ---- hubs and entry points -------------------------------------------------------------------


MAX_SCANNED = 3000  # source files read for imports when there is no index
_SOURCE_SUFFIXES = (".py", ".js", ".mjs", ".cjs", ".ts", ".go", ".rs")
_SKIP_DIRS = {"node_modules", "__pycache__", "vendor", "target", "dist", "build", "testdata"}


@dataclass(frozen=True)
class Hubs:
    hubs: tuple[str, ...] = ()
    entry_points: tuple[str, ...] = ()
    source: str = ""  # "maguyva index" or "scan"


def hubs(root: Path, packages: tuple[str, ...], scripts: tuple[str, ...] = (), limit: int = 6) -> Hubs:
    """The most central files and the entry points: from the Maguyva index when one exists, else a scan."""
    indexed = _indexed_hubs(root, packages, limit)
    if indexed.hubs:
        return indexed
    return _scanned_hubs(root, packages, scripts, limit)


def _inside(path: str, packages: tuple[str, ...]) -> bool:
    return not packages or any(path == p or path.startswith(p.rstrip("/") + "/") for p in packages)


def _indexed_hubs(root: Path, packages: tuple[str, ...], limit: int) -> Hubs:
    try:
        from maguyva.api import Maguyva
        from maguyva.errors import MaguyvaError
        from maguyva.store.location import locating

        _, location = locating(root, None)()
        if not isinstance(location, Path) or not location.exists():
            return Hubs()
        api = Maguyva.open(root)
        try:
            overview = api.repo_overview(hubs=limit * 4)
        finally:
            api.close()
    except (MaguyvaError, OSError, ValueError, ImportError):
        return Hubs()
    central = [h.path for h in overview.hub_files if _inside(h.path, packages) and not _is_test(h.path)]
    entries = [
        p
        for p in overview.entry_points
        if p.endswith((".py", ".js", ".ts", ".go", ".rs"))
        and not _is_test(p)
        and p.rsplit("/", 1)[-1] not in ("setup.py", "noxfile.py", "conftest.py")
        and p.split("/", 1)[0] not in ("docs", "doc", "examples", "example", "scripts", "bench", "benchmarks")
    ]
    return Hubs(tuple(central[:limit]), tuple(entries[:limit]), "maguyva index")


def _is_test(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return (
        "/tests/" in f"/{path}"
        or "/test/" in f"/{path}"
        or name.startswith(("test_", "conftest"))
        or name.endswith(("_test.go", "_test.py", ".test.js", ".test.ts", ".spec.js", ".spec.ts"))
    )


def _scanned_hubs(root: Path, packages: tuple[str, ...], scripts: tuple[str, ...], limit: int) -> Hubs:
    """Entry points (``__main__.py``, console scripts, ``main``/``bin``, ``main.go``, ``src/main.rs``) and
    the files most imported by the others, counted over at most 3,000 files."""

    entries: list[str] = [rel for rel in _package_json_entries(root) if _is_file(root / rel)]
    for rel in ("main.go", "src/main.rs", "src/lib.rs", "index.js", "index.ts"):
        if (root / rel).is_file():
            entries.append(rel)
    for script in scripts:  # "pkg.cli:main" -> pkg/cli.py
        module = script.split(":", 1)[0].strip().replace(".", "/")
        for base in ("", "src/"):
            for candidate in (f"{base}{module}.py", f"{base}{module}/__init__.py"):
                if _is_file(root / candidate):
                    entries.append(candidate)
                    break
    from orkestra.fs.scan import walk_tree

    counts: Counter[str] = Counter()
    files: list[str] = []
    for package in packages or (".",):
        base = root / package
        try:
            if not base.is_dir() or not base.resolve().is_relative_to(root.resolve()):
                continue
        except (OSError, RuntimeError):
            continue
        for folder, dirs, names in walk_tree(base):  # the one walker: no recursion, no links, PATH_MAX
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
            for name in sorted(names):
                rel = Path(folder, name).relative_to(root).as_posix()
                if Path(name).suffix in _SOURCE_SUFFIXES and not _is_test(rel) and len(files) < MAX_SCANNED:
                    files.append(rel)
    known = set(files)
    modules = {_module_of(rel): rel for rel in files if rel.endswith(".py")}
    for rel in files:
        name = rel.rsplit("/", 1)[-1]
        if name in ("__main__.py", "main.go", "main.rs", "cli.py") or (
            rel in ("index.js", "index.ts", "src/index.ts", "src/index.js")
        ):
            entries.append(rel)
        text = read_inside(root, rel) or ""
        if rel.endswith(".py"):
            own = _module_of(rel)
            package = own if rel.endswith("__init__.py") else own.rpartition(".")[0]
            for target in _python_imports(text, package):
                hit = modules.get(target) or modules.get(target.rsplit(".", 1)[0])
                if hit and hit != rel:
                    counts[hit] += 1
        elif rel.endswith((".js", ".mjs", ".cjs", ".ts")):
            for target in re.findall(r"(?:require\(|from\s+|import\s+)['\"](\.{1,2}/[^'\"]+)['\"]", text):
                resolved = _resolve_js(rel, target, known)
                if resolved and resolved != rel:
                    counts[resolved] += 1
    if not counts:  # Go and Rust: the largest non-test source files of the packages
        sizes = {rel: _size(root / rel) for rel in files if rel.endswith((".go", ".rs"))}
        counts = Counter(sizes)
    central = [rel for rel, _ in counts.most_common() if not rel.endswith("/__init__.py")][:limit]
    return Hubs(tuple(central), tuple(dict.fromkeys(entries))[:limit], "scan")


def _is_file(path: Path) -> bool:
    """A regular file, not a link; False for a name too long for the system or any other OSError."""
    try:
        return path.is_file() and not path.is_symlink()
    except OSError:
        return False


def _size(path: Path) -> int:
    try:
        return path.lstat().st_size
    except OSError:
        return 0


def _package_json_entries(root: Path) -> list[str]:
    """package.json ``main`` and ``bin`` files."""
    data = load_manifest(root, "package.json")
    if not isinstance(data, dict):
        return []
    found = [data.get("main")]
    binaries = data.get("bin")
    found += list(binaries.values()) if isinstance(binaries, dict) else [binaries]
    return [
        f.removeprefix("./")
        for f in found
        if isinstance(f, str) and f and ".." not in f.split("/") and not f.startswith("/")
    ]


def _module_of(rel: str) -> str:
    rel = rel[4:] if rel.startswith("src/") else rel
    rel = rel[: -len("/__init__.py")] if rel.endswith("/__init__.py") else rel.removesuffix(".py")
    return rel.replace("/", ".")


def _python_imports(text: str, package: str) -> list[str]:
    found = []
    for dots, module, names in re.findall(
        r"^\s*from\s+(\.*)([\w.]*)\s+import\s+\(?([\w ,]+)", text[:400_000], re.MULTILINE
    ):
        if dots:
            parts = package.split(".") if package else []
            base = ".".join(parts[: len(parts) - (len(dots) - 1)] if len(dots) > 1 else parts)
            module = f"{base}.{module}".strip(".") if module else base
        for name in names.split(","):
            name = name.strip().split(" ")[0]
            found.append(f"{module}.{name}" if name else module)
    found += re.findall(r"^\s*import\s+([\w.]+)", text[:400_000], re.MULTILINE)
    return found


def _resolve_js(rel: str, target: str, known: set[str]) -> str:
    parts = rel.split("/")[:-1]
    for piece in target.split("/"):
        if piece == "..":
            parts = parts[:-1]
        elif piece not in (".", ""):
            parts.append(piece)
    base = "/".join(parts)
    for candidate in (
        base,
        *(base + ext for ext in (".js", ".ts", ".mjs", ".cjs", "/index.js", "/index.ts")),
    ):
        if candidate in known:
            return candidate
    return ""
