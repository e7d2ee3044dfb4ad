"""Building real git histories for the mining tests: pinned dates, tags, merges, fast-import."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from conftest import GIT_ENV, git

from orkestra.mining.config import MiningPaths, load_mining_paths


def at(day: int, hour: int = 12) -> dict:
    """Author and committer date pinned to 2026-01-<day> <hour>:00 UTC."""
    stamp = f"2026-01-{day:02d}T{hour:02d}:00:00+00:00"
    return {"GIT_AUTHOR_DATE": stamp, "GIT_COMMITTER_DATE": stamp}


def commit(
    repo: Path, message: str, files: dict[str, str] | None = None, day: int = 1, hour: int = 12
) -> str:
    """Write ``files``, commit them with ``message`` at a pinned date; return the sha."""
    for rel, text in (files or {}).items():
        path = repo / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        git(repo, "add", rel)
    git(repo, "commit", "-q", "--allow-empty", "--cleanup=verbatim", "-m", message, env=at(day, hour))
    return git(repo, "rev-parse", "HEAD").strip()


def tag(repo: Path, name: str, day: int, annotated: bool = True) -> None:
    args = ["tag", "-a", name, "-m", name] if annotated else ["tag", name]
    git(repo, *args, env=at(day))


def mining(repo: Path) -> MiningPaths:
    return load_mining_paths(repo.resolve())


def fast_import(repo: Path, count: int, start: int = 0, branch: str = "main") -> None:
    """Append ``count`` commits (one small file each) to ``branch`` with ``git fast-import``."""
    parent = git(repo, "rev-parse", "-q", "--verify", branch + "^{commit}") if start else ""
    lines = []
    for n in range(start, start + count):
        body = f"content {n}\n".encode()
        message = f"feat(area{n % 7}): change number {n}\n".encode()
        stamp = 1767225600 + n * 60
        lines.append(
            f"commit refs/heads/{branch}\nmark :{n + 1}\n"
            f"committer Test <t@example.com> {stamp} +0000\n".encode()
        )
        lines.append(b"data %d\n%s\n" % (len(message), message))
        if n == start and parent:
            lines.append(f"from {parent.strip()}\n".encode())
        lines.append(b"M 100644 inline src/file%d.txt\ndata %d\n%s\n" % (n % 50, len(body), body))
    subprocess.run(
        ["git", "fast-import", "--quiet"],
        cwd=repo,
        input=b"".join(lines),
        check=True,
        env={**os.environ, **GIT_ENV},
    )
    git(repo, "reset", "-q", "--hard", branch)
