"""What the type and value pass costs: cold index time of a corpus, this tree against a baseline commit.

Both run in this process's machine conditions, alternating (baseline, current, baseline, …), so the
ratio survives a loaded machine. The baseline is ``git archive <ref> maguyva orkestra`` of this
repository (default ``HEAD~1``; pass the commit before the call-graph work). The corpus defaults to a
copy of the running interpreter's standard library (``bench/bench_index.py``'s corpus).

    python bench/bench_callgraph_cost.py --baseline <commit> [--corpus DIR] [--rounds 2]

Prints one JSON line per run (wall ``seconds`` and ``cpu_s``, the CPU time of the run and its
workers) and a summary with the median wall and CPU ratios (target: at most 1.30).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "bench"))

from bench_index import COLD, copy_stdlib  # noqa: E402 - after the sys.path line


def cold(code_root: Path, corpus: Path, store: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(code_root)}
    # run from the store's folder: ``python -c`` puts the working directory first on sys.path, and
    # from this checkout that would import the current code for the baseline too
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        [sys.executable, "-c", COLD, str(corpus), str(store)],
        env=env,
        check=True,
        capture_output=True,
        text=True,
        cwd=store.parent,
    ).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    store.unlink(missing_ok=True)
    result = json.loads(out.strip().splitlines()[-1])
    # CPU seconds of the run and its extraction workers: far steadier than wall time on a busy machine
    result["cpu_s"] = round(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 2)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="HEAD~1", help="commit to compare with")
    parser.add_argument("--corpus", type=Path, help="directory to index (default: a stdlib copy)")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        base = work / "baseline"
        base.mkdir()
        archive = subprocess.run(
            ["git", "archive", args.baseline, "maguyva", "orkestra"],
            cwd=REPO,
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        corpus = args.corpus or copy_stdlib(work / "stdlib")
        runs: dict[str, list[float]] = {"baseline": [], "current": []}
        cpu: dict[str, list[float]] = {"baseline": [], "current": []}
        for round_ in range(args.rounds):
            for label, root in (("baseline", base), ("current", REPO)):
                result = cold(root, corpus, work / f"{label}.db")
                runs[label].append(result["seconds"])
                cpu[label].append(result["cpu_s"])
                print(json.dumps({"round": round_, "code": label, **result}), flush=True)
        ratios = [c / b for b, c in zip(runs["baseline"], runs["current"])]
        cpu_ratios = [c / b for b, c in zip(cpu["baseline"], cpu["current"])]
        import maguyva

        print(
            json.dumps(
                {
                    "current_code": str(Path(maguyva.__file__).parent),
                    "baseline": args.baseline,
                    "baseline_s": runs["baseline"],
                    "current_s": runs["current"],
                    "median_ratio": round(statistics.median(ratios), 3),
                    "median_cpu_ratio": round(statistics.median(cpu_ratios), 3),
                    "target_ratio": 1.30,
                    "load_average": os.getloadavg()[0],
                }
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
