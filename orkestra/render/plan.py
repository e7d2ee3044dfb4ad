"""Plan a sync: rendered outputs vs. disk vs. manifest → creates, updates, deletes, conflicts.

Writes nothing. Ownership rules: only files in the manifest are ever updated or pruned;
an owned file whose bytes differ from the manifest was edited by hand and is a conflict
unless ``force``; a file at an output path that the manifest does not own is a conflict
too (adopted silently only when its bytes already equal the rendering).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from orkestra.fs.guard import SafeTree, UnsafePath
from orkestra.render.manifest import Manifest, manifest_path, read_manifest, sha256

if TYPE_CHECKING:
    from orkestra.workspace.load import Workspace

_UNREAD = object()


@dataclass(frozen=True, slots=True)
class FileChange:
    path: str
    action: str  # create | update | delete
    reason: str
    sources: tuple[str, ...] = ()
    content: bytes | None = None
    before: str | None = None  # sha256 on disk when planned (None: absent)
    executable: bool = False

    def to_dict(self) -> dict:
        return {
            "path": self.path,
            "action": self.action,
            "reason": self.reason,
            "sources": list(self.sources),
        }


@dataclass(frozen=True, slots=True)
class Conflict:
    path: str
    reason: str

    def to_dict(self) -> dict:
        return {"path": self.path, "reason": self.reason}


@dataclass(frozen=True)
class Plan:
    changes: tuple[FileChange, ...]
    conflicts: tuple[Conflict, ...]
    manifest: Manifest  # what the manifest says after applying
    manifest_changed: bool

    @property
    def drift(self) -> bool:
        """True when the output tree differs from what the registries render (for ``--check``)."""
        return bool(self.changes or self.conflicts)

    def to_dict(self) -> dict:
        counts = {
            action: sum(c.action == action for c in self.changes) for action in ("create", "update", "delete")
        }
        return {
            "in_sync": not self.drift,
            "counts": counts,
            "changes": [c.to_dict() for c in self.changes],
            "conflicts": [c.to_dict() for c in self.conflicts],
            "manifest_changed": self.manifest_changed,
        }


def owned_roots(ws: Workspace) -> tuple[str, set[str]]:
    """(output folder prefix, single generated files outside it): the only places sync may prune."""
    paths = ws.config.paths
    return paths.output.strip("/") + "/", {paths.mcp_config.strip("/"), paths.decisions_digest.strip("/")}


def may_prune(ws: Workspace, rel: str) -> bool:
    """True if a manifest entry lies where sync renders (a hostile manifest must not prune pyproject.toml)."""
    from orkestra.render.targets import target_roots

    prefix, singles = owned_roots(ws)
    if rel == manifest_path(ws.config):
        return False
    target_files, target_folders = target_roots(ws)
    return (
        rel.startswith(prefix)
        or rel in singles
        or rel == "GROUND_TRUTHS.md"
        or rel.endswith("/GROUND_TRUTHS.md")
        or rel in target_files
        or rel.startswith(target_folders)
    )


def build_plan(ws: Workspace, force: bool = False, manifest: Manifest | object | None = _UNREAD) -> Plan:
    """Everything a sync would do, rendered and compared with the disk: the ground truth when
    ``render.freshness`` could not show that nothing changed.

    ``manifest``: the last sync's manifest when the caller already read it (None: there is none)."""
    from orkestra.render.state import workspace_digest  # hashing: not on the stat-only no-op

    old = (read_manifest(ws.root, ws.config) if manifest is _UNREAD else manifest) or Manifest()
    digest = workspace_digest(ws)
    manifest_rel = manifest_path(ws.config)
    with SafeTree(ws.root) as tree:
        return _plan(ws, tree, old, digest, manifest_rel, force)


def _disk_sha(tree: SafeTree, rel: str) -> str | None:
    from orkestra.fs.links import NotRegularFile
    from orkestra.render.manifest import MAX_OUTPUT_BYTES

    try:
        data = tree.read(rel, MAX_OUTPUT_BYTES)
    except NotRegularFile as exc:  # a 3 GB sparse file where an output goes: unread, and never ours
        return f"unread:{exc.strerror}"
    return None if data is None else sha256(data)


def _plan(ws: Workspace, tree: SafeTree, old: Manifest, digest: str, manifest_rel: str, force: bool) -> Plan:
    from orkestra.adoptions import read_adoptions  # files `orkestra import` verified round-trip
    from orkestra.render.outputs import render_outputs  # jinja2 is imported only when rendering

    adoptable = read_adoptions(ws.root, ws.config)
    changes: list[FileChange] = []
    conflicts: list[Conflict] = []
    owned: dict[str, str] = {}
    merged: dict[str, str] = {}
    for output in render_outputs(ws):
        kind = tree.check(output.path)  # raises UnsafePath: symlinks, .git, leaving the root
        if kind in ("dir", "other"):
            what = "a directory" if kind == "dir" else "a special file"
            conflicts.append(Conflict(output.path, f"{what} stands where sync writes a file; move it away"))
            continue
        new, disk, before = sha256(output.content), _disk_sha(tree, output.path), old.files.get(output.path)
        if output.merged:
            merged[output.path] = new
        else:
            owned[output.path] = new
        if disk == new:
            continue
        if disk is None:
            reason = "new output" if before is None else "generated file is missing on disk"
        elif output.merged:
            reason = "orkestra's entries merged into the existing file"
        elif before == disk:
            reason = "rendered content changed"
        elif before is None and adoptable.get(output.path) == disk:
            reason = "imported original taken over (same frontmatter and text up to whitespace)"
        else:
            problem = (
                "edited by hand since the last sync" if before else "exists but is not owned by orkestra"
            )
            if not force:
                conflicts.append(Conflict(output.path, f"{problem}; re-run with --force to overwrite it"))
                continue
            reason = f"{problem}; overwritten (--force)"
        changes.append(
            FileChange(
                output.path,
                "create" if disk is None else "update",
                reason,
                output.sources,
                output.content,
                disk,
                output.executable,
            )
        )
    for path, recorded in sorted(old.files.items()):
        if path in owned or not may_prune(ws, path):
            continue  # an entry outside the owned outputs is never pruned (and drops out of the manifest)
        try:
            if tree.check(path) != "file":
                continue
        except UnsafePath:
            continue
        disk = _disk_sha(tree, path)
        if disk is None:
            continue
        if disk != recorded and not force:
            conflicts.append(
                Conflict(path, "no longer generated but edited by hand; re-run with --force to delete")
            )
            continue
        changes.append(FileChange(path, "delete", "no longer generated", before=disk))
    manifest = Manifest(digest, owned, merged)
    manifest_changed = _disk_sha(tree, manifest_rel) != sha256(manifest.to_bytes())
    return Plan(tuple(sorted(changes, key=lambda c: c.path)), tuple(conflicts), manifest, manifest_changed)
