"""Is the output in sync with the registries? Hashes only, never renders (no jinja2)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from orkestra.render.inputs import inputs_digest
from orkestra.render.manifest import Manifest, file_sha256, read_manifest

if TYPE_CHECKING:
    from orkestra.workspace.config import OrkestraConfig
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


def output_drift(root: Path, manifest: Manifest) -> tuple[list[str], list[str]]:
    """(edited, missing): owned files whose bytes differ from the manifest, and those gone."""
    edited, missing = [], []
    for rel, expected in sorted(manifest.files.items()):
        actual = file_sha256(root / rel)
        if actual is None:
            missing.append(rel)
        elif actual != expected:
            edited.append(rel)
    return edited, missing


def untouched(root: Path, manifest: Manifest, digest: str) -> bool:
    """True when inputs, owned files and merged files are all exactly as the last sync left them."""
    return (
        manifest.inputs == digest
        and not any(output_drift(root, manifest))
        and all(file_sha256(root / rel) == sha for rel, sha in manifest.merged.items())
    )


def workspace_digest(ws: Workspace) -> str:
    return inputs_digest(ws.root, ws.config, [v.path for v in ws.metadata.vendor_roots], ws.input_hashes)


@dataclass(frozen=True)
class LastSync:
    """What the cheap check found: the last sync's manifest (None before the first, or when the
    config does not load) and whether nothing changed since; ``vendor_roots`` None when unreadable."""

    manifest: Manifest | None
    unchanged: bool
    config: OrkestraConfig | None = None
    vendor_roots: list[str] | None = None


def last_sync(root: Path) -> LastSync:
    """The last manifest, read once, and whether inputs and outputs are as that sync left them,
    checked without loading the workspace (a full load decides whatever cannot be read cheaply)."""
    from orkestra.workspace.config import read_config

    config = read_config(root)
    manifest = read_manifest(root, config) if config is not None else None
    vendor_roots = _vendor_roots(root, config) if manifest is not None else None
    if manifest is None or vendor_roots is None:
        return LastSync(manifest, False, config, vendor_roots)
    return LastSync(
        manifest, untouched(root, manifest, inputs_digest(root, config, vendor_roots)), config, vendor_roots
    )


def unchanged_since_sync(root: Path) -> Manifest | None:
    """The last manifest if nothing changed since that sync, checked without loading the workspace.

    None when anything differs or cannot be read cheaply (then a full load decides).
    """
    found = last_sync(root)
    return found.manifest if found.unchanged else None


def _vendor_roots(root: Path, config: OrkestraConfig) -> list[str] | None:
    from orkestra.workspace.source import SourceError, read_yaml

    path = root / config.paths.registries / "metadata.yaml"
    if not path.is_file():
        return []
    try:  # the capped loader: a bomb here is refused, not expanded
        data = read_yaml(root, path.relative_to(root).as_posix()).data or {}
        return [str(entry["path"]) for entry in data.get("vendor_roots") or []]
    except (SourceError, OSError, AttributeError, TypeError, KeyError, ValueError):
        return None


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
