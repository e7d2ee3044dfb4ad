"""``mine candidates --for decisions``: commits ranked by the three-question test for decisions.

SPEC §6 asks of a decision: was it *hard to make*, is it *costly to change*, does it have
*system-wide impact*? Each question is answered from signals of the commit:

* hard to make — dependencies a manifest declares that the parent commit's did not, size (files, and
  lines when the index has ``--stats``);
* costly to change — ``BREAKING``, schema changes (schemas, migrations, models, SQL, protobuf, GraphQL),
  configuration changes (infrastructure globs, ``*.toml``/``*.yaml``/``*.ini``/``*.cfg`` files);
* system-wide impact — files spread across several mining domains or top-level folders.

Candidates are the commits still pending in the ``decisions`` ledger, ranked by how many questions
they answer yes, then by score, then oldest first; each carries its reasons so a reviewer sees why.
Reads only (the index, the ledger, and one ``git cat-file --batch`` for every manifest version compared).
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path

from orkestra.mining.config import MiningPaths
from orkestra.mining.index import load_index, read_state
from orkestra.mining.signals import DEPENDENCY_FILES, LOW_SIGNAL_TYPES
from orkestra.mining.status import processed_view

SCHEMA_GLOBS = (
    "*schema*.json",
    "*schema*.py",
    "*schema*.yaml",
    "*schema*.yml",
    "*.xsd",
    "*/migrations/*",
    "migrations/*",
    "*.sql",
    "*.proto",
    "*.graphql",
    "*.avsc",
    "*/models.py",
    "models.py",
)
CONFIG_GLOBS = (
    "*.toml",
    "*.ini",
    "*.cfg",
    "*.yaml",
    "*.yml",
    ".env*",
    "Dockerfile",
    "*/Dockerfile",
    ".github/*",
)
# Not configuration: the ledgers are data; docs, tests and examples illustrate, they do not configure.
IGNORED_CONFIG = (
    "ai_assets/reference/changelog/*",
    "docs/*",
    "doc/*",
    "tests/*",
    "test/*",
    "examples/*",
    "example/*",
    "*/tests/*",
    "*/fixtures/*",
)
PERIPHERAL_DIRS = frozenset(
    {
        "docs",
        "doc",
        "tests",
        "test",
        "examples",
        "example",
        "scripts",
        "benchmarks",
        "bench",
        ".github",
        "artwork",
    }
)  # a spread over these is not system-wide
QUESTIONS = ("hard_to_make", "costly_to_change", "system_wide")
MAX_DIFF_READS = (
    2_000  # newest commits touching a manifest whose dependencies are compared with their parent's
)


def _matches(path: str, globs: tuple[str, ...]) -> bool:
    return any(fnmatch.fnmatchcase(path, g) for g in globs)


def _requirement_name(spec: str) -> str:
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", spec)
    return match.group(1).lower().replace("_", "-") if match else ""


def dependency_names(name: str, text: str) -> set[str]:
    """The dependencies a manifest declares (pyproject, package.json, Cargo, requirements, go.mod)."""
    import json
    import tomllib

    found: set[str] = set()
    try:
        if name == "pyproject.toml":
            data = tomllib.loads(text)
            project = data.get("project") or {}
            specs = list(project.get("dependencies") or [])
            for extra in (project.get("optional-dependencies") or {}).values():
                specs += list(extra)
            for group in (data.get("dependency-groups") or {}).values():
                specs += [g for g in group if isinstance(g, str)]
            found = {_requirement_name(s) for s in specs if isinstance(s, str)}
            found |= set(data.get("tool", {}).get("poetry", {}).get("dependencies") or {})
        elif name == "package.json":
            data = json.loads(text)
            for key in ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies"):
                found |= set(data.get(key) or {})
        elif name == "Cargo.toml":
            data = tomllib.loads(text)
            for key in ("dependencies", "dev-dependencies", "build-dependencies"):
                found |= set(data.get(key) or {})
        elif name == "go.mod":
            found = {
                m.group(1)
                for m in re.finditer(r"^\s*(?:require\s+)?([a-z0-9.-]+\.[a-z]+/\S+)\s+v", text, re.MULTILINE)
            }
        elif name.startswith("requirements") or name.endswith(".txt"):
            found = {
                _requirement_name(line)
                for line in text.splitlines()
                if line.strip() and not line.lstrip().startswith(("#", "-"))
            }
    except (ValueError, AttributeError, TypeError):
        return set()
    return {f for f in found if f}


def read_blobs(root: Path, revisions: list[str]) -> dict[str, str]:
    """``rev:path`` → file text for every revision that names a blob, from one ``git cat-file --batch``."""
    if not revisions:
        return {}
    from orkestra import git

    proc = git.run(
        root, "cat-file", "--batch", input="\n".join(revisions).encode() + b"\n", text=False, timeout=120
    )
    out, found, at = proc.stdout, {}, 0
    for revision in revisions:
        eol = out.find(b"\n", at)
        if eol < 0:
            break
        header = out[at:eol].split()
        at = eol + 1
        if len(header) == 3 and header[1] == b"blob":
            size = int(header[2])
            found[revision] = out[at : at + size].decode("utf-8", "replace")
            at += size + 1
        elif len(header) == 3:  # a tree or commit: skip its body
            at += int(header[2]) + 1
    return found


def added_dependencies(commits: list[dict], root: Path) -> dict[str, dict[str, list[str]]]:
    """sha → {manifest: dependencies it declares that the commit's first parent did not}, for every
    manifest the commits changed (one ``git cat-file --batch`` for all of them)."""
    wanted: list[tuple[str, str, str, str | None]] = []  # (sha, path, name, parent)
    for commit in commits:
        parents = commit.get("parents") or []
        for path in commit["files_changed"]:
            name = path.rsplit("/", 1)[-1]
            if name in DEPENDENCY_FILES:
                wanted.append((commit["sha"], path, name, parents[0] if parents else None))
    revisions = [f"{sha}:{path}" for sha, path, _, _ in wanted]
    revisions += [f"{parent}:{path}" for _, path, _, parent in wanted if parent]
    blobs = read_blobs(root, revisions)
    added: dict[str, dict[str, list[str]]] = {}
    for sha, path, name, parent in wanted:
        after = dependency_names(name, blobs.get(f"{sha}:{path}", ""))
        before = dependency_names(name, blobs.get(f"{parent}:{path}", "")) if parent else set()
        if after - before:
            added.setdefault(sha, {})[path] = sorted(after - before)
    return added


def three_questions(commit: dict, deps: dict[str, list[str]]) -> tuple[dict[str, list[str]], int]:
    """(reasons per question, score) for one index record (pure)."""
    signals, files = commit["signals"], commit["files_changed"]
    hard, costly, wide = [], [], []
    score = 0
    if deps:
        hard.append(
            "new dependencies: " + "; ".join(f"{k}: {', '.join(v[:6])}" for k, v in sorted(deps.items()))
        )
        score += 3
    lines = (commit["stats"]["insertions"] + commit["stats"]["deletions"]) if commit.get("stats") else None
    if len(files) >= 10 or (lines or 0) >= 400:
        hard.append(f"size: {len(files)} files" + (f", {lines} lines" if lines is not None else ""))
        score += 1 + (len(files) >= 30 or (lines or 0) >= 1500)
    if signals["breaking"]:
        costly.append("BREAKING change")
        score += 5
    schema = [f for f in files if _matches(f, SCHEMA_GLOBS) and not _matches(f, IGNORED_CONFIG)]
    if schema:
        costly.append("schema changes: " + ", ".join(schema[:5]) + (" …" if len(schema) > 5 else ""))
        score += 3
    config = [
        f for f in files if _matches(f, CONFIG_GLOBS) and not _matches(f, IGNORED_CONFIG) and f not in schema
    ]
    if config or signals["infrastructure_files"]:
        costly.append(
            "config changes: "
            + (", ".join(config[:5]) or f"{signals['infrastructure_files']} infrastructure file(s)")
            + (" …" if len(config) > 5 else "")
        )
        score += 2
    domains = signals["domains_affected"]
    tops = sorted({f.split("/", 1)[0] for f in files if "/" in f} - PERIPHERAL_DIRS)
    if len(domains) >= 2:
        wide.append(f"{len(domains)} domains: {', '.join(domains)}")
        score += min(6, 2 * (len(domains) - 1))
    elif len(tops) >= 3:
        wide.append(f"{len(tops)} top-level folders: {', '.join(tops[:6])}")
        score += 1
    if signals["commit_type"] in ("feat", "refactor", "perf"):
        score += 1
    if signals["commit_type"] in LOW_SIGNAL_TYPES:
        score -= 2
    if signals["is_merge"]:  # its changes belong to the merged commits, which are candidates themselves
        return {
            "hard_to_make": [],
            "costly_to_change": [],
            "system_wide": [],
            "merge": ["a merge commit"],
        }, -3
    return {"hard_to_make": hard, "costly_to_change": costly, "system_wide": wide}, score


def decision_candidates(
    paths: MiningPaths, limit: int | None = 50, domain: str | None = None, full: bool = False
) -> dict:
    """Commits pending in the decisions ledger, ranked by the three-question test (see module docstring)."""
    read_state(paths, required=True)
    view = processed_view(paths)
    pending = [
        (position, commit)
        for position, (sha, commit) in enumerate(load_index(paths).items())
        if (sha, "decisions") not in view
        and not (domain and domain not in commit["signals"]["domains_affected"])
    ]
    with_manifests = [c for _, c in pending if c["signals"]["dependency_files"]][-MAX_DIFF_READS:]  # newest
    new_deps = added_dependencies(with_manifests, paths.root)
    rows = []
    for position, commit in pending:
        questions, score = three_questions(commit, new_deps.get(commit["sha"], {}))
        yes = sum(bool(questions[q]) for q in QUESTIONS)
        rows.append((-yes, -score, position, commit, questions, score, yes))
    rows.sort(key=lambda r: r[:3])
    candidates = []
    for _, _, _, commit, questions, score, yes in rows[:limit]:
        item = {
            "sha": commit["sha"],
            "date": commit["date"][:10],
            "subject": commit["subject"],
            "questions_yes": yes,
            "score": score,
            "questions": questions,
            "domains": commit["signals"]["domains_affected"],
            "files": len(commit["files_changed"]),
        }
        if full:
            item |= {
                "body": commit["body"],
                "files_changed": commit["files_changed"],
                "stats": commit["stats"],
            }
        candidates.append(item)
    return {"for": "decisions", "pending": len(rows), "candidates": candidates}
