"""Reading a project's own files, size-capped and without running anything: the manifest text
(``read_project_file``, never waits on a FIFO; ``load_manifest`` parses a JSON or TOML one), files that must lie inside the clone, literal
``__version__`` assignments and setup.py's ``setup()`` keywords (parsed with ``ast``, never executed).

Shared by ``project_info`` (what the project is) and ``project_facts`` (how it is worked on).
"""

from __future__ import annotations

import ast
import json
import re
import tomllib
from pathlib import Path
from typing import Any

from orkestra.fs.links import read_regular

MAX_PROJECT_FILE_BYTES = 4 << 20  # far above any real manifest; larger ones are not read


def read_project_file(root: Path, rel: str, limit: int = MAX_PROJECT_FILE_BYTES) -> str | None:
    """The text of a project file (undecodable bytes replaced), or None when it is missing, not a regular
    file (a FIFO is never waited on), larger than ``limit`` or unreadable."""
    try:
        return read_regular(root / rel, limit).decode("utf-8", errors="replace")
    except OSError:
        return None


def load_manifest(root: Path, rel: str) -> Any:
    """A JSON or TOML project file (by its ending) as parsed, or ``{}`` when it is missing, unreadable or
    invalid (RecursionError too: a manifest nested too deep is as good as none)."""
    text = read_project_file(root, rel)
    if not text:
        return {}
    try:
        return tomllib.loads(text) if rel.endswith(".toml") else json.loads(text)
    except (ValueError, RecursionError):
        return {}


def dig(table: dict, *keys: str):
    """``table[k1][k2]...``, or None where a level is missing or not a table."""
    for key in keys:
        table = table.get(key) if isinstance(table, dict) else None
    return table


def package_script(root: Path, name: str) -> str:
    """The command that runs the ``package.json`` script ``name`` with the package manager whose lock
    file is in ``root`` (pnpm, yarn or bun; npm without one). ``bun test`` would start bun's own test
    runner rather than the script, so bun runs every script with ``bun run``, as npm does all but test."""
    if (root / "pnpm-lock.yaml").is_file():
        runner = "pnpm"
    elif (root / "yarn.lock").is_file():
        runner = "yarn"
    elif (root / "bun.lockb").is_file() or (root / "bun.lock").is_file():
        return f"bun run {name}"
    else:
        runner = "npm"
    return f"{runner} test" if name == "test" else f"{runner} run {name}"


def setup_calls(root: Path) -> list[ast.Call]:
    """The ``setup(...)`` calls of setup.py, parsed, never executed; [] when absent or unparsable."""
    text = read_project_file(root, "setup.py", 1 << 20)
    if not text:
        return []
    try:
        tree = ast.parse(text)
        return [
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.Call)
            and (getattr(node.func, "id", None) or getattr(node.func, "attr", None)) == "setup"
        ][:2]
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []


def literal(node: ast.AST):
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return None


def setup_py(root: Path) -> dict:
    """Literal keyword arguments of setup.py's ``setup()`` call (strings and lists of strings)."""
    found: dict = {}
    for call in setup_calls(root):
        for kw in call.keywords:
            value = literal(kw.value) if kw.arg else None
            if isinstance(value, str) or (isinstance(value, (list, dict)) and kw.arg not in found):
                found.setdefault(kw.arg, value)
    return found


def read_inside(root: Path, rel: str, limit: int = 1 << 20) -> str | None:
    """A file's text when it lies inside ``root`` once links are resolved (a ``__init__.py`` or a
    ``version`` path pointing out of the clone is not read); None otherwise."""
    try:
        inside = (root / rel).resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):
        return None
    return read_project_file(root, rel, limit) if inside else None


def version_in(root: Path, rel: str) -> str:
    """``__version__ = "x"`` (or ``version = "x"``) assigned as a literal in a Python file."""
    text = read_inside(root, rel)
    if not text:
        return ""
    match = re.search(
        r"^(?:__version__|version|VERSION)\s*(?::\s*str\s*)?=\s*['\"]([^'\"\n]{1,64})['\"]", text, re.M
    )
    return match.group(1) if match else ""
