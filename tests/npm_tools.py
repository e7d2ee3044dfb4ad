"""Real JavaScript clients for end-to-end tests, installed once each into ``<repo>/.cache/npm/<name>``.

``npm_bin`` returns a package's executable, installing the newest release the first time;
it returns (None, reason) — and the caller skips, printing why — only when npm is missing or
the install fails. A file lock keeps parallel test processes from installing twice at once.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from conftest import REPO
from filelock import FileLock

NPM_CACHE = REPO / ".cache" / "npm"
CLAUDE_CODE = "@anthropic-ai/claude-code"
INSPECTOR = "@modelcontextprotocol/inspector"


def npm_bin(package: str, executable: str) -> tuple[Path | None, str]:
    """(path or None, reason) for ``executable`` from npm ``package``."""
    prefix = NPM_CACHE / package.strip("@").replace("/", "-")
    binary = prefix / "node_modules" / ".bin" / executable
    if binary.exists():
        return binary, ""
    npm = shutil.which("npm")
    if npm is None:
        return None, "npm is not installed on this machine"
    prefix.mkdir(parents=True, exist_ok=True)
    with FileLock(str(prefix / ".install.lock")):
        if not binary.exists():
            result = subprocess.run(
                [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", f"{package}@latest"],
                capture_output=True,
                text=True,
                timeout=900,
            )
            if result.returncode != 0 or not binary.exists():
                return None, f"npm install {package} failed: {(result.stderr or result.stdout)[-400:]}"
    return binary, ""
