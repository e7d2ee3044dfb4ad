"""Changelog quality: `mine auto` against a repository's own CHANGELOG.md, next to a naive script.

Clones the repository into a temp dir, reads its committed CHANGELOG.md, runs `mine auto` with the
release-please format (no LLM, no hand work; the rendered file goes under .orkestra/ so the real
one is untouched) and scores both ours and a naive "feat/fix subjects in each tag range" baseline
on (version, short sha) entries: precision, recall, F1 over the versions the real changelog lists,
and section agreement over the matched entries (the same set of sections; the breaking-change
list carries no commit links in release-please's layout, so it is not scored here).
Prints one JSON line per system.

    python bench/bench_changelog.py --repo /tmp/release-please [--changelog CHANGELOG.md] [--packages root]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HEADING_RE = re.compile(r"^(?P<hashes>#{1,6}) (?P<title>.+?)\s*$")
VERSION_TITLE_RE = re.compile(r"^\[?v?(?P<version>\d[^\]\s()]*)\]?")
ITEM_RE = re.compile(r"^\s*[*-] ")
SHA_RE = re.compile(r"(?:commit/|\[|\()(?P<sha>[0-9a-f]{7,40})(?:\]|\)|\b)")
NAIVE_RE = re.compile(r"^(?P<type>feat|fix)(?:\([^)]*\))?!?: ")
BREAKING = "BREAKING CHANGES"


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout


def checkout_manifests(work: Path) -> None:
    """Check out only what mining reads from the work tree (package manifests, release-please config):
    mirrors may lack their largest blobs, and the history is all the benchmark needs."""
    from orkestra.mining.config import MANIFESTS

    wanted = {*MANIFESTS, "setup.py", "setup.cfg", "release-please-config.json"}
    names = git(work, "ls-tree", "-r", "--name-only", "-z", "HEAD").split("\0")
    picked = [n for n in names if n.rsplit("/", 1)[-1] in wanted and n.count("/") <= 2]
    if picked:
        subprocess.run(["git", "checkout", "HEAD", "--", *picked], cwd=work, check=True, capture_output=True)


def parse_changelog(text: str) -> dict[tuple[str, str], set[str]]:
    """(version, 7-char sha) → the sections it is listed under (``BREAKING CHANGES`` for the breaking list)."""
    entries: dict[tuple[str, str], set[str]] = {}
    version = section = None
    level = 0  # the depth of the current version heading ("#" for vue's minors, "##" or "###" elsewhere)
    for line in text.splitlines():
        heading = HEADING_RE.match(line)
        if heading:
            depth, title = len(heading["hashes"]), heading["title"].strip()
            number = VERSION_TITLE_RE.match(title)
            if number and depth <= 3:
                version, section, level = number["version"].rstrip("."), None, depth
            elif version and (depth > level or depth >= 3):
                title = title.strip("⚠️ :")
                section = BREAKING if "BREAKING" in title.upper() else title
            else:  # "## [Unreleased]" and other headings outside a version
                version = section = None
            continue
        if version and section and ITEM_RE.match(line):
            shas = SHA_RE.findall(line)
            if shas:
                entries.setdefault((version, shas[-1][:7]), set()).add(section)
    return entries


def naive_changelog(repo: Path) -> dict[tuple[str, str], set[str]]:
    """feat → Features, fix → Bug Fixes, for each tag's range since the previous version tag (by date)."""
    from orkestra.mining.changelog import PLAIN_TAG_RE

    out = git(repo, "for-each-ref", "--sort=creatordate", "--format=%(refname:short)", "refs/tags")
    tags = [t for t in out.split() if PLAIN_TAG_RE.match(t)]
    entries: dict[tuple[str, str], set[str]] = {}
    previous = None
    for tag in tags:
        revision = f"{previous}..{tag}" if previous else tag
        version = PLAIN_TAG_RE.match(tag)["version"]
        for line in git(repo, "log", "--format=%H %s", revision).splitlines():
            sha, _, subject = line.partition(" ")
            match = NAIVE_RE.match(subject)
            if match:
                entries.setdefault((version, sha[:7]), set()).add(
                    "Features" if match["type"] == "feat" else "Bug Fixes"
                )
        previous = tag
    return entries


def score(truth: dict, found: dict) -> dict:
    versions = {v for v, _ in truth}
    found = {k: v for k, v in found.items() if k[0] in versions}
    matched = truth.keys() & found.keys()
    precision = len(matched) / len(found) if found else 0.0
    recall = len(matched) / len(truth) if truth else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    sections = sum((truth[k] - {BREAKING}) == (found[k] - {BREAKING}) for k in matched)
    return {
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "section_agreement": round(sections / len(matched), 4) if matched else 0.0,
        "truth_entries": len(truth),
        "found_entries": len(found),
        "matched": len(matched),
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repo", required=True, type=Path, help="a git work tree or bare repository")
    parser.add_argument(
        "--changelog", default="CHANGELOG.md", help="the repository's changelog (path at HEAD)"
    )
    parser.add_argument("--packages", default="root", choices=["root", "per-package", "both"])
    parser.add_argument("--show-misses", type=int, default=0, help="print this many misses of each kind")
    args = parser.parse_args()

    from orkestra.mining.auto import run_auto
    from orkestra.mining.config import load_mining_paths

    with tempfile.TemporaryDirectory(prefix="bench-changelog-") as tmp:
        work = Path(tmp) / "repo"
        subprocess.run(["git", "clone", "-q", "--no-checkout", str(args.repo), str(work)], check=True)
        checkout_manifests(work)
        truth = parse_changelog(git(work, "show", f"HEAD:{args.changelog}"))
        rendered = ".orkestra/bench/CHANGELOG.md"
        (work / "orkestra.yaml").write_text(
            f"mining:\n  changelog:\n    format: release-please\n    packages: {args.packages}\n"
            f"    path: {rendered}\n"
        )
        paths = load_mining_paths(work)
        start = time.perf_counter()
        result = run_auto(paths)
        seconds = time.perf_counter() - start
        ours = parse_changelog((work / rendered).read_text(encoding="utf-8"))
        start = time.perf_counter()
        naive = naive_changelog(work)
        naive_seconds = time.perf_counter() - start
        repo = args.repo.resolve().as_posix()
        for name, found, took, extra in (
            ("mine auto", ours, seconds, {"recorded": result["recorded"], "released": result["released"]}),
            ("naive feat/fix in tag range", naive, naive_seconds, {}),
        ):
            row = {"repo": repo, "system": name, **score(truth, found), "seconds": round(took, 2), **extra}
            print(json.dumps(row))
        if args.show_misses:
            versions = {v for v, _ in truth}
            mine = {k: v for k, v in ours.items() if k[0] in versions}
            for label, keys in (
                ("missed", sorted(truth.keys() - mine.keys())),
                ("extra", sorted(mine.keys() - truth.keys())),
                (
                    "section",
                    sorted(
                        k for k in truth.keys() & mine.keys() if truth[k] - {BREAKING} != mine[k] - {BREAKING}
                    ),
                ),
            ):
                for key in keys[: args.show_misses]:
                    subject = git(work, "log", "-1", "--format=%s", key[1]).strip()
                    print(
                        f"# {label} {key} truth={sorted(truth.get(key, ()))} ours={sorted(mine.get(key, ()))}"
                        f" {subject}",
                        file=sys.stderr,
                    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
