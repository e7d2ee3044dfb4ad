"""Apply a plan: the only writer of generated files. Atomic writes, manifest last.

Each file is re-hashed just before it is replaced or deleted; if it changed since the plan
was made, apply stops (nothing later is written, the manifest is untouched).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from orkestra.errors import OrkestraError
from orkestra.render.manifest import file_sha256, manifest_path
from orkestra.render.plan import Plan
from orkestra.workspace.load import Workspace


class SyncConflict(OrkestraError):
    """Generated files edited by hand (or files orkestra does not own) stand in the way."""


@dataclass(frozen=True, slots=True)
class ApplyResult:
    written: tuple[str, ...]
    deleted: tuple[str, ...]
    manifest_written: bool

    def to_dict(self) -> dict:
        return {"written": list(self.written), "deleted": list(self.deleted),
                "manifest_written": self.manifest_written}


def conflict_message(plan: Plan) -> str:
    lines = [f"{c.path}: {c.reason}" for c in plan.conflicts]
    return "sync refused, nothing written:\n" + "\n".join(lines)


def write_atomic(path: Path, data: bytes, executable: bool = False) -> None:
    """Write ``data`` to a temp file beside ``path`` (whose folder must exist), then ``os.replace`` it."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.orkestra-tmp")
    flags, mode = os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o755 if executable else 0o644
    try:
        fd = os.open(tmp, flags, mode)
    except FileExistsError:  # left over by a crashed run
        tmp.unlink()
        fd = os.open(tmp, flags, mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _prune_empty_dirs(path: Path, stop: Path) -> None:
    """Remove now-empty parent directories of a deleted file, up to (not including) ``stop``."""
    parent = path.parent
    while parent != stop and stop in parent.parents:
        try:
            parent.rmdir()
        except OSError:
            return
        parent = parent.parent


def apply_plan(ws: Workspace, plan: Plan) -> ApplyResult:
    """Write creates/updates, delete pruned files, then write the manifest if it changed."""
    if plan.conflicts:
        raise SyncConflict(conflict_message(plan))
    written, deleted = [], []
    output_root = (ws.root / ws.config.paths.output).resolve()
    folders: set[Path] = set()
    for change in plan.changes:
        target = ws.root / change.path
        if file_sha256(target) != change.before:
            raise OrkestraError(f"{change.path}: changed on disk while syncing; run sync again")
        if change.action == "delete":
            target.unlink()
            _prune_empty_dirs(target.resolve(), output_root)
            deleted.append(change.path)
        else:
            assert change.content is not None
            if target.parent not in folders:
                target.parent.mkdir(parents=True, exist_ok=True)
                folders.add(target.parent)
            write_atomic(target, change.content, change.executable)
            written.append(change.path)
    if plan.manifest_changed:
        (ws.root / manifest_path(ws.config)).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(ws.root / manifest_path(ws.config), plan.manifest.to_bytes())
    return ApplyResult(tuple(written), tuple(deleted), plan.manifest_changed)
