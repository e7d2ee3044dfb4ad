"""The one git runner: every git process orkestra starts goes through here (mining's plumbing and
streamed log, the remote for links and project names, ``why``'s history, blob reads).

``run`` is one short command (it raises what ``subprocess.run`` raises), ``output`` is the stdout
of a command whose failure just means "no answer" (no repository, no git, a timeout), and
``stream`` is a long ``git log`` read as it is produced. Every call has a timeout, and none
ever goes through a shell.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

GIT = "git"


def run(
    root: Path,
    *args: str,
    input: str | bytes | None = None,
    text: bool = True,
    timeout: float = 60,
    check: bool = False,
) -> subprocess.CompletedProcess:
    """One git command in ``root``, its output captured (``text``: decoded as UTF-8)."""
    return subprocess.run(
        [GIT, *args], cwd=root, input=input, capture_output=True, text=text, check=check, timeout=timeout
    )


def output(root: Path, *args: str, timeout: float = 30) -> str:
    """stdout of one git command ('' when git fails or cannot run); undecodable bytes are replaced."""
    try:
        proc = run(root, *args, text=False, timeout=timeout)
    except (OSError, subprocess.SubprocessError):
        return ""
    return proc.stdout.decode("utf-8", "replace") if proc.returncode == 0 else ""


@contextmanager
def stream(root: Path, *args: str, env: dict[str, str] | None = None) -> Iterator[subprocess.Popen]:
    """A git command whose stdout (bytes) is read while it runs; stderr is kept for the error."""
    with subprocess.Popen(
        [GIT, *args], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    ) as proc:
        yield proc


def popen(root: Path, *args: str, **kwargs) -> subprocess.Popen:
    """A git process started in the background (``stdin``/``stdout``/``stderr`` as given); the caller waits."""
    return subprocess.Popen([GIT, *args], cwd=root, **kwargs)
