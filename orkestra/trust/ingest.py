"""``skills ingest``: a vetted candidate normalised into ``registries/skills/<folder>/<name>/``.

The plan is built first and written only when the audit allows it: gap analysis (similar
skills), trust audit, depth, metadata normalisation (tier → semantic folder, type guessed
from the body, tags enriched, declared tools mapped onto the tools registry), section
alignment, and the files to copy. A skill in a dormant scope is only *registered*: its
``metadata.scope`` names the scope, and no agent or scope list is edited.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import yaml

from orkestra.errors import NotFoundError, OrkestraError, UsageError
from orkestra.fs.atomic import write_atomic
from orkestra.trust.audit import audit_skill_dir
from orkestra.trust.conformance import TRIGGER_RE
from orkestra.trust.evaluate import Candidate, depth_of, read_candidate, similar_skills
from orkestra.trust.findings import SkillAudit
from orkestra.trust.sections import AddedSection, align_sections
from orkestra.trust.shipped import is_agent_config
from orkestra.trust.similarity import STOPWORDS, tokens
from orkestra.workspace.models import TIER_FOLDER
from orkestra.workspace.validate import required_sections

if TYPE_CHECKING:
    from orkestra.workspace import Workspace

COPIED_DIRS = ("references", "scripts", "assets")  # what sync renders next to SKILL.md
MAX_TAGS = 8
_STEP = re.compile(r"^[ \t]*\d+[.)]\s+\S", re.M)
_RULE = re.compile(r"\b(?:always|never|prefer|must not|do not|don't)\b", re.I)
_CHECK = re.compile(r"^[ \t]*[-*]\s+\[[ xX]\]", re.M)


@dataclass(frozen=True, slots=True)
class IngestResult:
    """What ingestion decided, planned and (unless refused or dry-run) wrote."""

    status: str  # "written" | "dry-run" | "refused"
    name: str
    ref: str
    target: str
    similar: list
    audit: SkillAudit
    depth: dict
    metadata: dict
    sections_added: tuple[AddedSection, ...]
    files: tuple[str, ...]
    not_copied: tuple[str, ...]
    unmapped_tools: tuple[str, ...]
    scope_dormant: bool
    warnings: tuple[str, ...] = field(default_factory=tuple)

    @property
    def refused(self) -> bool:
        return self.status == "refused"

    def next_steps(self) -> list[str]:
        scope = self.metadata["metadata"]["scope"]
        if self.refused:
            return ["review the high findings; re-run with --accept-risk only after reading every script"]
        if self.scope_dormant:
            steps = [f"dormant scope {scope!r}: the skill loads only for agents that declare it in `scopes`"]
        else:
            steps = [f"add {self.ref!r} to scopes.{scope}.primary_skills to load it for agents of that scope"]
        return [*steps, "orkestra validate", "orkestra sync"]

    def to_dict(self) -> dict:
        return {
            "status": self.status,
            "similar": [s.to_dict() for s in self.similar],
            "name": self.name,
            "ref": self.ref,
            "target": self.target,
            "audit": {
                **self.audit.summary(),
                "findings": [f.to_dict() for f in self.audit.findings if f.severity in ("high", "medium")],
            },
            "depth": self.depth,
            "metadata": self.metadata["metadata"],
            "frontmatter": self.metadata["frontmatter"],
            "scope": {"name": self.metadata["metadata"]["scope"], "dormant": self.scope_dormant},
            "sections_added": [s.to_dict() for s in self.sections_added],
            "files": list(self.files),
            "not_copied": list(self.not_copied),
            "unmapped_tools": list(self.unmapped_tools),
            "warnings": list(self.warnings),
            "next_steps": self.next_steps(),
        }


def ingest_skill(
    ws: Workspace,
    path: Path,
    tier: str,
    scope: str,
    provider: str | None = None,
    *,
    accept_risk: bool = False,
    dry_run: bool = False,
    today: dt.date | None = None,
) -> IngestResult:
    """Plan the ingestion of the skill at ``path`` and write it unless refused or ``dry_run``."""
    if tier not in TIER_FOLDER:
        raise UsageError(f"--tier must be one of {', '.join(TIER_FOLDER)}, not {tier!r}")
    if scope not in ws.scopes:
        raise NotFoundError("scope", scope, ws.scopes)
    candidate = read_candidate(path)
    name = normalise_name(candidate.name)
    folder = TIER_FOLDER[tier]
    existing = ws.skill_by_ref()
    if name in existing or f"{folder}/{name}" in existing:
        raise OrkestraError(
            f"skill {name!r} already exists ({existing.get(name, existing.get(f'{folder}/{name}')).ref})"
            "; merge instead of ingesting it twice"
        )
    target = Path(ws.config.paths.registries) / "skills" / folder / name
    if (ws.root / target).exists():
        raise OrkestraError(f"{target.as_posix()} already exists")
    audit = audit_skill_dir(candidate.path, candidate.path.parent, name)
    skill_type = guess_type(candidate.body)
    tools, unmapped = map_tools(ws, candidate.view.get("allowed_tools") or [])
    metadata = _metadata(candidate, name, skill_type, tier, folder, scope, provider, today or dt.date.today())
    metadata["frontmatter"] = {"tags": enrich_tags(ws, candidate, provider), "allowed_tools": tools}
    body, added = align_sections(candidate.body, candidate.description, required_sections(skill_type))
    config = [rel for rel in candidate.files if _is_agent_config(candidate.path / rel)]
    copies = [rel for rel in candidate.files if rel.split("/")[0] in COPIED_DIRS and rel not in config]
    skipped = [rel for rel in candidate.files if rel != "SKILL.md" and rel not in copies]
    warnings = _warnings(candidate, unmapped, added) + [
        f"{rel}: agent configuration (hooks, permissions, MCP servers) is never copied, even with --accept-risk"
        for rel in config
    ]
    status = "refused" if audit.flagged and not accept_risk else ("dry-run" if dry_run else "written")
    result = IngestResult(
        status,
        name,
        f"{folder}/{name}",
        target.as_posix(),
        similar_skills(ws, candidate),
        audit,
        depth_of(candidate).to_dict(),
        metadata,
        tuple(added),
        tuple(f"{target.as_posix()}/{rel}" for rel in ["SKILL.md", *copies]),
        tuple(skipped),
        tuple(unmapped),
        ws.scopes[scope].is_dormant,
        tuple(warnings),
    )
    if status == "written":
        _write(ws.root / target, render_source(metadata, body), candidate, copies)
    return result


def normalise_name(raw: str) -> str:
    """A kebab-case skill name from whatever the candidate calls itself."""
    name = re.sub(r"[^a-z0-9]+", "-", raw.lower()).strip("-")
    if not name:
        raise OrkestraError(f"cannot derive a skill name from {raw!r}")
    return name[:64].rstrip("-")


def guess_type(body: str) -> str:
    """workflow (numbered steps), discipline (always/never rules) or checklist (checkboxes)."""
    scores = {
        "workflow": len(_STEP.findall(body)),
        "discipline": len(_RULE.findall(body)),
        "checklist": len(_CHECK.findall(body)) * 2,
    }
    best = max(scores.values())
    return "workflow" if best == 0 else next(k for k, v in scores.items() if v == best)


def map_tools(ws: Workspace, declared: list[str]) -> tuple[list[str], list[str]]:
    """Declared tools mapped onto the tools registry (``Bash(git:*)`` → ``Bash``); the rest unmapped."""
    known = {t.lower(): t for t in [*ws.tools.builtin, *ws.tools.mcp_tool_names()]}
    mapped: list[str] = []
    unmapped: list[str] = []
    for raw in declared:
        base = str(raw).split("(", 1)[0].strip()
        found = known.get(base.lower())
        target = mapped if found else unmapped
        value = found or str(raw)
        if value not in target:
            target.append(value)
    return mapped, unmapped


def enrich_tags(ws: Workspace, candidate: Candidate, provider: str | None) -> list[str]:
    """Declared tags, the provider, name words, and workspace tags the text mentions (at most 8)."""
    words = set(tokens(f"{candidate.description} {candidate.body}"))
    vocabulary = sorted({t for s in ws.skills.values() for t in s.frontmatter.tags})
    found = [t for t in vocabulary if set(t.split("-")) <= words]
    name_words = [w for w in candidate.name.split("-") if len(w) > 2 and w not in STOPWORDS]
    tags: list[str] = []
    for tag in [
        *map(str, candidate.view.get("tags") or []),
        *([provider, "vendor"] if provider else []),
        *name_words,
        *found,
    ]:
        kebab = normalise_name(tag) if re.search(r"[a-z0-9]", tag.lower()) else ""
        if kebab and kebab not in tags:
            tags.append(kebab)
    return tags[:MAX_TAGS]


def render_source(metadata: dict, body: str) -> str:
    """Our source SKILL.md: YAML frontmatter written by a real serializer, then the body."""
    front = yaml.safe_dump(metadata, sort_keys=False, allow_unicode=True, width=100)
    return f"---\n{front}---\n{body.strip()}\n"


def _metadata(
    candidate: Candidate,
    name: str,
    skill_type: str,
    tier: str,
    folder: str,
    scope: str,
    provider: str | None,
    today: dt.date,
) -> dict:
    meta: dict = {
        "identifier": name,
        "name": name,
        "description": " ".join(candidate.description.split()),
        "type": skill_type,
        "layer": tier,
        "semantic_folder": folder,
        "source": "vendor" if provider else "core",
        "last_updated": today.isoformat(),
        "scope": scope,
    }
    for key in ("license", "compatibility"):
        if isinstance(candidate.data.get(key), str):
            meta[key] = candidate.data[key]
    return {"metadata": meta}


def _warnings(candidate: Candidate, unmapped: list[str], added: list[AddedSection]) -> list[str]:
    warnings = []
    if not TRIGGER_RE.search(candidate.description):
        warnings.append("description has no trigger phrase ('Use when …')")
    if not 50 <= len(candidate.description) <= 400:
        warnings.append(f"description has {len(candidate.description)} characters; aim for 50–400")
    if unmapped:
        warnings.append(f"tools not in the tools registry were left out: {', '.join(unmapped)}")
    warnings.extend(f"section '## {s.title}' got generic text; rewrite it" for s in added if not s.derived)
    return warnings


def _is_agent_config(path: Path) -> bool:
    """A JSON file that would make an agent run commands or skip its checks once copied into place
    (``shipped.agent_config_keys``): never ingested, whatever the audit decision."""
    if path.suffix.lower() not in {".json", ".jsonc"} or path.is_symlink() or not path.is_file():
        return False
    try:
        if path.stat().st_size > 1_000_000:
            return False
        return is_agent_config(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return False


def _write(target: Path, skill_md: str, candidate: Candidate, copies: list[str]) -> None:
    """Write SKILL.md and copy the bundled files, each atomically (temp file + rename)."""
    _atomic(target / "SKILL.md", skill_md.encode("utf-8"), 0o644)
    for rel in copies:
        source = candidate.path / rel
        _atomic(target / rel, source.read_bytes(), source.stat().st_mode & 0o777)


def _atomic(path: Path, data: bytes, mode: int) -> None:
    write_atomic(path, data, mode=mode)
