"""``orkestra sync`` as one library call: load → validate → plan → (apply)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from orkestra.errors import WorkspaceError
from orkestra.fs.scan import one_walk
from orkestra.memory import paused_gc
from orkestra.render import freshness
from orkestra.render.apply import ApplyResult, apply_plan
from orkestra.render.freshness import unchanged_by_stat  # noqa: F401 - the library's no-op check
from orkestra.render.journal import recover, sync_lock
from orkestra.render.manifest import Manifest, read_manifest_at
from orkestra.render.plan import Plan, build_plan
from orkestra.workspace.root import find_root


@dataclass(frozen=True)
class SyncReport:
    plan: Plan
    applied: ApplyResult | None  # None for --dry-run / --check
    recovered: str | None = None  # what was done to finish or undo an interrupted sync first

    def to_dict(self) -> dict:
        data = self.plan.to_dict()
        if self.applied is not None:
            data.update(self.applied.to_dict())
        if self.recovered:
            data["recovered"] = self.recovered
        return data


def sync(root: str | os.PathLike[str] | None, *, apply: bool = True, force: bool = False) -> SyncReport:
    """Render the workspace at ``root`` (None: nearest upwards from the cwd); ``apply=False`` only plans.

    When ``render.freshness`` finds inputs and outputs as the last sync left them (its stamp, else
    its digest), returns at once without loading (so validation runs only when something changed;
    `orkestra validate` always does); otherwise the plan decides.
    Raises WorkspaceError (every diagnostic) before anything is written if the workspace
    has errors, and SyncConflict if hand-edited or unowned files are in the way.
    Every mode first completes (or rolls back) a sync that was killed half-way.
    """
    root_path = find_root(root)
    with sync_lock(root_path):
        manifest_rel = None if force else freshness.stamped(root_path)
        if manifest_rel is not None:  # stat data only: no yaml, no pydantic, no hashing
            manifest = read_manifest_at(root_path, manifest_rel) or Manifest()
            return SyncReport(Plan((), (), manifest, False), ApplyResult((), (), False) if apply else None)
        with one_walk():  # the in-sync check, the load and the plan share one walk of the tree
            return _sync(root_path, apply, force)


def _sync(root_path, apply: bool, force: bool) -> SyncReport:
    from orkestra.workspace.config import Paths, read_config

    started = freshness.start(root_path) if apply else 0
    config = read_config(root_path)
    paths = getattr(config, "paths", None) or Paths()
    recovered = recover(root_path, paths.state, paths.output.strip("/"))
    last = freshness.last_sync(root_path, config)  # the manifest is read here, once
    if last.unchanged and not force:  # nothing changed since the last sync: no load, no render
        if apply and not recovered:
            freshness.record(root_path, last.config, last.vendor_roots, last.manifest, started)
        return SyncReport(
            Plan((), (), last.manifest, False), ApplyResult((), (), False) if apply else None, recovered
        )
    from orkestra.workspace.load import Workspace
    from orkestra.workspace.validate import validate

    with paused_gc():
        ws = Workspace.load(root_path)
        diagnostics = validate(ws)  # the registries alone: stale facts only warn; sync needs the errors
        if any(d.severity == "error" for d in diagnostics):
            raise WorkspaceError(diagnostics)
        if last.unchanged:  # --force on an unchanged tree: validated, and nothing to overwrite
            plan = Plan((), (), last.manifest, False)
        else:  # the manifest last_sync read (it is None only when there is none, once the config loaded)
            plan = (
                build_plan(ws, force=force, manifest=last.manifest)
                if last.config is not None
                else build_plan(ws, force=force)
            )
        applied = apply_plan(ws, plan) if apply else None
        if applied is not None and applied.deleted:
            _prune_target_dirs(ws.root, applied.deleted)
        return SyncReport(plan, applied, recovered)


def _prune_target_dirs(root, deleted: tuple[str, ...]) -> None:
    """Remove folders a dropped target left empty (``.cursor/rules``, ``.github/agents``, …), never
    following a symlink, never above the root; apply already prunes inside the output folder."""
    from pathlib import Path

    base = Path(root).resolve()
    for rel in deleted:
        parent = (base / rel).parent
        while parent != base and base in parent.parents and not parent.is_symlink():
            try:
                parent.rmdir()  # fails (and stops) on the first folder that still holds anything
            except OSError:
                break
            parent = parent.parent
