"""Changelog quality: `mine auto` against a repository's own CHANGELOG.md, next to a naive script.

Clones the repository into a temp dir, reads its committed CHANGELOG.md, runs `mine auto` with the
release-please format (no LLM, no hand work; the rendered file goes under .orkestra/ so the real
one is untouched) and scores both ours and a naive "feat/fix subjects in each tag range" baseline
on (version, short sha) entries: precision, recall, F1 over the versions the real changelog lists,
and section agreement over the matched entries (the same set of sections; the breaking-change
list carries no commit links in release-please's layout, so it is not scored here).
Prints one JSON line per system.

    python bench/bench_changelog.py --repo /tmp/release-please [--changelog CHANGELOG.md] [--packages root]

Histories without Conventional Commits (``--hand-written CHANGES.rst``): the project's hand-written
changelog names pull requests and issues (``:pr:`5730```, ``{issue}`2672```, ``(#7441)``,
```#14220 <…/issues/14220>`_``) under version headings (``Version 3.1.2`` + an rst underline,
``## 0.28.1 (…)``, ``pytest 9.1.1 (…)``). `mine auto` renders the history three times: as the old
code read it (``history: conventional``: only Conventional Commits), as it reads it now (``history:
auto``), and as it would if every low-confidence guess were taken as it is (``min_confidence: 0``:
at most what the review left to an agent could add). Each is scored per release present in both
(a tag the history has): **numbers** — the share of the hand-written changelog's numbers in a
release that the mined one names in that release too (micro over all numbers, and the median
release's share; ``hand_numbers_named_in_git``: how many of them any commit message or towncrier
fragment names at all, the ceiling for mining) — and **entries** — the share of mined entries in
those releases whose PR or issue numbers the hand-written release names (over every compared
release, and over those whose hand-written notes name any number). A pre-release tag
(``8.0.0a1``) counts as its final release.

    python bench/bench_changelog.py --repo /work/.mirror/pallets+flask/repo --hand-written CHANGES.rst
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
    from orkestra.mining.settings import MANIFESTS

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


HAND_NUMBER_RE = re.compile(
    r"[:{](?:issue|pr|pull|bug)[:}]`\s*(?P<a>\d+(?:\s*,\s*\d+)*)`"
    r"|(?<![\w&/])#(?P<b>\d+)\b"
    r"|/(?:issues|pull)/(?P<c>\d+)\b"
)
HAND_VERSION_RE = re.compile(
    r"^(?:[A-Za-z][\w-]*\s+)?\[?v?(?P<version>\d+(?:\.\d+)+(?:[a-z]+\d*)?)\]?(?:\s|$|[,:(])"
)
UNDERLINE_RE = re.compile(r"^([=\-~^*+#])\1{2,}\s*$")


def normal_version(version: str) -> str:
    """``2.0.0`` and ``2.0`` are one release; ``v1.2`` is ``1.2``; a pre-release (``8.0.0a1``, ``2.0.0rc2``)
    counts as its final release, as hand-written changelogs usually list them under it."""
    version = re.sub(r"(?:[-.]?(?:a|b|rc|alpha|beta|dev|pre)\.?\d*)+$", "", version.lstrip("v"))
    parts = version.split(".")
    while len(parts) > 2 and parts[-1] == "0":
        parts.pop()
    return ".".join(parts)


def hand_written_releases(text: str) -> dict[str, list[set[int]]]:
    """version → the numbered items of that release, each as its set of PR/issue numbers.

    A version heading is a Markdown heading or an underlined rst title whose text starts with a
    version (after at most one word: ``Version 3.1.2``, ``pytest 9.1.1``, ``[0.28.1]``); an item is a
    line starting with ``-``/``*`` plus its continuation lines."""
    lines = text.splitlines()
    releases: dict[str, list[set[int]]] = {}
    version = None
    item: set[int] | None = None
    for number, line in enumerate(lines):
        following = lines[number + 1] if number + 1 < len(lines) else ""
        title = None
        if line.startswith("#"):
            title = line.lstrip("#").strip()
        elif line.strip() and UNDERLINE_RE.match(following) and not UNDERLINE_RE.match(line):
            title = line.strip()
        if title is not None:
            found = HAND_VERSION_RE.match(title)
            if found:
                version = normal_version(found["version"])
                releases.setdefault(version, [])
                item = None
            continue
        if version is None:
            continue
        if re.match(r"^\s*[-*] ", line) and not UNDERLINE_RE.match(line):
            item = set()
            releases[version].append(item)
        elif not line.strip() and item is not None and not following.startswith((" ", "\t")):
            item = None
        numbers = {
            int(n)
            for m in HAND_NUMBER_RE.finditer(line)
            for n in re.findall(r"\d+", next(g for g in m.group("a", "b", "c") if g))
        }
        if numbers:
            if item is None:
                item = set()
                releases[version].append(item)
            item |= numbers
    return releases


def mined_releases(text: str) -> dict[str, list[set[int]]]:
    """version → each entry of a rendered keep-a-changelog file as its set of ``#N`` numbers."""
    releases: dict[str, list[set[int]]] = {}
    version = None
    for line in text.splitlines():
        if line.startswith("## "):
            found = HAND_VERSION_RE.match(line[3:].strip())
            version = normal_version(found["version"]) if found else None
            if version:
                releases.setdefault(version, [])
        elif version and line.startswith("- "):
            releases[version].append({int(n) for n in re.findall(r"#(\d+)\b", line)})
    return releases


def numbers_in_git(work: Path) -> set[int]:
    """Every ``#N`` any commit message names, and every towncrier fragment's number: what mining can see."""
    text = git(work, "log", "--format=%B", "--name-only", "HEAD")
    found = {int(n) for n in re.findall(r"#(\d+)\b", text)}
    found |= {int(n) for n in re.findall(r"(?:^|/)(?:changelog|changes|newsfragments)/(\d+)\.", text, re.M)}
    return found


def score_numbers(
    hand: dict[str, list[set[int]]], mined: dict[str, list[set[int]]], visible: set[int] | None = None
) -> dict:
    """Per release in both: hand-written numbers the mined release names; mined entries the hand one names."""
    common = sorted(set(hand) & set(mined))
    shares, named = [], 0
    total_numbers = matched_numbers = 0
    entries = entries_with_numbers = entries_matched = 0
    numbered_entries = numbered_matched = 0
    for version in common:
        truth = set().union(*hand[version]) if hand[version] else set()
        ours = set().union(*mined[version]) if mined[version] else set()
        if truth:
            named += 1
            shares.append(len(truth & ours) / len(truth))
            total_numbers += len(truth)
            matched_numbers += len(truth & ours)
        for entry in mined[version]:
            entries += 1
            entries_with_numbers += bool(entry)
            entries_matched += bool(entry & truth)
            if truth:  # a release whose hand-written notes name numbers at all
                numbered_entries += 1
                numbered_matched += bool(entry & truth)
    shares.sort()
    seen = (
        sum(len((set().union(*hand[v]) if hand[v] else set()) & visible) for v in common)
        if visible is not None
        else None
    )
    return {
        "releases_compared": len(common),
        "releases_with_numbers": named,
        "hand_numbers": total_numbers,
        "hand_numbers_named_in_git": seen,
        "numbers_found": matched_numbers,
        "numbers_share": round(matched_numbers / total_numbers, 4) if total_numbers else 0.0,
        "numbers_share_median_release": round(shares[len(shares) // 2], 4) if shares else 0.0,
        "mined_entries": entries,
        "mined_entries_with_numbers": entries_with_numbers,
        "mined_entries_in_hand": entries_matched,
        "entries_share": round(entries_matched / entries, 4) if entries else 0.0,
        "entries_in_numbered_releases": numbered_entries,
        "entries_share_numbered_releases": round(numbered_matched / numbered_entries, 4)
        if numbered_entries
        else 0.0,
    }


def hand_written_bench(args) -> int:
    """Both readings of a history scored against the project's hand-written changelog (one JSON line each)."""
    import shutil

    from orkestra.mining.auto import run_auto
    from orkestra.mining.config import load_mining_paths

    with tempfile.TemporaryDirectory(prefix="bench-changelog-") as tmp:
        work = Path(tmp) / "repo"
        subprocess.run(["git", "clone", "-q", "--no-checkout", str(args.repo), str(work)], check=True)
        checkout_manifests(work)
        hand = hand_written_releases(git(work, "show", f"HEAD:{args.hand_written}"))
        commits = int(git(work, "rev-list", "--count", "HEAD"))
        visible = numbers_in_git(work)
        rendered = ".orkestra/bench/CHANGELOG.md"
        for history, least in (("conventional", 0.7), ("auto", 0.7), ("auto", 0.0)):
            (work / "orkestra.yaml").write_text(
                f"mining:\n  changelog:\n    packages: root\n    path: {rendered}\n    history: {history}\n"
                f"    min_confidence: {least}\n"
            )
            shutil.rmtree(work / "ai_assets", ignore_errors=True)
            (work / rendered).unlink(missing_ok=True)
            start = time.perf_counter()
            result = run_auto(load_mining_paths(work))
            seconds = time.perf_counter() - start
            text = (work / rendered).read_text(encoding="utf-8") if (work / rendered).is_file() else ""
            row = {
                "repo": args.repo.resolve().as_posix(),
                "changelog": args.hand_written,
                "history_setting": history,
                "min_confidence": least,
                "read_as": result["history"],
                "commits": commits,
                "released": result["released"],
                "skipped": result["skipped"],
                "for_review": result["for_review"],
                **score_numbers(hand, mined_releases(text), visible),
                "seconds": round(seconds, 2),
            }
            print(json.dumps(row), flush=True)
    return 0


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
    parser.add_argument(
        "--hand-written",
        metavar="PATH",
        help="score against this hand-written changelog's PR and issue numbers (path at HEAD)",
    )
    args = parser.parse_args()
    if args.hand_written:
        return hand_written_bench(args)

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
