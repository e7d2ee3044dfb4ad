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

PROJECT_FILES = ("pyproject.toml", "package.json", "Cargo.toml", "go.mod")
MAX_PROJECT_FILE_BYTES = 4 << 20  # far above any real manifest; larger ones are not read
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

    def to_dict(self) -> dict:
        return asdict(self)


def _kebab(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "project"


def read_project_file(root: Path, rel: str, limit: int = MAX_PROJECT_FILE_BYTES) -> str | None:
    """The text of a project file (undecodable bytes replaced), or None when it is missing, not a regular
    file (a FIFO is never waited on), larger than ``limit`` or unreadable."""
    from orkestra.workspace.links import read_regular

    try:
        return read_regular(root / rel, limit).decode("utf-8", errors="replace")
    except OSError:
        return None


def _text(value: object) -> str:
    """A manifest value as text that can be written out: lone surrogates (``"\\ud800"`` in JSON, which
    UTF-8 cannot encode) become U+FFFD; lists, tables and null are not text."""
    if isinstance(value, (dict, list)) or value is None:
        return ""
    return _SURROGATES.sub("\ufffd", str(value))


_SURROGATES = re.compile("[\ud800-\udfff]")


def read_manifest(root: Path) -> ProjectInfo:
    """Name, description, version and authors from the first project file found; folder name otherwise.

    A file that does not parse, nests too deeply or holds the wrong types (``package = [1]`` in
    Cargo.toml) is passed over, never a traceback."""
    for name in PROJECT_FILES:
        text = read_project_file(root, name)
        if text is None:
            continue
        try:
            info = _PARSERS[name](text)
        except (ValueError, RecursionError, tomllib.TOMLDecodeError):
            continue
        if _text(info.get("name")).strip():
            authors = info.get("authors")
            return ProjectInfo(
                name=_text(info["name"]).strip(),
                description=_text(info.get("description")).strip(),
                version=_text(info.get("version")),
                authors=tuple(_text(a) for a in _list(authors) if _text(a)),
                manifest=name,
            )
    return ProjectInfo(name=_text(root.resolve().name))


def _table(value: object) -> dict:
    return value if isinstance(value, dict) else {}


def _pyproject(text: str) -> dict:
    data = tomllib.loads(text)
    project = _table(data.get("project")) or _table(_table(data.get("tool")).get("poetry"))
    listed = project.get("authors")
    names = [a.get("name", "") if isinstance(a, dict) else a for a in _list(listed)]
    return {**project, "authors": [a for a in map(_text, names) if a]}


def _list(value: object) -> list:
    return value if isinstance(value, list) else []


def _package_json(text: str) -> dict:
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("package.json is not an object")  # not TypeError: read_manifest skips ValueError
    author = data.get("author")
    author = author.get("name") if isinstance(author, dict) else author
    return {**data, "authors": [author] if isinstance(author, str) and author else []}


def _cargo(text: str) -> dict:
    package = _table(tomllib.loads(text).get("package"))
    authors = _list(package.get("authors"))
    return {**package, "authors": [re.sub(r"\s*<.*>", "", a) for a in authors if isinstance(a, str)]}


def _go_mod(text: str) -> dict:
    match = re.search(r"^module\s+(\S+)", text, re.MULTILINE)
    return {"name": match.group(1).rsplit("/", 1)[-1]} if match else {}


_PARSERS = {
    "pyproject.toml": _pyproject,
    "package.json": _package_json,
    "Cargo.toml": _cargo,
    "go.mod": _go_mod,
}


def inspect_project(root: str | Path) -> ProjectInfo:
    """Everything init scaffolds from: the manifest, then languages, packages, tests and CI."""
    root = Path(root).resolve()
    base = read_manifest(root)
    languages = _languages(root)
    packages = _packages(root, base.name)
    command, evidence = _tests(root, languages)
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


def _packages(root: Path, name: str) -> tuple[str, ...]:
    """Top-level source folders: Python packages (``__init__.py``), ``src/<pkg>``, or ``src``/``lib``/``cmd``."""
    found = []
    for base in (root, root / "src"):
        if not base.is_dir():
            continue
        for child in sorted(base.iterdir()):
            if (
                child.is_dir()
                and not child.name.startswith((".", "_"))
                and child.name not in _NOT_PACKAGES
                and (child / "__init__.py").is_file()
            ):
                found.append(child.relative_to(root).as_posix())
    if not found:
        found = [
            d
            for d in ("src", "lib", "cmd", "pkg", "internal", "crates", "packages", "app")
            if (root / d).is_dir()
        ]
    return tuple(found[:8])


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
            runner = (
                "pnpm"
                if (root / "pnpm-lock.yaml").is_file()
                else "yarn"
                if (root / "yarn.lock").is_file()
                else "npm"
            )
            return f"{runner} test", ("package.json",)
    if (root / "Cargo.toml").is_file():
        return "cargo test", ("Cargo.toml",)
    if (root / "go.mod").is_file():
        return "go test ./...", ("go.mod",)
    if "python" in languages and (root / "tests").is_dir():
        return "python -m pytest", ("tests",)
    return "", ()
