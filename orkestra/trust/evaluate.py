"""``skills evaluate``: the adoption rubric (five criteria) and the depth level (1–5) of a candidate.

All five criteria must hold to adopt (SPEC §7): fills_real_gap, well_structured,
actively_maintained, portable, tested. A criterion that cannot be determined from the
files (no date anywhere, nothing to test) is ``null`` with the reason, never guessed.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from orkestra.errors import OrkestraError
from orkestra.trust.conformance import CLAUDE_CODE_KEYS, SPEC_KEYS, TRIGGER_RE, spec_view, split_skill
from orkestra.trust.similarity import OVERLAP_THRESHOLD, Similar, profile, rank_similar

if TYPE_CHECKING:
    from orkestra.workspace import Workspace

MAINTAINED_DAYS = 183  # "commits in the last six months"
ATOMIC_SCRIPT_LINES = 300
STRONG_DESCRIPTION = (50, 400)
ASSET_DIRS = ("assets", "examples", "templates")
_ABSOLUTE_PATH = re.compile(r"(?<![\w.])(?:/Users/\w+|/home/\w+|[A-Za-z]:\\\\?[\w\\]+|/opt/homebrew)")
_OS_SPECIFIC = re.compile(
    r"\b(?:brew|apt-get|apt|yum|dnf|pacman|choco|winget|pbcopy|pbpaste|xdg-open|launchctl|"
    r"systemctl|powershell|osascript|defaults write)\b"
)
_GUARD = re.compile(
    r"\buname\b|sys\.platform|platform\.system|\$OSTYPE|os\.name|process\.platform|command -v|"
    r"\bwhich\b|shutil\.which|\bon (?:macos|linux|windows)\b",
    re.I,
)
_TEST_FILE = re.compile(
    r"(?:^|/)(?:test_[^/]+\.py|[^/]+_test\.(?:py|go|sh)|[^/]+\.(?:test|spec)\.[jt]s|tests?/)"
)


@dataclass(frozen=True, slots=True)
class Criterion:
    """One rubric criterion: pass (True/False/None when undeterminable) and why."""

    passed: bool | None
    reasons: tuple[str, ...]
    similar: tuple[Similar, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict:
        data: dict = {"pass": self.passed, "reasons": list(self.reasons)}
        if self.similar:
            data["similar"] = [s.to_dict() for s in self.similar]
        return data


@dataclass(frozen=True, slots=True)
class Depth:
    level: int
    signals: dict[str, bool]

    def to_dict(self) -> dict:
        return {"level": self.level, "signals": dict(self.signals)}


@dataclass(frozen=True, slots=True)
class Evaluation:
    name: str
    path: str
    criteria: dict[str, Criterion]
    depth: Depth

    @property
    def adopt(self) -> bool:
        return all(c.passed is True for c in self.criteria.values())

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "path": self.path,
            "adopt": self.adopt,
            "criteria": {k: c.to_dict() for k, c in self.criteria.items()},
            "depth": self.depth.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class Candidate:
    """A skill folder read once: its frontmatter view, body and files."""

    path: Path
    data: dict
    view: dict
    body: str
    files: tuple[str, ...]  # relative to the skill folder

    @property
    def name(self) -> str:
        return str(self.view.get("name") or self.path.name)

    @property
    def description(self) -> str:
        return str(self.view.get("description") or "")


def read_candidate(path: Path) -> Candidate:
    """Read a skill folder (or its SKILL.md) for evaluation or ingestion."""
    folder = path.parent if path.name == "SKILL.md" else path
    skill_md = folder / "SKILL.md"
    if skill_md.is_symlink():
        raise OrkestraError(f"{skill_md}: a symbolic link; a skill's SKILL.md is read only as a regular file")
    if not skill_md.is_file():
        raise OrkestraError(f"{path}: no SKILL.md here")
    data, body, _, error = split_skill(skill_md.read_text(encoding="utf-8"))
    if data is None:
        raise OrkestraError(f"{skill_md}: {error}")
    from orkestra.trust.folder import skill_files

    files = tuple(p.relative_to(folder).as_posix() for p in skill_files(folder)[0])  # links: never read
    return Candidate(folder, data, spec_view(data), body, files)


def similar_skills(ws: Workspace | None, candidate: Candidate, limit: int = 5) -> list[Similar]:
    """Existing workspace skills closest to the candidate (the candidate itself excluded)."""
    if ws is None:
        return []
    own = candidate.path.resolve()
    corpus = {
        (s.name, s.ref): profile(s.name, s.metadata.description, s.frontmatter.tags)
        for s in ws.skills.values()
        if (ws.root / s.source_dir).resolve() != own
    }
    return rank_similar(
        profile(candidate.name, candidate.description, candidate.view.get("tags") or []), corpus, limit
    )


def evaluate_skill(path: Path, ws: Workspace | None = None, today: dt.date | None = None) -> Evaluation:
    """The rubric and depth of the skill at ``path``, compared against ``ws``'s skills when given."""
    candidate = read_candidate(path)
    today = today or dt.date.today()
    criteria = {
        "fills_real_gap": _gap(candidate, ws),
        "well_structured": _structure(candidate),
        "actively_maintained": _maintained(candidate, today),
        "portable": _portable(candidate),
        "tested": _tested(candidate),
    }
    return Evaluation(candidate.name, candidate.path.as_posix(), criteria, depth_of(candidate))


def depth_of(candidate: Candidate) -> Depth:
    """Depth 1–5: the highest level whose signal is present; levels 3+ need the level-2 description."""
    files = candidate.files
    scripts = [f for f in files if f.startswith("scripts/")]
    atomic = bool(scripts) and all(
        (candidate.path / f).read_text(encoding="utf-8", errors="replace").count("\n") < ATOMIC_SCRIPT_LINES
        for f in scripts
    )
    signals = {
        "skill_md": True,
        "strong_description": _strong_description(candidate.description),
        "references": any(f.startswith("references/") for f in files),
        "atomic_scripts": atomic,
        "assets": any(f.split("/")[0] in ASSET_DIRS for f in files),
    }
    level = 1
    if signals["strong_description"]:
        level = 2
        for number, key in ((3, "references"), (4, "atomic_scripts"), (5, "assets")):
            if signals[key]:
                level = number
    return Depth(level, signals)


def _strong_description(description: str) -> bool:
    low, high = STRONG_DESCRIPTION
    return low <= len(description) <= high and bool(TRIGGER_RE.search(description))


def _gap(candidate: Candidate, ws: Workspace | None) -> Criterion:
    if ws is None:
        return Criterion(None, ("no workspace to compare against",))
    similar = tuple(similar_skills(ws, candidate))
    if similar and similar[0].score >= OVERLAP_THRESHOLD:
        return Criterion(
            False, (f"overlaps {similar[0].ref} (similarity {similar[0].score}); merge instead",), similar
        )
    best = f"closest is {similar[0].ref} ({similar[0].score})" if similar else "no similar skill"
    return Criterion(True, (f"{best}; below {OVERLAP_THRESHOLD}",), similar)


def _structure(candidate: Candidate) -> Criterion:
    problems = []
    sections = re.findall(r"^#{2,3}\s+\S", candidate.body, re.M)
    if len(sections) < 2:
        problems.append(f"{len(sections)} section heading(s); progressive disclosure needs at least 2")
    if not _strong_description(candidate.description):
        problems.append("description is not 50–400 characters with a trigger phrase ('Use when …')")
    lines = candidate.body.count("\n") + 1
    if lines > 500:
        problems.append(f"body has {lines} lines (keep under 500; move detail to references/)")
    return Criterion(not problems, tuple(problems) or (f"{len(sections)} sections, strong description",))


def _maintained(candidate: Candidate, today: dt.date) -> Criterion:
    date, source = candidate.view.get("last_updated"), "last_updated"
    if not date:
        date, source = _git_date(candidate.path), "git"
    if not date:
        return Criterion(None, ("no last_updated and no git history",))
    try:
        age = (today - dt.date.fromisoformat(str(date)[:10])).days
    except ValueError:
        return Criterion(None, (f"unreadable date {date!r}",))
    return Criterion(
        age <= MAINTAINED_DAYS, (f"{source} {str(date)[:10]}: {age} days ago (limit {MAINTAINED_DAYS})",)
    )


def _git_date(folder: Path) -> str | None:
    """Date of the last commit touching ``folder``, through the one git runner; None outside a repo."""
    from orkestra import git
    from orkestra.mining.git import Git

    try:
        root = Git(folder).root
    except OrkestraError:
        return None
    return git.output(root, "log", "-1", "--format=%cs", "--", str(folder.resolve())).strip() or None


def _portable(candidate: Candidate) -> Criterion:
    problems = []
    if not candidate.view["source_format"]:
        extra = sorted(set(map(str, candidate.data)) - SPEC_KEYS)
        if extra:
            kind = "Claude Code only" if set(extra) <= CLAUDE_CODE_KEYS else "non-spec"
            problems.append(f"{kind} frontmatter keys: {', '.join(extra)}")
    texts = {"SKILL.md": candidate.body}
    for rel in candidate.files:
        if rel.startswith(("scripts/", "references/")):
            texts[rel] = (candidate.path / rel).read_text(encoding="utf-8", errors="replace")
    for rel, text in texts.items():
        match = _ABSOLUTE_PATH.search(text)
        if match:
            problems.append(f"{rel}: absolute path {match.group(0)!r}")
        os_match = _OS_SPECIFIC.search(text)
        if os_match and not _GUARD.search(text):
            problems.append(f"{rel}: OS-specific command {os_match.group(0)!r} without a platform guard")
    return Criterion(
        not problems, tuple(problems) or ("spec keys only, no absolute paths or unguarded OS commands",)
    )


def _tested(candidate: Candidate) -> Criterion:
    tests = [f for f in candidate.files if _TEST_FILE.search(f)]
    scripts = [f for f in candidate.files if f.startswith("scripts/") and f not in tests]
    examples = [f for f in candidate.files if f.split("/")[0] in {"examples", "assets"}]
    example_section = re.search(r"^#{2,3}\s+examples?\b", candidate.body, re.M | re.I)
    if tests:
        return Criterion(True, (f"tests: {', '.join(tests[:3])}",))
    if scripts:
        return Criterion(False, (f"{len(scripts)} script(s) without tests",))
    if examples or example_section:
        return Criterion(
            True, ("worked examples" + (f": {', '.join(examples[:3])}" if examples else " in SKILL.md"),)
        )
    return Criterion(None, ("instructions only: nothing executable to test and no examples",))
