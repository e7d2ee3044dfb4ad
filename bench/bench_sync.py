"""Sync at blog scale: 46 agents, 706 skills (466 core + 240 vendor), 476 decisions, 100 truths.

Generates the workspace in a temp dir and times, in-process (library calls, modules
already imported, templates not yet compiled): a cold sync of an empty output tree, then
a no-op sync. ``--scale N`` multiplies every count. Prints one JSON line per measurement:
wall-clock median and min, and the median user CPU (our code, without kernel I/O time).

    .venv/bin/python bench/bench_sync.py [--scale 10] [--repeat 3] [--dir /dev/shm]

``--cli`` (#17) instead times ``orkestra sync`` as a subprocess on the synced workspace, round
robin with ``python -c pass`` (the floor, target <= 3x): the no-op answered from the stamp
(``orkestra.render.freshness``), ``sync --check`` likewise, and the full no-op check as every no-op ran
before the stamp (typer, yaml, pydantic, hashing every input: the stamp removed first). Median
wall and child CPU per command, and the same-run ratios to the floor.

    .venv/bin/python bench/bench_sync.py --cli [--scale 1] [--repeat 20]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import yaml

from orkestra.render.sync import sync

FOLDERS = {"K0": "foundations", "K1": "identities", "K2": "domains", "K3": "stacks", "K4": "project"}
TYPES = {
    "workflow": "## Steps\n\n1. Do it.\n2. Check it.\n",
    "discipline": "## Rules\n\n- Always do it.\n",
    "checklist": "## Checklist\n\n- [ ] Confirm it.\n",
}
DOMAINS = [
    "pipeline",
    "search",
    "data-architecture",
    "agent-design",
    "security",
    "infrastructure",
    "analytics",
    "authentication",
    "performance",
    "testing",
    "frontend",
    "observability",
]


def dump(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(yaml.safe_dump(data, sort_keys=False))


def skill_md(name: str, tier: str, kind: str, scope: str | None, source: str = "core") -> str:
    meta = {
        "identifier": name,
        "name": name,
        "type": kind,
        "layer": tier,
        "semantic_folder": FOLDERS[tier],
        "source": source,
        "last_updated": "2026-01-17",
        "description": f"Guidance for {name.replace('-', ' ')} in this codebase. Use when working on {name}.",
    }
    if scope:
        meta["scope"] = scope
    front = yaml.safe_dump(
        {
            "metadata": meta,
            "frontmatter": {"tags": [FOLDERS[tier], kind], "allowed_tools": ["Read", "Grep", "Bash"]},
        },
        sort_keys=False,
    )
    body = (
        f"# {name}\n\n## When to use\n\nWhen working on {name}.\n\n{TYPES[kind]}\n"
        "## Success criteria\n\n- Verified by a command.\n\n## Failure recovery\n\n- Revert and retry.\n"
    )
    return f"---\n{front}---\n{body}"


def generate(root: Path, scale: int) -> dict:
    n_agents, n_core, n_vendor, n_decisions, n_truths = (
        46 * scale,
        466 * scale,
        240 * scale,
        476 * scale,
        100 * scale,
    )
    reg = root / "registries"
    (root / "orkestra.yaml").write_text("version: 1\nproject: bench\n")
    for kind, count in (("identities", 27), ("mindsets", 11), ("styles", 10)):
        dump(
            reg / f"{kind}.yaml",
            {
                kind: {
                    f"{kind[:-1]}-{i}": {
                        "description": f"{kind} {i}",
                        "prompt": f"You are {kind} number {i}.",
                    }
                    for i in range(count)
                }
            },
        )
    dump(
        reg / "values.yaml",
        {"values": [{"id": f"value-{i}", "title": f"Value {i}", "text": "Be good."} for i in range(4)]},
    )
    tiers = ["K0"] * 5 + ["K1", "K2", "K3", "K4"] * ((n_core - 5) // 4 + 1)
    kinds = list(TYPES)
    n_scopes = 30 * scale
    core = []
    for i in range(n_core):
        tier, kind = tiers[i], kinds[i % 3]
        name = f"skill-{i}"
        scope = f"scope-{i % n_scopes}" if tier != "K0" else None
        path = reg / "skills" / FOLDERS[tier] / name / "SKILL.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(skill_md(name, tier, kind, scope))
        core.append((f"{FOLDERS[tier]}/{name}", scope))
    providers = ["aws", "supabase", "cloudflare", "vercel"]
    for i in range(n_vendor):
        path = root / "vendor" / providers[i % 4] / f"tool-{i}" / "SKILL.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            f"---\nname: tool-{i}\ndescription: Vendor tool {i}. Use when deploying with tool {i}.\n"
            f"allowed-tools: Bash Read\n---\n# Tool {i}\n\nRun it.\n"
        )
    dump(reg / "metadata.yaml", {"vendor_roots": [{"path": f"vendor/{p}", "provider": p} for p in providers]})
    scopes = {}
    for s in range(n_scopes):
        dormant = s % 5 == 4
        primaries = [] if dormant else [ref for ref, scope in core if scope == f"scope-{s}"][:12]
        scopes[f"scope-{s}"] = {"description": f"Scope {s}", "primary_skills": primaries, "dormant": dormant}
    dump(reg / "scopes.yaml", {"scopes": scopes})
    dump(
        reg / "tools.yaml",
        {
            "builtin": ["Read", "Write", "Edit", "Bash", "Grep", "Glob", "Agent", "Task", "Skill"],
            "mcp_servers": {
                "maguyva": {
                    "description": "code context",
                    "guide": "Use it.",
                    "transport": {"command": "orkestra", "args": ["code", "serve"]},
                    "tools": {"intelligent_search": {"description": "s"}},
                }
            },
        },
    )
    for i in range(n_agents):
        agent = {
            "name": f"agent-{i}",
            "category": "bench",
            "description": f"Specialist {i}. Use proactively.",
            "identity": [f"identitie-{i % 27}", f"identitie-{(i + 5) % 27}"],
            "mindset": f"mindset-{i % 11}",
            "style": f"style-{i % 10}",
            "scopes": [f"scope-{(i * 3 + k) % n_scopes}" for k in range(4)],
            "domains": [DOMAINS[i % len(DOMAINS)]],
            "orchestrator": i == 0,
            "tools": {
                "builtin": (["Agent"] if i == 0 else []) + ["Read", "Grep", "Bash"],
                "mcp_tools": ["mcp__maguyva__intelligent_search"],
            },
            "tool_guides": ["maguyva"],
        }
        dump(reg / "agents" / f"agent-{i}.yaml", agent)
    decisions = root / "ai_assets/reference/decisions"
    codes = {d: "".join(w[0] for w in d.split("-")).upper().ljust(2, "X") for d in DOMAINS}
    dump(decisions / "registry.yaml", {"domains": {d: {"code": codes[d]} for d in DOMAINS}})
    for i in range(n_decisions):
        domain = DOMAINS[i % len(DOMAINS)]
        did = f"DEC-{codes[domain]}-{i:03d}"
        dump(
            decisions / "records" / f"{did}.yaml",
            {
                "id": did,
                "title": f"Decision {i}",
                "domain": domain,
                "status": "active",
                "created": "2026-01-26",
                "summary": f"We decided thing {i}.",
                "agent_guidance": {"do": ["Follow it"], "avoid": ["Ignoring it"]},
                "files": [f"src/module_{i}.py"],
            },
        )
    for p in range(5):
        statements = [
            {
                "id": f"GT-P{p}-{i:03d}",
                "status": ["current", "tentative", "deprecated"][i % 3],
                "statement": f"Truth {i} of package {p}.",
                "tags": ["architecture" if i % 2 else "product"],
                "last_verified": "2026-11-01",
                **({"superseded_by": f"GT-P{p}-{i - 1:03d}"} if i % 3 == 2 else {}),
            }
            for i in range(n_truths // 5)
        ]
        dump(
            root / f"packages/p{p}/ai_assets/reference/ground_truths.yaml",
            {
                "metadata": {
                    "title": f"Package {p}",
                    "last_updated": "2026-11-01",
                    "render": {"groups": [{"title": "Architecture", "tags": ["architecture"]}]},
                },
                "statements": statements,
            },
        )
    for d in DOMAINS:
        for f in ("decisions.md", "patterns.md", "anti-patterns.md", "evolution.md"):
            (root / "ai_assets/domains" / d).mkdir(parents=True, exist_ok=True)
            (root / "ai_assets/domains" / d / f).write_text(f"# {d} {f}\n")
    return {"agents": n_agents, "skills": n_core + n_vendor, "decisions": n_decisions, "truths": n_truths}


def measure(scale: int, repeat: int, base: str | None) -> None:
    cold, noop, user_cold, user_noop, written = [], [], [], [], 0
    for _ in range(repeat):
        root = Path(tempfile.mkdtemp(prefix="bench-sync-", dir=base))
        try:
            counts = generate(root, scale)
            start, user = time.perf_counter(), os.times().user
            report = sync(root)
            cold.append(time.perf_counter() - start)
            user_cold.append(os.times().user - user)
            written = len(report.applied.written)
            start, user = time.perf_counter(), os.times().user
            again = sync(root)
            noop.append(time.perf_counter() - start)
            user_noop.append(os.times().user - user)
            assert not again.applied.written and not again.applied.manifest_written
        finally:
            shutil.rmtree(root)
    for name, values, user in (("cold_sync_s", cold, user_cold), ("noop_sync_s", noop, user_noop)):
        print(
            json.dumps(
                {
                    "bench": "sync",
                    "scale": scale,
                    "measure": name,
                    "median": round(statistics.median(values), 3),
                    "min": round(min(values), 3),
                    "user_cpu_median": round(statistics.median(user), 3),
                    "runs": len(values),
                    "files_written": written,
                    "mode": "in-process library call",
                    "dir": base or tempfile.gettempdir(),
                    **counts,
                }
            )
        )


def _timed(args: list[str], cwd: Path, env: dict | None = None) -> tuple[float, float]:
    """(wall, child CPU) seconds of one subprocess run."""
    import resource
    import subprocess

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, cwd=cwd, capture_output=True, env={**os.environ, **(env or {})})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise SystemExit(f"{args} failed: {done.stderr.decode()[-400:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure_cli(scale: int, repeat: int, base: str | None) -> None:
    """The no-op ``orkestra sync`` from the CLI next to ``python -c pass``, in the same run."""
    import subprocess
    import sys

    cli = [sys.executable, "-m", "orkestra"]
    root = Path(tempfile.mkdtemp(prefix="bench-sync-cli-", dir=base))
    try:
        counts = generate(root, scale)
        for _ in range(2):  # the cold sync, then the no-op that finds it in sync and stamps it
            subprocess.run([*cli, "sync"], cwd=root, check=True, capture_output=True)
            time.sleep(0.1)  # past the racy window, so the stamp is trusted
        stamp = root / ".orkestra/cache/sync/fingerprint.json"
        assert stamp.is_file(), "the no-op sync wrote no stamp"
        runs = {
            "python -c pass": ([sys.executable, "-c", "pass"], None),
            "orkestra sync (no-op)": ([*cli, "sync"], None),
            "orkestra sync --check (no-op)": ([*cli, "sync", "--check"], None),
            "full no-op check (no stamp)": ([*cli, "sync", "--check"], {"ORKESTRA_NO_FASTPATH": "1"}),
        }
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
        for _ in range(repeat):
            for name, (args, env) in runs.items():
                if name.startswith("full"):
                    stamp.unlink()
                times[name].append(_timed(args, root, env))
                if name.startswith("full"):
                    subprocess.run([*cli, "sync"], cwd=root, check=True, capture_output=True)  # stamp again
                    time.sleep(0.1)
                    assert stamp.is_file()
        wall = {n: statistics.median(w for w, _ in t) for n, t in times.items()}
        cpu = {n: statistics.median(c for _, c in t) for n, t in times.items()}
        floor = "python -c pass"
        for name in runs:
            print(
                json.dumps(
                    {
                        "bench": "sync_cli",
                        "scale": scale,
                        "command": name,
                        "runs": repeat,
                        "median_ms": round(wall[name] * 1000, 1),
                        "min_ms": round(min(w for w, _ in times[name]) * 1000, 1),
                        "median_cpu_ms": round(cpu[name] * 1000, 1),
                        "ratio_to_python_pass": round(wall[name] / wall[floor], 2),
                        "cpu_ratio_to_python_pass": round(cpu[name] / cpu[floor], 2),
                        **({"target_ratio": 3.0} if "(no-op)" in name else {}),
                        "load_1min": round(os.getloadavg()[0], 1),
                        "cpus": os.cpu_count(),
                        **counts,
                    }
                )
            )
    finally:
        shutil.rmtree(root)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--scale", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--dir", help="Where to create the workspace (default: the temp dir; /dev/shm: no disk I/O)."
    )
    parser.add_argument(
        "--cli",
        action="store_true",
        help="Time the no-op `orkestra sync` from the CLI "
        "next to `python -c pass` (#17) instead of the in-process library calls.",
    )
    args = parser.parse_args()
    if args.cli:
        measure_cli(args.scale, args.repeat, args.dir)
    else:
        measure(args.scale, args.repeat, args.dir)
