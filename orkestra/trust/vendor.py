"""Vendor roots: the skill collections ``metadata.yaml`` adopts, with each skill's audit summary.

Vendor skills are rendered by *copying* (``.claude/skills/<provider>-<name>/``), not by
symlinking: the rendered name must equal its directory (``aws-foo``) while the vendor's own
SKILL.md says ``foo``, so the frontmatter has to be rewritten; copies also keep the rendered
tree self-contained, hashable by ``sync --check`` and usable on Windows without symlink rights.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from orkestra.trust.audit import audit_skill_dir

if TYPE_CHECKING:
    from orkestra.workspace import Workspace


@dataclass(frozen=True, slots=True)
class VendorSkill:
    name: str
    ref: str
    description: str
    audit: dict

    def to_dict(self) -> dict:
        return {"name": self.name, "ref": self.ref, "description": self.description, "audit": self.audit}


@dataclass(frozen=True, slots=True)
class VendorRootReport:
    provider: str
    path: str
    exists: bool
    skills: tuple[VendorSkill, ...]

    def to_dict(self) -> dict:
        return {
            "provider": self.provider,
            "path": self.path,
            "exists": self.exists,
            "skills": [s.to_dict() for s in self.skills],
        }


def list_vendor_roots(ws: Workspace) -> list[VendorRootReport]:
    """Every declared vendor root with its skills (rendered name, ref, description, audit summary)."""
    reports = []
    for root in ws.metadata.vendor_roots:
        prefix = root.path.rstrip("/") + "/"
        skills = sorted(
            (
                s
                for s in ws.skills.values()
                if s.provider == root.provider and f"{s.source_dir}/".startswith(prefix)
            ),
            key=lambda s: s.name,
        )
        reports.append(
            VendorRootReport(
                root.provider,
                root.path,
                (ws.root / root.path).is_dir(),
                tuple(
                    VendorSkill(
                        s.name,
                        s.ref,
                        " ".join(s.metadata.description.split()),
                        audit_skill_dir(ws.root / s.source_dir, ws.root, s.name).summary(),
                    )
                    for s in skills
                ),
            )
        )
    return reports
