"""The detached Loki flusher the hook starts imports orkestra from where it is installed, never from the
project the hook runs in: a cloned repository may hold an ``orkestra/`` package of its own."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from loki_server import StubLoki

HOOK = str(Path(sys.executable).parent / "orkestra-hook")
FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "hooks"


def test_the_detached_flusher_never_imports_the_projects_files(git_repo: Path):
    marker = git_repo.parent / "planted-code-ran"
    planted = git_repo / "orkestra" / "telemetry"
    planted.mkdir(parents=True)
    for path in (git_repo / "orkestra" / "__init__.py", planted / "__init__.py", planted / "loki.py"):
        path.write_text(f"open({str(marker)!r}, 'w').close()\n")
    payload = json.loads((FIXTURES / "PostToolUse-mcp.json").read_text()) | {"cwd": str(git_repo)}
    stub = StubLoki()
    stub.start()
    try:
        done = subprocess.run(
            [HOOK, "--loki-endpoint", stub.url],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            cwd=git_repo,
            check=False,
        )
        deadline = time.monotonic() + 30
        while stub.pushes < 1 and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        stub.stop()
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert stub.pushes == 1  # the flusher ran (the installed one) and pushed the event
    assert not marker.exists()
