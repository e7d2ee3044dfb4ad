"""``orkestra system status``'s sync line: is the output in sync with the loaded registries? Hashes
only, never renders (no jinja2). What a sync itself decides before planning is ``render.freshness``."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

from orkestra.render.freshness import output_drift
from orkestra.render.inputs import inputs_digest
from orkestra.render.manifest import read_manifest

if TYPE_CHECKING:
    from orkestra.workspace.load import Workspace


@dataclass(frozen=True, slots=True)
class SyncStatus:
    in_sync: bool
    reason: str
    changed_inputs: bool
    edited_outputs: list[str] = field(default_factory=list)
    missing_outputs: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return asdict(self)


def workspace_digest(ws: Workspace) -> str:
    return inputs_digest(ws.root, ws.config, [v.path for v in ws.metadata.vendor_roots], ws.input_hashes)


def sync_status(ws: Workspace) -> SyncStatus:
    """Compare the inputs digest and the owned files' hashes with the manifest of the last sync."""
    manifest = read_manifest(ws.root, ws.config)
    if manifest is None:
        return SyncStatus(False, "never synced (no manifest); run `orkestra sync`", True)
    changed = manifest.inputs != workspace_digest(ws)
    edited, missing = output_drift(ws.root, manifest)
    problems = []
    if changed:
        problems.append("inputs changed since the last sync")
    if edited:
        problems.append(f"{len(edited)} generated file(s) edited by hand")
    if missing:
        problems.append(f"{len(missing)} generated file(s) missing")
    reason = "; ".join(problems) + "; run `orkestra sync`" if problems else "in sync"
    return SyncStatus(not problems, reason, changed, edited, missing)
