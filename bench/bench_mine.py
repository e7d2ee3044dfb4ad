"""Mining benchmark: `mine sync` on a 10k-commit repository, incremental sync, changelog render.

Builds the repository with `git fast-import` (conventional messages, a monorepo of 6 packages,
3 files per commit, a release tag every 500 commits), then prints one JSON line per measurement.
When `git-cliff` is on PATH it renders the same history and the ratio to our sync is printed.

    python bench/bench_mine.py [--commits 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from orkestra.mining.changelog_files import render_changelogs
from orkestra.mining.classify import record_classifications
from orkestra.mining.config import load_mining_paths
from orkestra.mining.index import load_index, sync_index
from orkestra.mining.records import Classification

PACKAGES = ["canonical", "search", "web", "api", "etl", "auth"]
TYPES = ["feat", "fix", "chore", "docs", "refactor", "perf", "test", "feat", "fix", "fix"]
ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "b@example.com",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "b@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=repo, env=ENV, check=True, capture_output=True, text=True
    ).stdout


def fast_import(repo: Path, start: int, count: int) -> None:
    """Append ``count`` commits to main (numbered from ``start``)."""
    parent = git(repo, "rev-parse", "HEAD").strip() if start else ""
    chunks = []
    for n in range(start, start + count):
        pkg = PACKAGES[n % len(PACKAGES)]
        kind = TYPES[n % len(TYPES)]
        breaking = "!" if n % 97 == 0 else ""
        message = (
            f"{kind}({pkg}){breaking}: change {n} in {pkg}\n\nBody paragraph for change {n}.\n\nRefs: #{n}\n"
        ).encode()
        chunks.append(
            f"commit refs/heads/main\nmark :{n + 1}\n"
            f"committer Bench <b@example.com> {1767225600 + n * 60} +0000\n".encode()
        )
        chunks.append(b"data %d\n%s\n" % (len(message), message))
        if n == start and parent:
            chunks.append(f"from {parent}\n".encode())
        if n == 0:
            for p in PACKAGES:
                manifest = b"[project]\nname = '%s'\n" % p.encode()
                chunks.append(
                    b"M 100644 inline packages/%s/pyproject.toml\ndata %d\n%s\n"
                    % (p.encode(), len(manifest), manifest)
                )
        for f in range(3):
            body = f"line {n}\n" * (1 + (n + f) % 5)
            chunks.append(
                f"M 100644 inline packages/{pkg}/src/mod{(n + f) % 40}.py\n".encode()
                + b"data %d\n%s\n" % (len(body), body.encode())
            )
        if n % 500 == 499:
            chunks.append(f"reset refs/tags/v0.{n // 500}.0\nfrom :{n + 1}\n\n".encode())
    subprocess.run(["git", "fast-import", "--quiet"], cwd=repo, input=b"".join(chunks), check=True, env=ENV)
    git(repo, "reset", "-q", "--hard", "main")


def emit(name: str, **fields) -> None:
    print(json.dumps({"name": name, **fields}), flush=True)


def timed(fn, repeat: int) -> list[float]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--commits", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-mine-") as tmp:
        repo = Path(tmp) / "repo"
        repo.mkdir()
        git(repo, "init", "-q", "-b", "main")
        fast_import(repo, 0, args.commits)
        paths = load_mining_paths(repo)
        n = args.commits

        cli = timed(
            lambda: subprocess.run(
                [sys.executable, "-m", "orkestra", "mine", "sync", "--full"],
                cwd=repo,
                check=True,
                capture_output=True,
            ),
            1,
        )[0]
        emit("mine_sync_full_cli", stats=False, commits=n, wall_s=round(cli, 3), commits_per_s=round(n / cli))
        for stats in (False, True):  # stats are sticky: the no-stats run must come first
            times = timed(lambda stats=stats: sync_index(paths, stats=stats, full=True), args.repeat)
            emit(
                "mine_sync_full",
                stats=stats,
                commits=n,
                p50_s=round(statistics.median(times), 3),
                commits_per_s=round(n / statistics.median(times)),
            )

        increments = []
        for round_ in range(args.repeat):
            fast_import(repo, n + 100 * round_, 100)
            increments += timed(lambda: sync_index(paths), 1)
        emit(
            "mine_sync_incremental_100",
            p50_ms=round(1000 * statistics.median(increments), 1),
            max_ms=round(1000 * max(increments), 1),
        )

        commits = list(load_index(paths).values())
        items = [
            (n, Classification(sha=c["sha"], domain="changelog", action="release", category="added"))
            for n, c in enumerate(commits[:7000], start=1)
        ]
        started = time.perf_counter()
        record_classifications(paths, items)
        emit("mine_commit_batch", lines=len(items), seconds=round(time.perf_counter() - started, 3))
        render = timed(lambda: render_changelogs(paths, package="root"), args.repeat)
        packages = timed(lambda: render_changelogs(paths, every=True), 1)[0]
        emit(
            "changelog_render_root",
            ledger_entries=len(items),
            p50_ms=round(1000 * statistics.median(render), 1),
        )
        emit(
            "changelog_render_all",
            ledger_entries=len(items),
            packages=len(PACKAGES) + 1,
            ms=round(1000 * packages, 1),
        )

        cliff = shutil.which("git-cliff") or str(Path(sys.executable).parent / "git-cliff")
        if Path(cliff).exists():  # stats are sticky by now: this compares with our slower, --stats sync
            ours = statistics.median(timed(lambda: sync_index(paths, full=True), args.repeat))
            theirs = statistics.median(
                timed(
                    lambda: subprocess.run(
                        [cliff, "--output", str(Path(tmp) / "cliff.md")],
                        cwd=repo,
                        check=True,
                        capture_output=True,
                    ),
                    args.repeat,
                )
            )
            emit(
                "git_cliff_vs_mine_sync",
                commits=len(commits),
                git_cliff_s=round(theirs, 3),
                mine_sync_s=round(ours, 3),
                mine_sync_stats=True,
                ratio_cliff_over_sync=round(theirs / ours, 2),
            )
        else:
            emit("git_cliff_vs_mine_sync", skipped="git-cliff not installed (pip install git-cliff)")


if __name__ == "__main__":
    main()
