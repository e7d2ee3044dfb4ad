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
Reads only (the index, the ledger, and two ``git show`` per manifest a commit touches).
"""

from __future__ import annotations

import fnmatch
import re
import subprocess
from pathlib import Path

from orkestra.mining.config import MiningPaths
from orkestra.mining.index import load_index, read_state
from orkestra.mining.signals import DEPENDENCY_FILES, LOW_SIGNAL_TYPES
from orkestra.mining.status import processed_view

SCHEMA_GLOBS = ("*schema*", "*/migrations/*", "migrations/*", "*.sql", "*.proto", "*.graphql", "*.avsc",
                "*/models.py", "models.py")
CONFIG_GLOBS = ("*.toml", "*.ini", "*.cfg", "*.yaml", "*.yml", ".env*", "*/config.py", "*/settings.py",
                "Dockerfile", "*/Dockerfile", ".github/*")
IGNORED_CONFIG = ("ai_assets/reference/changelog/*",)  # the ledgers are data, not configuration
MAX_DIFF_READS = 300  # commits touching a manifest whose dependencies are compared with their parent's


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
            found = {m.group(1) for m in re.finditer(r"^\s*(?:require\s+)?([a-z0-9.-]+\.[a-z]+/\S+)\s+v",
                                                      text, re.MULTILINE)}
        elif name.startswith("requirements") or name.endswith(".txt"):
            found = {_requirement_name(line) for line in text.splitlines()
                     if line.strip() and not line.lstrip().startswith(("#", "-"))}
    except (ValueError, AttributeError, TypeError):
        return set()
    return {f for f in found if f}


def _show(root: Path, revision: str) -> str:
    proc = subprocess.run(["git", "show", revision], cwd=root, capture_output=True, text=True, check=False,
                          timeout=30)
    return proc.stdout if proc.returncode == 0 else ""


def added_dependencies(root: Path, commit: dict) -> dict[str, list[str]]:
    """Per manifest the commit changed: the dependencies it declares that its first parent did not."""
    parents = commit.get("parents") or []
    added: dict[str, list[str]] = {}
    for path in commit["files_changed"]:
        name = path.rsplit("/", 1)[-1]
        if name not in DEPENDENCY_FILES:
            continue
        after = dependency_names(name, _show(root, f"{commit['sha']}:{path}"))
        before = dependency_names(name, _show(root, f"{parents[0]}:{path}")) if parents else set()
        if after - before:
            added[path] = sorted(after - before)
    return added


def three_questions(commit: dict, deps: dict[str, list[str]]) -> tuple[dict[str, list[str]], int]:
    """(reasons per question, score) for one index record (pure)."""
    signals, files = commit["signals"], commit["files_changed"]
    hard, costly, wide = [], [], []
    score = 0
    if deps:
        hard.append("new dependencies: " + "; ".join(f"{k}: {', '.join(v[:6])}" for k, v in sorted(deps.items())))
        score += 3
    lines = (commit["stats"]["insertions"] + commit["stats"]["deletions"]) if commit.get("stats") else None
    if len(files) >= 10 or (lines or 0) >= 400:
        hard.append(f"size: {len(files)} files" + (f", {lines} lines" if lines is not None else ""))
        score += 1 + (len(files) >= 30 or (lines or 0) >= 1500)
    if signals["breaking"]:
        costly.append("BREAKING change")
        score += 5
    schema = [f for f in files if _matches(f, SCHEMA_GLOBS)]
    if schema:
        costly.append("schema changes: " + ", ".join(schema[:5]) + (" …" if len(schema) > 5 else ""))
        score += 3
    config = [f for f in files if _matches(f, CONFIG_GLOBS) and not _matches(f, IGNORED_CONFIG) and f not in schema]
    if config or signals["infrastructure_files"]:
        costly.append("config changes: " + (", ".join(config[:5]) or f"{signals['infrastructure_files']} "
                                            "infrastructure file(s)") + (" …" if len(config) > 5 else ""))
        score += 2
    domains = signals["domains_affected"]
    tops = sorted({f.split("/", 1)[0] for f in files if "/" in f})
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
    if signals["is_merge"]:
        score -= 3
    return {"hard_to_make": hard, "costly_to_change": costly, "system_wide": wide}, score


def decision_candidates(paths: MiningPaths, limit: int | None = 50, domain: str | None = None,
                        full: bool = False) -> dict:
    """Commits pending in the decisions ledger, ranked by the three-question test (see module docstring)."""
    read_state(paths, required=True)
    view = processed_view(paths)
    rows, reads = [], 0
    for position, (sha, commit) in enumerate(load_index(paths).items()):
        if (sha, "decisions") in view or (domain and domain not in commit["signals"]["domains_affected"]):
            continue
        deps = {}
        if commit["signals"]["dependency_files"] and reads < MAX_DIFF_READS:
            deps, reads = added_dependencies(paths.root, commit), reads + 1
        questions, score = three_questions(commit, deps)
        yes = sum(bool(v) for v in questions.values())
        rows.append((-yes, -score, position, commit, questions, score, yes))
    rows.sort(key=lambda r: r[:3])
    candidates = []
    for _, _, _, commit, questions, score, yes in rows[:limit]:
        item = {"sha": commit["sha"], "date": commit["date"][:10], "subject": commit["subject"],
                "questions_yes": yes, "score": score, "questions": questions,
                "domains": commit["signals"]["domains_affected"], "files": len(commit["files_changed"])}
        if full:
            item |= {"body": commit["body"], "files_changed": commit["files_changed"], "stats": commit["stats"]}
        candidates.append(item)
    return {"for": "decisions", "pending": len(rows), "candidates": candidates}
