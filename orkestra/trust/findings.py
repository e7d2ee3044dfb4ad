"""What the trust review reports: findings, per-skill audits and their JSON shapes.

A finding is one suspicious thing at one place (rule id, severity, file, line, excerpt).
A skill is *flagged* when it has at least one ``high`` finding; ``skills audit`` exits 1 then.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Literal

Severity = Literal["high", "medium", "low", "info"]
SEVERITIES: tuple[Severity, ...] = ("high", "medium", "low", "info")
_RANK = {name: index for index, name in enumerate(SEVERITIES)}

EXCERPT_CHARS = 120


def downgrade(severity: Severity, steps: int = 1) -> Severity:
    """``severity`` lowered by ``steps`` levels (never below info)."""
    return SEVERITIES[min(_RANK[severity] + steps, len(SEVERITIES) - 1)]


def excerpt(text: str) -> str:
    """A one-line, printable, bounded excerpt; invisible characters are shown as ``<U+XXXX>``."""
    text = text.strip()[: EXCERPT_CHARS * 2]  # a 1 MB line costs what 240 characters cost
    shown = "".join(ch if ch.isprintable() or ch == " " else f"<U+{ord(ch):04X}>" for ch in text.strip())
    return shown if len(shown) <= EXCERPT_CHARS else shown[: EXCERPT_CHARS - 1] + "…"


@dataclass(frozen=True, slots=True)
class Finding:
    """One suspicious construct: which rule, how bad, and where."""

    rule: str
    severity: Severity
    file: str
    line: int
    excerpt: str
    message: str

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class SkillAudit:
    """Every finding of one skill directory, sorted by severity then place."""

    name: str
    path: str
    findings: tuple[Finding, ...] = field(default_factory=tuple)

    @property
    def flagged(self) -> bool:
        return any(f.severity == "high" for f in self.findings)

    def counts(self) -> dict[str, int]:
        counts = dict.fromkeys(SEVERITIES, 0)
        for finding in self.findings:
            counts[finding.severity] += 1
        return counts

    def summary(self) -> dict:
        return {"flagged": self.flagged, **self.counts()}

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "path": self.path,
            "summary": self.summary(),
            "findings": [f.to_dict() for f in self.findings],
        }


def sort_findings(findings: list[Finding]) -> tuple[Finding, ...]:
    """Most severe first, then by file and line; repeats of one finding at one line removed."""
    unique: dict[tuple, Finding] = {}
    for finding in findings:
        unique.setdefault(
            (finding.rule, finding.severity, finding.file, finding.line, finding.message), finding
        )
    return tuple(sorted(unique.values(), key=lambda f: (_RANK[f.severity], f.file, f.line, f.rule)))


@dataclass(frozen=True, slots=True)
class AuditReport:
    """The result of ``skills audit``: one audit per skill plus totals."""

    audits: tuple[SkillAudit, ...]

    @property
    def flagged(self) -> bool:
        return any(a.flagged for a in self.audits)

    def to_dict(self) -> dict:
        totals = dict.fromkeys(SEVERITIES, 0)
        for audit in self.audits:
            for severity, count in audit.counts().items():
                totals[severity] += count
        return {
            "summary": {
                "skills": len(self.audits),
                "flagged": sum(a.flagged for a in self.audits),
                "findings": totals,
            },
            "skills": [a.to_dict() for a in self.audits],
        }
