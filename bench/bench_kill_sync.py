"""kill -9 ``orkestra sync`` at random moments: every run must end old or new, with no debris.

Generates bench_sync.py's workspace at ``--scale`` (10: 460 agents, 7,060 skills, 4,760
decisions), syncs it once (the *old* tree), then changes the inputs so that the next sync
rewrites every skill, deletes a tenth of the agents and adds new ones (the *new* tree,
rendered once in a copy for reference). Each trial restores the old tree, starts
``orkestra sync`` as a subprocess and SIGKILLs it at a random moment. Even trials draw the
delay uniformly from ``[--from, --to]`` × the duration of an uninterrupted run (loading and
rendering take most of a run); odd trials wait until the apply journal appears and kill after
a delay drawn uniformly from ``[0, 1]`` × the apply phase of the reference run (journal
created → journal deleted), so half the
kills land while temp files are staged or renamed — the moments that can leave a mix. Trial trees are hard-linked copies of the pristine
one (sync never writes a file in place, and the script checks the pristine tree is untouched
at the end). Then it classifies the output tree:

* ``raw``: as the kill left it (``old``, ``new``, or ``mid-apply`` while a journal is
  pending — the next run finishes or undoes it);
* ``after``: after the next ``orkestra sync --check`` (which completes or rolls back an
  interrupted apply first). This must be ``old`` or ``new`` for every run, and no
  ``.orkestra-tmp`` file or journal may be left: ``debris`` must be 0.

Prints one JSON line with the counts; exits 1 if any run ended mixed or left debris.

    .venv/bin/python bench/bench_kill_sync.py [--scale 10] [--kills 20] [--seed 14] [--dir /dev/shm]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_sync import generate

from orkestra.render.inputs import PACKAGED_TEMPLATES

JOURNAL_NAME = (
    "sync-journal.json"  # orkestra.render.journal.JOURNAL_NAME (literal: runs against older versions too)
)

OUTPUT_DIRS = (".claude",)
OUTPUT_FILES = (".mcp.json", "ai_assets/reference/DECISIONS.md")


def outputs(root: Path) -> dict[str, bytes]:
    """Every generated file (and the manifest) → bytes; what 'old' and 'new' are compared on."""
    found = {}
    for folder in OUTPUT_DIRS:
        for path in (root / folder).rglob("*"):
            if path.is_file() and not path.name.endswith(".orkestra-tmp"):
                found[path.relative_to(root).as_posix()] = path.read_bytes()
    for rel in OUTPUT_FILES:
        if (root / rel).is_file():
            found[rel] = (root / rel).read_bytes()
    for path in (root / "packages").rglob("GROUND_TRUTHS.md"):
        found[path.relative_to(root).as_posix()] = path.read_bytes()
    return found


def debris(root: Path) -> list[str]:
    """Temp files and journals left behind anywhere in the tree."""
    return sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.name.endswith(".orkestra-tmp") or p.name == JOURNAL_NAME
    )


def change_inputs(root: Path) -> None:
    """Inputs whose sync updates every skill, deletes some agents and creates others."""
    (root / "templates").mkdir(exist_ok=True)
    template = (PACKAGED_TEMPLATES / "skill.md.j2").read_text()
    (root / "templates/skill.md.j2").write_text(template.rstrip("\n") + "\n\n<!-- revision 2 -->\n")
    agents = sorted((root / "registries/agents").glob("*.yaml"))
    for index, path in enumerate(agents):
        if index % 10 == 1:
            path.unlink()
        elif index % 10 == 2:
            shutil.copy(path, path.with_name(f"new-{path.name}"))
            copy = path.with_name(f"new-{path.name}")
            copy.write_text(copy.read_text().replace(f"name: {path.stem}", f"name: new-{path.stem}"))


def cli(root: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "orkestra", *args], cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )


def classify(root: Path, old: dict[str, bytes], new: dict[str, bytes]) -> str:
    now = outputs(root)
    if now == old:
        return "old"
    if now == new:
        return "new"
    return "mid-apply" if (root / ".orkestra" / JOURNAL_NAME).exists() else "mixed"


def prepare(base: Path, scale: int) -> tuple[Path, dict[str, bytes], dict[str, bytes], float]:
    """(pristine workspace: old outputs + new inputs, old outputs, new outputs, seconds of a full run)."""
    pristine = base / "pristine"
    pristine.mkdir()
    generate(pristine, scale)
    first = cli(pristine, "sync")
    if first.wait() != 0:
        raise SystemExit(f"initial sync failed: {first.stderr.read().decode()}")
    old = outputs(pristine)
    change_inputs(pristine)
    reference = base / "reference"
    shutil.copytree(pristine, reference, symlinks=True)
    start = time.perf_counter()
    run = cli(reference, "sync")
    journal_seen = wait_for_journal(reference, run)
    journal = reference / ".orkestra" / JOURNAL_NAME
    while journal.exists():
        time.sleep(0.001)
    journal_gone = time.perf_counter()
    if run.wait() != 0:
        raise SystemExit(f"reference sync failed: {run.stderr.read().decode()}")
    duration = time.perf_counter() - start
    apply_s = journal_gone - (journal_seen or journal_gone)
    new = outputs(reference)
    shutil.rmtree(reference)
    return pristine, old, new, duration, apply_s


def wait_for_journal(root: Path, proc: subprocess.Popen) -> float | None:
    """Poll (every 2 ms) until the sync journal exists; the time it appeared, or None if the run ended."""
    journal = root / ".orkestra" / JOURNAL_NAME
    while proc.poll() is None:
        if journal.exists():
            return time.perf_counter()
        time.sleep(0.002)
    return None


def trials(scale: int, kills: int, seed: int, base: str | None, window: tuple[float, float]) -> dict:
    rng = random.Random(seed)
    work = Path(tempfile.mkdtemp(prefix="bench-kill-sync-", dir=base))
    counts = {
        "raw_old": 0,
        "raw_new": 0,
        "raw_mid_apply": 0,
        "raw_mixed": 0,
        "after_old": 0,
        "after_new": 0,
        "after_mixed": 0,
        "raw_debris_runs": 0,
        "debris_runs": 0,
        "finished_before_kill": 0,
        "apply_phase_trials": 0,
    }
    try:
        pristine, old, new, duration, apply_s = prepare(work, scale)
        for trial in range(kills):
            root = work / f"trial-{trial}"
            # hard links: sync never writes a file in place (temp file + rename), checked below
            shutil.copytree(pristine, root, symlinks=True, copy_function=os.link)
            in_apply = trial % 2 == 1
            delay = rng.uniform(0, 1.0) * apply_s if in_apply else rng.uniform(*window) * duration
            proc = cli(root, "sync")
            if in_apply:
                counts["apply_phase_trials"] += wait_for_journal(root, proc) is not None
            try:
                proc.wait(timeout=delay)
                counts["finished_before_kill"] += 1
            except subprocess.TimeoutExpired:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait()
            raw = classify(root, old, new)
            counts[f"raw_{raw.replace('-', '_')}"] += 1
            counts["raw_debris_runs"] += bool(debris(root))
            check = cli(root, "sync", "--check")
            check.wait()
            after = classify(root, old, new)
            counts[f"after_{after if after in ('old', 'new') else 'mixed'}"] += 1
            counts["debris_runs"] += bool(debris(root))
            shutil.rmtree(root)
        if outputs(pristine) != old:
            raise SystemExit("a trial wrote through a hard link into the pristine tree")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return {
        "bench": "kill_sync",
        "scale": scale,
        "kills": kills,
        "seed": seed,
        "window": list(window),
        "full_run_s": round(duration, 2),
        "apply_phase_s": round(apply_s, 2),
        "outputs_old": len(old),
        "outputs_new": len(new),
        **counts,
        "ended_old_or_new": counts["after_old"] + counts["after_new"],
        "ok": counts["after_mixed"] == 0 and counts["debris_runs"] == 0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scale", type=int, default=10)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--from", dest="start", type=float, default=0.3, help="Earliest kill, × a full run.")
    parser.add_argument("--to", dest="end", type=float, default=1.0, help="Latest kill, × a full run.")
    parser.add_argument("--dir", help="Where to create the workspaces (default: the temp dir).")
    args = parser.parse_args()
    result = trials(args.scale, args.kills, args.seed, args.dir, (args.start, args.end))
    print(json.dumps(result))
    sys.exit(0 if result["ok"] else 1)


if __name__ == "__main__":
    main()
