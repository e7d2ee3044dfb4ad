"""Mining at scale against its floors: `mine sync --full` on a synthetic 60k-commit history.

Builds the history with `git fast-import`: conventional messages (types, scopes, bodies of 0–4
paragraphs, footers, breaking changes, reverts, squash lists), a monorepo of packages with a
few thousand realistic file paths (src/, tests/, docs/, CI files, manifests), 1–12 files per
commit. Then, in the same run, prints each figure next to its floor:

* ``mine sync --full`` from the CLI (wall time, CPU, and the peak of the summed RSS and PSS of the
  process and its git children, sampled every 20 ms) against the very git commands it runs, timed
  alone (output thrown away) in the same two lanes at once (``git log --max-count`` then runs of
  ``git log --stdin`` from the list's newest end, beside ``git rev-list --reverse`` then runs from its
  oldest end; see ``orkestra.mining.lanes``), and, for comparison, the single ``git log --reverse``;
* against ``cz changelog --dry-run`` (commitizen) on the same history, skipped with a printed
  reason when ``cz`` is not installed (``pip install commitizen``).

    python bench/bench_mine_scale.py [--commits 60000] [--repeat 1] [--stats] [--repo BUILT_HISTORY]
                                     [--commit-graph]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from orkestra.mining.git import MEMORY_LIMITS, log_args, log_stdin_args
from orkestra.mining.lanes import NEWEST_COMMITS, Claims

PACKAGES = ["core", "api", "web", "cli", "auth", "billing", "search", "worker", "sdk", "docs-site"]
TYPES = ["feat"] * 5 + ["fix"] * 6 + ["chore", "docs", "refactor", "perf", "test", "ci", "build", "style"]
VERBS = [
    "add",
    "fix",
    "handle",
    "support",
    "remove",
    "rename",
    "speed up",
    "document",
    "test",
    "guard",
    "cache",
    "validate",
    "retry",
    "log",
    "split",
    "inline",
]
NOUNS = [
    "parser",
    "session token",
    "retry loop",
    "pagination",
    "config loader",
    "rate limiter",
    "index",
    "migration",
    "webhook",
    "schema",
    "cache key",
    "upload",
    "timezone handling",
    "error message",
    "CLI flag",
    "the build",
    "lock file",
    "search ranking",
    "invoice totals",
    "OAuth callback",
]
DIRS = [
    "src/{p}",
    "src/{p}/models",
    "src/{p}/handlers",
    "src/{p}/utils",
    "src/{p}/storage",
    "tests",
    "tests/unit",
    "tests/integration",
    "docs",
]
EXTS = [".py", ".py", ".py", ".ts", ".md", ".json", ".yaml"]
ROOT_FILES = [
    ".github/workflows/ci.yml",
    ".github/workflows/release.yml",
    "Dockerfile",
    "Makefile",
    "README.md",
    "pyproject.toml",
    "package.json",
    "terraform/main.tf",
    ".pre-commit-config.yaml",
]
ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "b@example.com",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "b@example.com",
    "GIT_CONFIG_NOSYSTEM": "1",
}
LOG_ENV = {**ENV, "GIT_FLUSH": "0"}  # what mining's log gits run with (orkestra.mining.git.log_env)


def file_paths(rng: random.Random) -> dict[str, list[str]]:
    """About 300 paths per package plus root files: what each package's commits touch."""
    paths = {}
    for pkg in PACKAGES:
        names = set()
        while len(names) < 300:
            folder = rng.choice(DIRS).format(p=pkg.replace("-", "_"))
            stem = rng.choice(NOUNS).replace(" ", "_").lower() + (
                f"_{rng.randrange(30)}" if rng.random() < 0.7 else ""
            )
            names.add(f"packages/{pkg}/{folder}/{stem}{rng.choice(EXTS)}")
        paths[pkg] = [*sorted(names), f"packages/{pkg}/pyproject.toml", f"packages/{pkg}/package.json"]
    return paths


def message(rng: random.Random, n: int, pkg: str) -> str:
    kind = rng.choice(TYPES)
    scope = f"({pkg})" if rng.random() < 0.8 else ""
    bang = "!" if rng.random() < 0.01 else ""
    subject = f"{kind}{scope}{bang}: {rng.choice(VERBS)} {rng.choice(NOUNS)}"
    if rng.random() < 0.02:
        subject = f'Revert "{subject}"'
    paragraphs = [subject]
    for _ in range(rng.choice([0, 0, 1, 1, 1, 2, 3, 4])):
        words = rng.choices(NOUNS + VERBS, k=rng.randrange(8, 60))
        paragraphs.append(" ".join(words).capitalize() + ".")
    if rng.random() < 0.05:
        paragraphs.append(
            "\n".join(
                f"* {rng.choice(TYPES)}: {rng.choice(VERBS)} {rng.choice(NOUNS)}"
                for _ in range(rng.randrange(2, 6))
            )
        )
    footers = [f"Refs: #{n}"] if rng.random() < 0.4 else []
    if bang and rng.random() < 0.5:
        footers.append(f"BREAKING CHANGE: the {rng.choice(NOUNS)} changed")
    if rng.random() < 0.3:
        footers.append("Co-authored-by: Someone <someone@example.com>")
    if footers:
        paragraphs.append("\n".join(footers))
    return "\n\n".join(paragraphs) + "\n"


def build_history(repo: Path, count: int, seed: int = 17) -> None:
    """``count`` commits on main via one ``git fast-import`` stream, a tag every 1000 commits."""
    rng = random.Random(seed)
    paths = file_paths(rng)
    proc = subprocess.Popen(["git", "fast-import", "--quiet"], cwd=repo, stdin=subprocess.PIPE, env=ENV)
    write = proc.stdin.write
    for n in range(count):
        pkg = rng.choice(PACKAGES)
        text = message(rng, n, pkg).encode()
        write(
            b"commit refs/heads/main\nmark :%d\ncommitter Bench <b@example.com> %d +0000\ndata %d\n%s\n"
            % (n + 1, 1600000000 + n * 600, len(text), text)
        )
        touched = rng.sample(paths[pkg], k=min(len(paths[pkg]), rng.choice([1, 1, 2, 2, 3, 3, 4, 5, 8, 12])))
        if rng.random() < 0.05:
            touched.append(rng.choice(ROOT_FILES))
        for path in touched:
            body = f"# {path} @ {n}\n".encode() * (1 + n % 7)
            write(b"M 100644 inline %s\ndata %d\n%s\n" % (path.encode(), len(body), body))
        if n % 1000 == 999:
            write(b"reset refs/tags/v%d.0.0\nfrom :%d\n\n" % (n // 1000, n + 1))
    proc.stdin.close()
    if proc.wait():
        raise SystemExit("git fast-import failed")
    subprocess.run(["git", "reset", "-q", "--hard", "main"], cwd=repo, check=True, env=ENV)


class MemorySampler:
    """The peak, over 20 ms samples, of the summed RSS and PSS (MB) of every descendant of this process.

    RSS counts the pages of the pack file that two gits map once per process; PSS shares them out."""

    def __init__(self):
        self.rss = self.pss = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def _run(self):
        me = os.getpid()
        while not self._stop.wait(0.02):
            parents = {}
            for entry in os.scandir("/proc"):
                if entry.name.isdigit():
                    try:
                        parents[int(entry.name)] = int(
                            Path(f"/proc/{entry.name}/stat").read_text().rsplit(")", 1)[1].split()[1]
                        )
                    except (OSError, ValueError, IndexError):
                        pass
            mine = {me}
            for _ in range(4):  # children, grandchildren, …
                mine |= {pid for pid, parent in parents.items() if parent in mine}
            rss = pss = 0
            for pid in mine - {me}:
                try:
                    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                        if line.startswith("Rss:"):
                            rss += int(line.split()[1])
                        elif line.startswith("Pss:"):
                            pss += int(line.split()[1])
                except (OSError, ValueError):
                    pass
            self.rss, self.pss = max(self.rss, rss / 1024), max(self.pss, pss / 1024)


def run_measured(args: list[str], cwd: Path, env: dict = ENV) -> tuple[float, float, float, float]:
    """(wall seconds, peak summed RSS in MB, CPU seconds, peak summed PSS in MB) of the process and its children."""
    with MemorySampler() as memory:
        started = time.perf_counter()
        proc = subprocess.Popen(args, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{' '.join(args)} failed: {proc.stderr.read().decode()[-2000:]}")
    proc.stderr.close()
    return wall, max(memory.rss, usage.ru_maxrss / 1024), usage.ru_utime + usage.ru_stime, memory.pss


def run_split_floor(cwd: Path, stats: bool) -> tuple[float, float, float, float]:
    """The git commands of a full sync alone, output thrown away, in its two lanes at once, sharing the
    list out as the sync does (``orkestra.mining.lanes``, the same :class:`~orkestra.mining.lanes.Claims`).

    The child's lane: ``git log --max-count=NEWEST_COMMITS`` (newest first), then runs from the list's
    back; this process's lane: ``git rev-list --reverse``, then runs from its front. A run is read by one
    ``git log --no-walk=unsorted --stdin``."""
    with (
        MemorySampler() as memory,
        tempfile.TemporaryDirectory(prefix="bench-mine-floor-") as tmp,
    ):
        cpu, listed, failed = [], threading.Event(), []
        shas: list[bytes] = []
        claims = Claims()

        def git(args: list[str], stdin=None) -> None:
            proc = subprocess.Popen(args, cwd=cwd, stdin=stdin, stdout=subprocess.DEVNULL, env=LOG_ENV)
            _, status, used = os.wait4(proc.pid, 0)
            if os.waitstatus_to_exitcode(status):
                failed.append(args)
            cpu.append(used.ru_utime + used.ru_stime)

        def read(from_front: bool) -> None:
            while run := claims.take(from_front):
                chunk = Path(tmp) / f"chunk-{run[0]}"
                chunk.write_bytes(b"".join(shas[run[0] : run[1]]))
                with chunk.open("rb") as handle:
                    git(log_stdin_args(stats), handle)

        def child_lane() -> None:
            newest = log_args("HEAD", stats)
            newest.insert(-2, f"--max-count={claims.newest(NEWEST_COMMITS)}")
            git(newest)
            listed.wait()
            read(from_front=False)

        started = time.perf_counter()
        lane = threading.Thread(target=child_lane)
        lane.start()
        revs = Path(tmp) / "revs"
        with revs.open("wb") as out:
            listing = subprocess.Popen(
                ["git", *MEMORY_LIMITS, "rev-list", "--reverse", "HEAD", "--"], cwd=cwd, stdout=out, env=ENV
            )
            _, _, usage = os.wait4(listing.pid, 0)
        cpu.append(usage.ru_utime + usage.ru_stime)
        shas.extend(revs.read_bytes().splitlines(keepends=True))
        claims.listed(len(shas))
        listed.set()
        read(from_front=True)
        lane.join()
        wall = time.perf_counter() - started
    if failed:
        raise SystemExit(f"{failed[0]} failed")
    return wall, memory.rss, sum(cpu), memory.pss


def emit(name: str, **fields) -> None:
    print(json.dumps({"name": name, **fields}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--commits", type=int, default=60_000)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--stats", action="store_true", help="also time `mine sync --full --stats`")
    parser.add_argument(
        "--repo", type=Path, help="measure this history (one built by an earlier run) instead"
    )
    parser.add_argument(
        "--commit-graph",
        action="store_true",
        help="measure with a commit-graph file (what `git gc` writes by default), removed again at the end",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-mine-scale-") as tmp:
        repo = args.repo or Path(tmp) / "repo"
        if args.repo is None:
            repo.mkdir()
            subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True, env=ENV)
            started = time.perf_counter()
            build_history(repo, args.commits)
            emit("history_built", commits=args.commits, seconds=round(time.perf_counter() - started, 1))
        else:
            args.commits = int(
                subprocess.run(
                    ["git", "rev-list", "--count", "HEAD"],
                    cwd=repo,
                    check=True,
                    capture_output=True,
                    text=True,
                ).stdout
            )
        graph = repo / ".git" / "objects" / "info" / "commit-graph"
        wrote_graph = args.commit_graph and not graph.exists()
        if wrote_graph:
            subprocess.run(["git", "commit-graph", "write", "--reachable"], cwd=repo, check=True, env=ENV)
        try:
            measure(args, repo, graph.exists())
        finally:
            if wrote_graph:
                graph.unlink()


def measure(args: argparse.Namespace, repo: Path, commit_graph: bool) -> None:
    """Every figure on the history in ``repo``, interleaved runs, medians of ``args.repeat``."""
    ork = [sys.executable, "-m", "orkestra", "mine", "sync", "--full"]
    cpu = {}  # the medians of the run without --stats: where the CPU goes, next to cz's below
    for stats in [False, True] if args.stats else [False]:
        floor, single, ours = [], [], []
        for _ in range(args.repeat):  # interleaved, so load drifts hit both alike
            floor.append(run_split_floor(repo, stats))
            single.append(run_measured(log_args("HEAD", stats=stats, reverse=True), repo, LOG_ENV))
            ours.append(run_measured(ork + (["--stats"] if stats else []), repo))
        f, g, o = (statistics.median(r[0] for r in runs) for runs in (floor, single, ours))
        fc, gc, oc = (statistics.median(r[2] for r in runs) for runs in (floor, single, ours))
        if not stats:
            cpu = {"gits": fc, "single": gc, "ours": oc}
        peak = {
            name: (round(max(r[1] for r in runs)), round(max(r[3] for r in runs)))
            for name, runs in (("ours", ours), ("floor", floor), ("single", single))
        }
        emit(
            "mine_sync_full_vs_git_log",
            commits=args.commits,
            stats=stats,
            floor="the gits of a full sync in its two lanes: log --max-count + rev-list, then --stdin slices",
            git_floor_s=round(f, 2),
            mine_sync_s=round(o, 2),
            ratio=round(o / f, 2),
            target_ratio=2.0,
            git_floor_cpu_s=round(fc, 2),
            mine_sync_cpu_s=round(oc, 2),
            cpu_ratio=round(oc / fc, 2),
            old_floor="single git log --reverse (log_args)",
            single_git_log_s=round(g, 2),
            ratio_vs_single_git_log=round(o / g, 2),
            single_git_log_cpu_s=round(gc, 2),
            cpu_ratio_vs_single_git_log=round(oc / gc, 2),
            peak_rss_mb=peak["ours"][0],
            peak_pss_mb=peak["ours"][1],
            git_floor_peak_rss_mb=peak["floor"][0],
            git_floor_peak_pss_mb=peak["floor"][1],
            single_git_log_peak_rss_mb=peak["single"][0],
            target_rss_mb=200,
            commit_graph=commit_graph,
            load_average=os.getloadavg()[0],
        )
    # commitizen reads `git log` without file lists (no tree diffs), so it can beat our floor
    cz = shutil.which("cz") or str(Path(sys.executable).parent / "cz")
    if Path(cz).exists():
        theirs, ours = [], []
        for _ in range(args.repeat):  # interleaved
            theirs.append(run_measured([cz, "changelog", "--dry-run"], repo))
            ours.append(run_measured(ork, repo))
        t, o = (statistics.median(r[0] for r in runs) for runs in (theirs, ours))
        tc, oc = (statistics.median(r[2] for r in runs) for runs in (theirs, ours))
        # what cz reads: the log without --name-status (no tree diffs), next to the log we need
        # (without --diff-merges too: with no diff format of its own, git 2.39 shows merges as patches there)
        skip = ("--name-status", "--diff-merges=first-parent")
        bare = run_measured([a for a in log_args("HEAD", reverse=True) if a not in skip], repo, LOG_ENV)
        emit(
            "mine_sync_full_vs_cz_changelog",
            commits=args.commits,
            cz_changelog_dry_run_s=round(t, 2),
            mine_sync_s=round(o, 2),
            ratio_cz_over_sync=round(t / o, 2),
            target="> 1",
            cz_cpu_s=round(tc, 2),
            mine_sync_cpu_s=round(oc, 2),
            cpu_ratio_cz_over_sync=round(tc / oc, 2),
            cz_peak_rss_mb=round(max(r[1] for r in theirs)),
            git_log_without_files_s=round(bare[0], 2),
            git_log_without_files_cpu_s=round(bare[2], 2),
            # why, in CPU seconds: git's tree diffs alone (the single log less the log without files), the
            # gits of the two lanes, our Python (the sync less its gits), and the wall time of that CPU on
            # two idle cores (perfect overlap): cz is faster unless that bound is below cz's own wall time
            tree_diffs_cpu_s=round(cpu["single"] - bare[2], 2),
            sync_gits_cpu_s=round(cpu["gits"], 2),
            sync_python_cpu_s=round(cpu["ours"] - cpu["gits"], 2),
            sync_wall_bound_on_2_cores_s=round(cpu["ours"] / 2, 2),
            commit_graph=commit_graph,
            load_average=os.getloadavg()[0],
        )
    else:
        emit("mine_sync_full_vs_cz_changelog", skipped="commitizen not installed (pip install commitizen)")


if __name__ == "__main__":
    main()
