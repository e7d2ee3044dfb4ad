"""Commit → signals: type, scope, breaking, domains, packages, decision hints; pure.

Globs are fnmatch patterns on repo-relative POSIX paths where ``*`` also crosses ``/``
(so ``packages/api/**`` and ``packages/api/*`` both cover the whole tree below it).
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from orkestra.mining.conventional import ParsedCommit
from orkestra.mining.settings import DEFAULT_PACKAGE_ROOTS, MANIFESTS, MiningConfig

DEPENDENCY_FILES = frozenset(
    {
        *MANIFESTS,
        "requirements.txt",
        "setup.py",
        "setup.cfg",
        "Gemfile",
        "pom.xml",
        "build.gradle",
        "composer.json",
        "environment.yml",
    }
)
LOW_SIGNAL_TYPES = frozenset({"docs", "style", "test", "chore", "ci"})
ROOT_PACKAGE = "."
MAX_MEMOISED_PATHS = 200_000  # bounds memory on histories that touch millions of paths


def _glob_re(globs: list[str] | tuple[str, ...]) -> re.Pattern | None:
    if not globs:
        return None
    return re.compile("|".join(f"(?:{fnmatch.translate(g)})" for g in globs))


class PathSignals(NamedTuple):
    """What one path says, whichever commit touches it: computed once per distinct path."""

    domains: frozenset[int]  # indices into SignalExtractor.domain_paths whose globs match
    package: str
    infrastructure: bool
    dependency: bool


@dataclass(frozen=True)
class SignalExtractor:
    """Compiled mining settings: turns one parsed commit and its files into signals.

    Path globs are matched once per distinct path (``path_signals`` memoises), not per commit:
    a 60k-commit history touches a few thousand paths."""

    releasable: frozenset[str]
    domain_paths: tuple[tuple[str, re.Pattern | None, frozenset[str]], ...]
    packages: tuple[str, ...]  # package dirs, longest first
    infrastructure: re.Pattern | None
    _paths: dict[str, PathSignals] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def build(cls, config: MiningConfig, packages: list[str]) -> SignalExtractor:
        domains = tuple(
            (name, _glob_re(rule.paths), frozenset(s.lower() for s in rule.scopes))
            for name, rule in sorted(config.domains.items())
        )
        return cls(
            releasable=frozenset(t.lower() for t in config.releasable),
            domain_paths=domains,
            packages=tuple(sorted(packages, key=lambda p: (-len(p), p))),
            infrastructure=_glob_re(config.infrastructure),
        )

    def package_of(self, path: str) -> str:
        for package in self.packages:
            if path.startswith(package + "/"):
                return package
        return ROOT_PACKAGE

    def path_signals(self, path: str) -> PathSignals:
        """The signals of one path (memoised)."""
        known = self._paths.get(path)
        if known is None:
            known = PathSignals(
                frozenset(
                    i
                    for i, (_, paths, _) in enumerate(self.domain_paths)
                    if paths is not None and paths.match(path)
                ),
                self.package_of(path),
                self.infrastructure is not None and self.infrastructure.match(path) is not None,
                path.rsplit("/", 1)[-1] in DEPENDENCY_FILES,
            )
            if len(self._paths) < MAX_MEMOISED_PATHS:
                self._paths[path] = known
        return known

    def signals(self, parsed: ParsedCommit, files: tuple[str, ...], parents: int, stats: dict | None) -> dict:
        """The signals of one commit, as stored in the index and shown by ``mine candidates``."""
        known = self._paths
        packages = set()
        infrastructure = dependency = 0
        matched: set[int] = set()
        for path in files:
            signals = known.get(path) or self.path_signals(path)
            packages.add(signals.package)
            infrastructure += signals.infrastructure
            dependency += signals.dependency
            if signals.domains:
                matched.update(signals.domains)
        domains = []
        if self.domain_paths:
            scope = (parsed.scope or "").lower()
            domains = [
                name
                for i, (name, _, scopes) in enumerate(self.domain_paths)
                if scope in scopes or i in matched
            ]
        ctype, breaking = parsed.type, parsed.breaking
        is_merge = parents > 1 or parsed.is_merge
        return {
            "commit_type": ctype,
            "scope": parsed.scope,
            "breaking": breaking,
            "is_releasable_type": breaking or (ctype in self.releasable),
            "domains_affected": domains,
            "packages": sorted(packages) if packages else [ROOT_PACKAGE],
            "is_merge": is_merge,
            "is_revert": parsed.is_revert,
            "reverts": parsed.reverts,
            "reverted_type": parsed.reverted_type,
            "release_as": parsed.release_as,
            "infrastructure_files": infrastructure,
            "dependency_files": dependency,
            "decision_score": _score(
                ctype, breaking, is_merge, infrastructure, dependency, len(files), stats
            ),
        }


def _score(
    ctype: str | None, breaking: bool, is_merge: bool, infrastructure: int, dependency: int, files: int, stats
) -> int:
    score = 4 * breaking + 3 * bool(infrastructure) + 3 * bool(dependency) + (files >= 10) + 2 * (files >= 30)
    if stats is not None:
        changed = stats["insertions"] + stats["deletions"]
        score += (changed >= 200) + 2 * (changed >= 1000)
    if ctype in ("feat", "refactor", "perf"):
        score += 1
    if ctype in LOW_SIGNAL_TYPES or is_merge:
        score -= 2
    return score


def decision_score(signals: dict, files: int, stats: dict | None) -> int:
    """A deterministic hint that a commit holds an architectural decision (higher first)."""
    return _score(
        signals["commit_type"],
        signals["breaking"],
        signals["is_merge"],
        signals["infrastructure_files"],
        signals["dependency_files"],
        files,
        stats,
    )


def detect_packages(root: Path, config: MiningConfig) -> list[str]:
    """Package directories: the configured globs, or manifest-holding dirs under packages/*, libs/*, …"""
    if config.packages:
        return sorted(
            {p.relative_to(root).as_posix() for g in config.packages for p in root.glob(g) if p.is_dir()}
        )
    found = set()
    for pattern in DEFAULT_PACKAGE_ROOTS:
        for folder in root.glob(pattern):
            if folder.is_dir() and any((folder / m).is_file() for m in MANIFESTS):
                found.add(folder.relative_to(root).as_posix())
    return sorted(found)
