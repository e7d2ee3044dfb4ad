"""Dogfood `orkestra import` on a public collection of hand-written Claude Code agents and skills.

    python bench/bench_import.py PATH [--json]

PATH is a checkout (or ``git --git-dir X.git worktree``-free export) of a collection such as
VoltAgent/awesome-claude-code-subagents or wshobson/agents; nothing from it is kept. Every
``*.md`` with agent frontmatter (``name`` + ``description``) becomes ``.claude/agents/<file>`` of
a scratch git repository, every ``*/SKILL.md`` folder a ``.claude/skills/<folder>/``; then
``init --minimal`` → ``import`` → ``sync`` → ``sync --check`` run there, and the script reports
how many files round-trip unchanged (bytes), up to whitespace, or differ, and how long each
step took next to the floor of copying the same files.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from orkestra.frontmatter import compare, parse_markdown


def is_agent(path: Path) -> bool:
    try:
        front, _ = parse_markdown(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError, yaml.YAMLError):
        return False
    return bool(front and front.get("name") and front.get("description")) and path.name != "SKILL.md"


def stage(collection: Path, repo: Path) -> tuple[int, int]:
    """Copy the collection's agents and skills into ``repo/.claude``; (agents, skills) copied."""
    agents, skills = repo / ".claude/agents", repo / ".claude/skills"
    agents.mkdir(parents=True)
    skills.mkdir(parents=True)
    n_agents = n_skills = 0
    for path in sorted(collection.rglob("*.md")):
        if ".git" in path.parts or not path.is_file():
            continue
        if path.name == "SKILL.md":
            target = skills / path.parent.name
            if not target.exists():
                shutil.copytree(path.parent, target, symlinks=True)
                n_skills += 1
        elif is_agent(path) and not (agents / path.name).exists():
            shutil.copy2(path, agents / path.name)
            n_agents += 1
    return n_agents, n_skills


def cli(repo: Path, *args: str) -> tuple[subprocess.CompletedProcess, float]:
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-m", "orkestra", *args], cwd=repo, capture_output=True, text=True, check=False
    )
    return result, time.perf_counter() - start


def run(collection: Path) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-import-") as scratch:
        repo = Path(scratch) / "repo"
        repo.mkdir()
        subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
        start = time.perf_counter()
        n_agents, n_skills = stage(collection, repo)
        copy_floor = time.perf_counter() - start
        originals = {
            p.relative_to(repo).as_posix(): p.read_bytes()
            for p in (repo / ".claude").rglob("*")
            if p.is_file()
        }
        timings = {}
        for step, args in (
            ("init", ("init", "--minimal")),
            ("import", ("import",)),
            ("sync", ("sync",)),
            ("sync_check", ("sync", "--check")),
        ):
            result, seconds = cli(repo, *args)
            timings[step] = round(seconds, 3)
            if result.returncode != 0 and step != "sync_check":
                return {"error": f"{step} failed: {result.stderr[-800:]}", "timings_s": timings}
            if step == "import":
                report = json.loads(result.stdout)
        after = {"identical": 0, "whitespace": 0, "differs": 0, "missing": 0}
        for rel, data in originals.items():
            path = repo / rel
            after["missing" if not path.is_file() else compare(data, path.read_bytes())] += 1
        return {
            "collection": str(collection),
            "agents": n_agents,
            "skills": n_skills,
            "files": len(originals),
            "import_round_trip": report["round_trip"],
            "skipped": len(report["skipped"]),
            "skip_reasons": sorted({s["reason"].split("(")[0].strip() for s in report["skipped"]})[:8],
            "after_sync": after,
            "in_sync_after": result.returncode == 0,
            "timings_s": timings,
            "copy_floor_s": round(copy_floor, 3),
            "import_vs_copy": round(timings["import"] / max(copy_floor, 1e-6), 1),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("collection", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.collection.resolve())
    if args.json or "error" in result:
        print(json.dumps(result, indent=2))
        return
    after = result["after_sync"]
    print(
        f"{result['agents']} agents, {result['skills']} skills, {result['files']} files from {result['collection']}"
    )
    print(
        f"after sync: {after['identical']} identical, {after['whitespace']} whitespace-only, "
        f"{after['differs']} differ, {after['missing']} missing; sync --check clean: {result['in_sync_after']}"
    )
    print(f"import skipped {result['skipped']}: {result['skip_reasons']}")
    print(f"timings (s): {result['timings_s']}; copy floor {result['copy_floor_s']} s")


if __name__ == "__main__":
    main()
