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


def read_manifest(root: Path) -> ProjectInfo:
    """Name, description, version and authors from the first project file found; folder name otherwise."""
    for name in PROJECT_FILES:
        path = root / name
        if not path.is_file():
            continue
        try:
            info = _PARSERS[name](path.read_text(encoding="utf-8", errors="replace"))
        except (ValueError, tomllib.TOMLDecodeError):
            continue
        if info.get("name"):
            return ProjectInfo(
                name=str(info["name"]),
                description=str(info.get("description") or "").strip(),
                version=str(info.get("version") or ""),
                authors=tuple(str(a) for a in info.get("authors") or ()),
                manifest=name,
            )
    return ProjectInfo(name=root.resolve().name)


def _pyproject(text: str) -> dict:
    data = tomllib.loads(text)
    project = data.get("project") or data.get("tool", {}).get("poetry") or {}
    authors = [a.get("name", "") if isinstance(a, dict) else str(a) for a in project.get("authors") or []]
    return {**project, "authors": [a for a in authors if a]}


def _package_json(text: str) -> dict:
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("package.json is not an object")  # not TypeError: read_manifest skips ValueError
    author = data.get("author")
    author = author.get("name") if isinstance(author, dict) else author
    return {**data, "authors": [author] if author else []}


def _cargo(text: str) -> dict:
    package = tomllib.loads(text).get("package") or {}
    return {
        **package,
        "authors": [re.sub(r"\s*<.*>", "", a) for a in package.get("authors") or [] if isinstance(a, str)],
    }


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
    try:
        return bool(_TEST_WORDS.search(path.read_text(encoding="utf-8", errors="replace")[:200_000]))
    except OSError:
        return False


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
    pyproject = root / "pyproject.toml"
    py_text = pyproject.read_text(encoding="utf-8", errors="replace") if pyproject.is_file() else ""
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
    package = root / "package.json"
    if package.is_file():
        try:
            scripts = json.loads(package.read_text(encoding="utf-8")).get("scripts") or {}
        except ValueError:
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
