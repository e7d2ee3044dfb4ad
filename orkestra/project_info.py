"""What a repository says about itself: name, description, version (pyproject.toml, package.json,
Cargo.toml, go.mod), and what ``orkestra init`` can see: languages, top-level packages, test and CI
commands. Reads only; languages come from Maguyva's scanner (ignore files honoured, no index).
"""

from __future__ import annotations

import json
import re
import tomllib
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from orkestra.project_files import dig, load_manifest, package_script, read_project_file, setup_py, version_in

PROJECT_FILES = ("pyproject.toml", "package.json", "Cargo.toml", "go.mod", "setup.cfg", "setup.py")
MAX_FILES = 20_000  # languages are counted on at most this many scanned files
CODE_LANGUAGES = {
    "python",
    "javascript",
    "typescript",
    "tsx",
    "rust",
    "go",
    "java",
    "kotlin",
    "scala",
    "ruby",
    "c",
    "cpp",
    "c_sharp",
    "php",
    "swift",
}
_NOT_PACKAGES = {
    "tests",
    "test",
    "docs",
    "doc",
    "examples",
    "example",
    "scripts",
    "bench",
    "benchmarks",
    "build",
    "dist",
    "node_modules",
    "vendor",
    "registries",
    "templates",
    "ai_assets",
    "site",
    "target",
}


@dataclass(frozen=True)
class ProjectInfo:
    name: str
    description: str = ""
    version: str = ""
    authors: tuple[str, ...] = ()
    manifest: str = ""  # the file name/description came from ("" when guessed from the folder)
    languages: tuple[str, ...] = ()  # most files first
    packages: tuple[str, ...] = ()  # top-level source packages (repo-relative folders)
    test_command: str = ""
    test_evidence: tuple[str, ...] = ()  # files that show how tests run
    ci: tuple[str, ...] = ()  # CI definition files
    extra: dict = field(default_factory=dict)
    module: str = ""  # the Go module path, or the import name when it differs from the project name
    frameworks: tuple[str, ...] = ()  # what the project is or is built on: Flask, Django, React, cobra ...
    lint_command: str = ""
    build_command: str = ""
    command_sources: dict = field(default_factory=dict)  # {"test"|"lint"|"build": file it was read from}
    hubs: tuple[str, ...] = ()  # the most central source files
    entry_points: tuple[str, ...] = ()
    hubs_from: str = ""  # "maguyva index" or "scan"

    def to_dict(self) -> dict:
        return asdict(self)


def _kebab(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "project"


def _text(value: object) -> str:
    """A manifest value as text that can be written out: lone surrogates (``"\\ud800"`` in JSON, which
    UTF-8 cannot encode) become U+FFFD; lists, tables and null are not text."""
    if isinstance(value, (dict, list)) or value is None:
        return ""
    return _SURROGATES.sub("\ufffd", str(value))


_SURROGATES = re.compile("[\ud800-\udfff]")


def read_manifest(root: Path) -> ProjectInfo:
    """Name, description, version and authors from the project files; folder name otherwise.

    The first file that names the project gives the name; a version or authors it leaves out are
    taken from the next files and from where the ecosystem keeps them: PEP 621 ``authors`` and
    ``maintainers``, a ``dynamic`` version (setuptools ``attr:``, hatch ``path``, ``__version__`` in
    the package, the last git tag for setuptools-scm), setup.cfg, setup.py's literal ``setup()``
    arguments (parsed, never run), package.json ``author``/``contributors``/``maintainers``, Cargo
    ``authors``. A file that does not parse, nests too deeply or holds the wrong types
    (``package = [1]`` in Cargo.toml) is passed over, never a traceback."""
    found: dict = {}
    for name in PROJECT_FILES:
        text = read_project_file(root, name)
        if text is None:
            continue
        try:
            info = _PARSERS[name](text) if name != "setup.py" else _setup_py(root)
        except (ValueError, RecursionError, tomllib.TOMLDecodeError):
            continue
        if not _text(info.get("name")).strip() and not found:
            continue
        if not found:
            found = {"manifest": name, "name": _text(info["name"]).strip(), "authors": []}
        for key in ("description", "version"):
            if not found.get(key):
                found[key] = _text(info.get(key)).strip()
        found["authors"] += [_text(a) for a in _list(info.get("authors")) if _text(a)]
        if not found.get("_dynamic"):
            found["_dynamic"] = info.get("_dynamic")
        if info.get("module") and not found.get("module"):
            found["module"] = _text(info["module"])
    if not found:
        return ProjectInfo(name=_text(root.resolve().name))
    version = found.get("version") or _dynamic_version(root, found["name"], found.get("_dynamic") or {})
    return ProjectInfo(
        name=found["name"],
        description=found.get("description", ""),
        version=version,
        authors=tuple(dict.fromkeys(a.strip() for a in found["authors"] if a.strip()))[:10],
        manifest=found["manifest"],
        module=found.get("module", ""),
    )


def _dynamic_version(root: Path, name: str, dynamic: dict) -> str:
    """A version the manifest leaves to the build: the file a setuptools ``attr`` or hatch ``path``
    names, ``__version__`` in the package, or the last git tag (setuptools-scm, hatch-vcs, Go)."""
    candidates = []
    attr = _text(dynamic.get("attr"))
    if attr:  # requests.__version__.__version__ -> requests/__version__.py, requests/__version__/__init__.py
        module = attr.rsplit(".", 1)[0].replace(".", "/")
        candidates += [f"{module}.py", f"{module}/__init__.py"]
    if _text(dynamic.get("path")):
        candidates.append(_text(dynamic["path"]))
    package = re.sub(r"[^A-Za-z0-9_]", "_", name.rsplit("/", 1)[-1].lower())
    for stem in ("__init__", "__version__", "version", "_version", "__about__"):
        candidates.append(f"{package}/{stem}.py")
    for rel in dict.fromkeys(candidates):
        rel = rel.lstrip("/")
        if ".." in rel.split("/"):
            continue
        for base in ("", "src/"):
            version = version_in(root, base + rel)
            if version:
                return version
    return _git_tag(root)


def _git_tag(root: Path) -> str:
    """The nearest tag (``v1.2.3`` -> ``1.2.3``) when the folder is a git work tree; "" otherwise."""
    if not (root / ".git").exists():
        return ""
    from orkestra import git

    try:
        tag = git.output(root, "describe", "--tags", "--abbrev=0", timeout=10).strip()
    except Exception:  # noqa: BLE001 - no tags, no git, a timeout: no version rather than a failed init
        return ""
    tag = tag.rsplit("/", 1)[-1]
    return tag[1:] if re.match(r"v\d", tag) else tag if re.match(r"\d", tag) else ""


def _table(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def _person(entry: object) -> str:
    """A name from ``{name, email}``, ``"Name <email> (url)"`` or a bare email."""
    if isinstance(entry, dict):
        entry = entry.get("name") or entry.get("email") or ""
    text = _text(entry)
    return re.sub(r"\s*[<(].*$", "", text).strip() or text.strip("<> ")


def _pyproject(text: str) -> dict:
    data = tomllib.loads(text)
    tool = _table(data.get("tool"))
    project = _table(data.get("project")) or _table(tool.get("poetry"))
    people = _list(project.get("authors")) + _list(project.get("maintainers"))
    dynamic = {}
    if "version" in _list(project.get("dynamic")) or not project.get("version"):
        setuptools = _table(_table(_table(tool.get("setuptools")).get("dynamic")).get("version"))
        hatch = _table(_table(tool.get("hatch")).get("version"))
        dynamic = {"attr": setuptools.get("attr"), "path": hatch.get("path")}
    return {**project, "authors": [a for a in map(_person, people) if a], "_dynamic": dynamic}


def _setup_cfg(text: str) -> dict:
    import configparser

    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error as exc:  # read_manifest passes over a ValueError
        raise ValueError(f"setup.cfg: {exc}") from exc
    meta = parser["metadata"] if parser.has_section("metadata") else {}
    version = meta.get("version", "")
    dynamic = {}
    if version.startswith("attr:"):
        dynamic, version = {"attr": version[5:].strip()}, ""
    elif version.startswith("file:"):
        dynamic, version = {"path": version[5:].strip()}, ""
    people = [meta.get("author", ""), meta.get("maintainer", "")]
    return {
        "name": meta.get("name", ""),
        "description": meta.get("description", ""),
        "version": version,
        "authors": [p for p in people if p],
        "_dynamic": dynamic,
    }


def _setup_py(root: Path) -> dict:
    kwargs = setup_py(root)
    people = [kwargs.get("author"), kwargs.get("maintainer")]
    return {
        "name": _text(kwargs.get("name")) if isinstance(kwargs.get("name"), str) else "",
        "description": _text(kwargs.get("description")) if isinstance(kwargs.get("description"), str) else "",
        "version": _text(kwargs.get("version")) if isinstance(kwargs.get("version"), str) else "",
        "authors": [p for p in people if isinstance(p, str) and p],
    }


def _list(value: object) -> list:
    return value if isinstance(value, list) else []


def _package_json(text: str) -> dict:
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("package.json is not an object")  # not TypeError: read_manifest skips ValueError
    people = [data.get("author"), *_list(data.get("contributors")), *_list(data.get("maintainers"))]
    return {**data, "authors": [a for a in map(_person, people) if a]}


def _cargo(text: str) -> dict:
    data = tomllib.loads(text)
    package = _table(data.get("package"))
    shared = _table(_table(data.get("workspace")).get("package"))  # `version.workspace = true`
    authors = package.get("authors") if isinstance(package.get("authors"), list) else shared.get("authors")
    version = package.get("version") if isinstance(package.get("version"), str) else shared.get("version")
    return {
        **package,
        "version": version,
        "authors": [_person(a) for a in _list(authors) if isinstance(a, str)],
    }


def _go_mod(text: str) -> dict:
    match = re.search(r"^module\s+(\S+)", text, re.MULTILINE)
    return {"name": match.group(1).rsplit("/", 1)[-1], "module": match.group(1)} if match else {}


_PARSERS = {
    "pyproject.toml": _pyproject,
    "package.json": _package_json,
    "Cargo.toml": _cargo,
    "go.mod": _go_mod,
    "setup.cfg": _setup_cfg,
}


def inspect_project(root: str | Path) -> ProjectInfo:
    """Everything init scaffolds from: the manifest, then languages, packages, the repository's own
    test/lint/build commands, frameworks, hub files and entry points, and CI."""
    from orkestra.project_facts import frameworks, hubs, stated_commands

    root = Path(root).resolve()
    base = read_manifest(root)
    languages = _languages(root)
    declared = _declared(root)
    packages = _packages(root, base.name, declared)
    stated = stated_commands(root)
    command, evidence = _tests(root, languages)
    if "test" in stated:
        command, evidence = stated["test"].command, (stated["test"].source,)
    found = {
        p.relative_to(root).as_posix()
        for pattern in (
            ".github/workflows/*.yml",
            ".github/workflows/*.yaml",
            ".gitlab-ci.yml",
            ".ci/*",
            "tox.ini",
            "noxfile.py",
            "Makefile",
            ".circleci/config.yml",
        )
        for p in root.glob(pattern)
        if p.is_file()
    }
    testing = {rel for rel in found if _runs_tests(root / rel)}
    ci = tuple(sorted(found, key=lambda rel: (rel not in testing, rel)))  # the ones that run tests first
    central = hubs(root, packages, tuple(declared.get("scripts", ())))
    return ProjectInfo(
        base.name,
        base.description,
        base.version,
        base.authors,
        base.manifest,
        languages,
        packages,
        command,
        evidence,
        ci,
        {"ci_running_tests": sorted(testing)},
        module=base.module,
        frameworks=tuple(
            frameworks(root, base.name, base.module, is_pytest_plugin=bool(declared.get("pytest11")))
        ),
        lint_command=stated["lint"].command if "lint" in stated else "",
        build_command=stated["build"].command if "build" in stated else "",
        command_sources={kind: c.source for kind, c in stated.items()} | {"test": evidence[0]}
        if evidence
        else {kind: c.source for kind, c in stated.items()},
        hubs=central.hubs,
        entry_points=central.entry_points,
        hubs_from=central.source,
    )


_TEST_WORDS = re.compile(
    r"\b(pytest|tox|nox|npm (run )?test|yarn test|pnpm test|cargo test|go test|make test)\b"
)


def _runs_tests(path: Path) -> bool:
    text = read_project_file(path.parent, path.name)
    return bool(text and _TEST_WORDS.search(text[:200_000]))


def _languages(root: Path) -> tuple[str, ...]:
    from maguyva.index.scan import scan_repository

    counts: Counter[str] = Counter()
    for scanned in scan_repository(root).files[:MAX_FILES]:
        record = scanned.record
        if record.language in CODE_LANGUAGES and not set(record.flags) & {"vendor", "build", "generated"}:
            counts[record.language] += 1
    return tuple(lang for lang, _ in counts.most_common())


def _declared(root: Path) -> dict:
    """What the build metadata says about the source packages: ``include`` globs, explicit package
    lists, ``where`` folders; and the console scripts and pytest11 entry points."""
    out: dict = {"include": [], "where": [], "scripts": [], "pytest11": []}
    data = load_manifest(root, "pyproject.toml")
    setuptools = dig(data, "tool", "setuptools")
    find = dig(setuptools, "packages", "find")
    if isinstance(find, dict):
        out["include"] += [_text(i) for i in _list(find.get("include"))]
        out["where"] += [_text(w) for w in _list(find.get("where"))]
    listed = dig(setuptools, "packages")
    out["include"] += [_text(i) for i in _list(listed)]
    wheel = dig(data, "tool", "hatch", "build", "targets", "wheel")
    out["include"] += [_text(i) for i in _list(dig(wheel, "packages"))]
    poetry = dig(data, "tool", "poetry", "packages")
    out["include"] += [_text(_table(i).get("include")) for i in _list(poetry)]
    for key in ("name", "module"):  # flit / pdm / maturin module names
        value = dig(data, "tool", "flit", "module", key) or dig(data, "tool", "maturin", "module-name")
        if isinstance(value, str):
            out["include"].append(value)
    scripts = _table(dig(data, "project", "scripts")) | _table(dig(data, "tool", "poetry", "scripts"))
    out["scripts"] += [_text(v) for v in scripts.values() if isinstance(v, str)]
    out["pytest11"] += list(_table(dig(data, "project", "entry-points", "pytest11")))
    kwargs = setup_py(root)
    out["include"] += [_text(p) for p in _list(kwargs.get("packages")) if isinstance(p, str)]
    entry = _table(kwargs.get("entry_points"))
    out["scripts"] += [_text(s).split("=", 1)[-1] for s in _list(entry.get("console_scripts"))]
    out["pytest11"] += _list(entry.get("pytest11"))
    if isinstance(kwargs.get("package_dir"), dict):
        out["where"] += [_text(v) for v in kwargs["package_dir"].values() if isinstance(v, str)]
    cfg = read_project_file(root, "setup.cfg") or ""
    match = re.search(r"^packages\s*=\s*((?:.*\n?)(?:[ \t]+\S.*\n?)*)", cfg, re.MULTILINE)
    if match and "find:" not in match.group(1):
        out["include"] += match.group(1).split()
    out["include"] = [i.split("/")[-1].strip() for i in out["include"] if i and i.strip()]
    out["where"] = [w.strip("/") for w in out["where"] if w and ".." not in w]
    return out


def _packages(root: Path, name: str, declared: dict | None = None) -> tuple[str, ...]:
    """Top-level source packages: folders with an ``__init__.py`` that the build metadata declares
    (``packages``, ``include`` globs, ``where``), that carry the project's import name, or that sit
    under ``src/``; ``src``/``lib``/``cmd`` … when there is no Python package. A folder of tests,
    benchmarks or CI scripts (``properties/``, ``asv_bench/``, ``ci/``) is not a source package."""
    from fnmatch import fnmatch

    declared = declared if declared is not None else _declared(root)
    include = [i.split(".")[0] for i in declared.get("include", ())]
    own = re.sub(r"[^a-z0-9]+", "_", name.rsplit("/", 1)[-1].lower())
    candidates = []
    bases = [root, root / "src", *(root / w for w in declared.get("where", ()) if w not in ("", "."))]
    for base in dict.fromkeys(bases):
        if not base.is_dir() or not base.resolve().is_relative_to(root):
            continue
        for child in sorted(base.iterdir())[:500]:
            if (
                child.is_dir()
                and not child.is_symlink()
                and not child.name.startswith((".", "_"))
                and child.name not in _NOT_PACKAGES
                and (child / "__init__.py").is_file()
            ):
                candidates.append((child.relative_to(root).as_posix(), child.name, base != root))
    if include:
        found = [rel for rel, n, _ in candidates if any(fnmatch(n, pattern) for pattern in include)]
    else:
        found = [rel for rel, n, nested in candidates if nested or n.lower() == own]
        if not found:
            found = [rel for rel, n, _ in candidates if not _only_tests(root / rel)]
    if not found:
        found = [
            d
            for d in ("src", "lib", "cmd", "pkg", "internal", "crates", "packages", "app")
            if (root / d).is_dir()
        ]
    return tuple(dict.fromkeys(found))[:8]


def _only_tests(folder: Path) -> bool:
    """A folder whose Python files are all tests, conftest or ``__init__`` (``properties/``)."""
    names = [p.name for p in folder.glob("*.py")][:200]
    code = [
        n for n in names if not n.startswith(("test_", "conftest", "__init__")) and not n.endswith("_test.py")
    ]
    return (bool(names) and not code) or folder.name in ("asv_bench", "ci", "benchmarks", "properties")


def _tests(root: Path, languages: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The test command and the files that prove it (only files that exist)."""
    py_text = read_project_file(root, "pyproject.toml") or ""
    if (
        "[tool.pytest" in py_text
        or (root / "pytest.ini").is_file()
        or (root / "conftest.py").is_file()
        or (root / "tests" / "conftest.py").is_file()
    ):
        evidence = [
            p
            for p in ("pyproject.toml", "pytest.ini", "conftest.py", "tests/conftest.py", "tox.ini")
            if (root / p).is_file() and (p != "pyproject.toml" or "[tool.pytest" in py_text)
        ]
        return "python -m pytest", tuple(evidence)
    package = read_project_file(root, "package.json")
    if package is not None:
        try:
            scripts = _table(_table(json.loads(package)).get("scripts"))
        except (ValueError, RecursionError):
            scripts = {}
        if "test" in scripts:
            return package_script(root, "test"), ("package.json",)
    if (root / "Cargo.toml").is_file():
        return "cargo test", ("Cargo.toml",)
    if (root / "go.mod").is_file():
        return "go test ./...", ("go.mod",)
    if "python" in languages and (root / "tests").is_dir():
        return "python -m pytest", ("tests",)
    return "", ()
