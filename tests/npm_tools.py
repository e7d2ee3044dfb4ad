"""Real JavaScript clients for end-to-end tests, installed once into ``<repo>/.cache/npm``.

``npm_bin`` returns the path of a package's executable, installing the package the first
time; it returns None (and the caller skips, printing why) only when npm is missing or the
install fails. A file lock keeps parallel test processes from installing twice at once.
"""

from __future__ import annotations

import shutil
import subprocess

from filelock import FileLock

from conftest import REPO

NPM_PREFIX = REPO / ".cache" / "npm"


def npm_bin(package: str, executable: str) -> tuple[object, str]:
    """(path or None, reason) for ``executable`` from npm ``package``."""
    binary = NPM_PREFIX / "node_modules" / ".bin" / executable
    if binary.exists():
        return binary, ""
    npm = shutil.which("npm")
    if npm is None:
        return None, "npm is not installed on this machine"
    NPM_PREFIX.mkdir(parents=True, exist_ok=True)
    with FileLock(str(NPM_PREFIX / ".install.lock")):
        if not binary.exists():
            result = subprocess.run([npm, "install", "--prefix", str(NPM_PREFIX), "--no-audit", "--no-fund", package],
                                    capture_output=True, text=True, timeout=900)
            if result.returncode != 0 or not binary.exists():
                return None, f"npm install {package} failed: {(result.stderr or result.stdout)[-400:]}"
    return binary, ""
