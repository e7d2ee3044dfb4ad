"""Packages: the directories of a repository that own an ``ai_assets/`` folder or a package manifest.

A package is any directory (the root included, as ``.``) that holds an ``ai_assets/``
directory or one of ``MANIFESTS``. Its name comes from the manifest when it declares one,
otherwise from the directory. The walk skips hidden directories, ``node_modules``,
``__pycache__`` and the workspace's ``exclude`` globs.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Iterator
from pathlib import Path

from orkestra.inspect.cache import project_dirs

MANIFESTS = ("pyproject.toml", "package.json", "Cargo.toml", "go.mod")


def find_packages(root: Path, exclude: list[str], root_name: str) -> list[dict]:
    """Every package below ``root`` as a JSON-ready record, sorted by path."""
    packages = []
    for rel, dirnames, filenames in project_dirs(root, exclude):
        manifest = next((name for name in MANIFESTS if name in filenames), None)
        has_assets = "ai_assets" in dirnames
        if manifest is None and not has_assets:
            continue
        name, description = _manifest_info(root / rel / manifest) if manifest else ("", "")
        fallback = root_name if rel == "." else os.path.basename(rel)
        packages.append(
            {
                "name": name or fallback,
                "path": rel,
                "manifest": manifest,
                "ai_assets": has_assets,
                "description": description,
            }
        )
    return sorted(packages, key=lambda p: p["path"])


def _manifest_info(path: Path) -> tuple[str, str]:
    """(name, description) declared by a manifest; empty strings when it declares none or is unreadable."""
    from orkestra.fs.links import read_regular
    from orkestra.project_files import MAX_PROJECT_FILE_BYTES

    try:  # a 3 GB sparse manifest is refused unread (fstat on the open descriptor)
        text = read_regular(path, MAX_PROJECT_FILE_BYTES).decode("utf-8")
        if path.name == "go.mod":
            return next(_go_modules(text), ""), ""
        data = json.loads(text) if path.name == "package.json" else tomllib.loads(text)
    except (OSError, UnicodeDecodeError, ValueError):
        return "", ""
    if not isinstance(data, dict):
        return "", ""
    table = data if path.name == "package.json" else (data.get("project") or data.get("package") or {})
    return str(table.get("name", "")), str(table.get("description", ""))


def _go_modules(text: str) -> Iterator[str]:
    for line in text.splitlines():
        if line.startswith("module "):
            yield line.split(None, 1)[1].strip()
