"""The command that runs a package.json script, by the lock file beside it (project_files.package_script)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from orkestra.project_info import inspect_project


def _project(root: Path, lock: str | None) -> Path:
    scripts = {"test": "vitest", "lint": "eslint ."}
    (root / "package.json").write_text(json.dumps({"name": "left-padder", "scripts": scripts}))
    if lock:
        (root / lock).write_text("")
    return root


@pytest.mark.parametrize(
    ("lock", "test", "lint"),
    [
        (None, "npm test", "npm run lint"),
        ("pnpm-lock.yaml", "pnpm test", "pnpm run lint"),
        ("yarn.lock", "yarn test", "yarn run lint"),
        # `bun test` starts bun's own test runner, not the project's test script
        ("bun.lock", "bun run test", "bun run lint"),
        ("bun.lockb", "bun run test", "bun run lint"),
    ],
)
def test_a_script_runs_with_the_package_manager_of_the_lock_file(tmp_path, lock, test, lint):
    info = inspect_project(_project(tmp_path, lock))
    assert info.test_command == test
    assert info.lint_command == lint
