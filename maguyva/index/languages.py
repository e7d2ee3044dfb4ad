"""Language detection (extension, file name, shebang) and per-language assets.

Names are tree-sitter-language-pack 0.13 names. A language is *extracted* (symbols, references)
only when ``queries/<language>.scm`` exists; every other text file is chunked for text search.
"""

from __future__ import annotations

import importlib
import re
from functools import cache
from pathlib import Path
from types import ModuleType

QUERIES_DIR = Path(__file__).parent / "queries"

EXTENSIONS = {
    ".py": "python",
    ".pyi": "python",
    ".pyw": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hpp": "cpp",
    ".hh": "cpp",
    ".hxx": "cpp",
    ".cs": "csharp",
    ".rb": "ruby",
    ".php": "php",
    ".swift": "swift",
    ".scala": "scala",
    ".lua": "lua",
    ".sh": "bash",
    ".bash": "bash",
    ".zsh": "bash",
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdx": "markdown",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".toml": "toml",
    ".json": "json",
    ".sql": "sql",
    ".html": "html",
    ".htm": "html",
    ".css": "css",
    ".scss": "scss",
    ".cob": "cobol",
    ".cbl": "cobol",
}
FILE_NAMES = {
    "Dockerfile": "dockerfile",
    "Makefile": "make",
    "makefile": "make",
    "GNUmakefile": "make",
    "CMakeLists.txt": "cmake",
    "Rakefile": "ruby",
    "Gemfile": "ruby",
    "BUILD": "starlark",
}
SHEBANGS = {
    "python": "python",
    "python3": "python",
    "node": "javascript",
    "deno": "typescript",
    "bash": "bash",
    "sh": "bash",
    "zsh": "bash",
    "ruby": "ruby",
    "php": "php",
}
_SHEBANG = re.compile(rb"^#!\s*(?:/usr/bin/env\s+(?:-S\s+)?)?\S*?([A-Za-z]+)[0-9.]*(?:\s|$)")


def detect_language(path: str, head: bytes = b"") -> str | None:
    """The language of ``path`` from its name, extension, or (for extensionless files) shebang line."""
    name = path.rsplit("/", 1)[-1]
    if name in FILE_NAMES:
        return FILE_NAMES[name]
    dot = name.rfind(".")
    if dot > 0:
        return EXTENSIONS.get(name[dot:].lower())
    match = _SHEBANG.match(head)
    return SHEBANGS.get(match.group(1).decode()) if match else None


def has_query(language: str | None) -> bool:
    """Whether symbols and references are extracted for ``language`` (a query file exists)."""
    return language is not None and _has_query_file(language)


@cache
def _has_query_file(language: str) -> bool:  # a stat per call was ~1 % of a cold index's workers
    return (QUERIES_DIR / f"{language}.scm").is_file()


# Languages whose hooks live in another language's module (same module system).
HOOK_MODULES = {"tsx": "typescript"}
_INHERITS = re.compile(r"^;\s*inherits:\s*([\w,]+)\s*$", re.MULTILINE)


@cache
def query_source(language: str) -> str:
    """Our query for ``language``; a ``; inherits: other`` line prepends the other query."""
    text = (QUERIES_DIR / f"{language}.scm").read_text(encoding="utf-8")
    inherited = [
        query_source(name) for match in _INHERITS.finditer(text) for name in match.group(1).split(",")
    ]
    return "\n".join([*inherited, text])


@cache
def grammar(language: str):
    """The tree-sitter ``Language`` for ``language`` (bundled in tree-sitter-language-pack 0.13)."""
    from tree_sitter_language_pack import get_language

    return get_language(language)


@cache
def compiled_query(language: str):
    """Our query for ``language``, compiled once per process."""
    from tree_sitter import Query

    return Query(grammar(language), query_source(language))


@cache
def hooks(language: str) -> ModuleType | None:
    """The optional per-language hook module ``maguyva.index.lang.<language>``."""
    module = f"maguyva.index.lang.{HOOK_MODULES.get(language, language)}"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        return None
