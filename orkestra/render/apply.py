"""Apply a plan: the only writer of generated files. Journalled, guarded, manifest last.

Each file is re-hashed just before anything is written; if it changed since the plan was
made, apply stops before writing. Every write and delete goes through the write guard
(``orkestra.fs.guard``: no symlinks, nothing in ``.git``), and the journal
(``orkestra.render.journal``) lets a killed apply be rolled back or completed by the next run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from orkestra.errors import OrkestraError
from orkestra.fs.guard import SafeTree, UnsafePath
from orkestra.render.journal import finish, journal_rel, roll_forward, sweep, tmp_rel, write_journal
from orkestra.render.manifest import manifest_path, sha256
from orkestra.render.plan import Plan

if TYPE_CHECKING:
    from orkestra.workspace.load import Workspace


class SyncConflict(OrkestraError):
    """Generated files edited by hand (or files orkestra does not own) stand in the way."""


@dataclass(frozen=True, slots=True)
class ApplyResult:
    written: tuple[str, ...]
    deleted: tuple[str, ...]
    manifest_written: bool

    def to_dict(self) -> dict:
        return {
            "written": list(self.written),
            "deleted": list(self.deleted),
            "manifest_written": self.manifest_written,
        }


def conflict_message(plan: Plan) -> str:
    lines = [f"{c.path}: {c.reason}" for c in plan.conflicts]
    return "sync refused, nothing written:\n" + "\n".join(lines)


def _sweep_folders(plan: Plan, output: str) -> set[str]:
    """Where stray temp files of a killed run can be: folders of changes, of every owned file outside
    the output folder (few), the output folder and its first level (not each skill folder: a stray
    temp there belongs to a file the interrupted run did not finish, which this plan changes)."""
    folders = {output, *(c.path.rpartition("/")[0] for c in plan.changes)}
    for rel in (*plan.manifest.files, *plan.manifest.merged):
        parent = rel.rpartition("/")[0]
        if not (parent + "/").startswith(output + "/") or parent.count("/") <= output.count("/") + 1:
            folders.add(parent)
    return folders


def apply_plan(ws: Workspace, plan: Plan) -> ApplyResult:
    """Write creates/updates, delete pruned files, then write the manifest if it changed."""
    if plan.conflicts:
        raise SyncConflict(conflict_message(plan))
    output = ws.config.paths.output.strip("/")
    journal = journal_rel(ws.config.paths.state)
    writes = [c for c in plan.changes if c.action != "delete"]
    deleted = tuple(c.path for c in plan.changes if c.action == "delete")
    try:
        with SafeTree(ws.root) as tree:
            folders = _sweep_folders(plan, output)
            for change in plan.changes:
                disk = tree.read(change.path)
                if (None if disk is None else sha256(disk)) != change.before:
                    raise OrkestraError(f"{change.path}: changed on disk while syncing; run sync again")
            staged = [(c.path, c.content, c.executable) for c in writes]
            if plan.manifest_changed:
                staged.append((manifest_path(ws.config), plan.manifest.to_bytes(), False))
            if staged or deleted:
                ops = [{"path": rel, "tmp": tmp_rel(rel)} for rel, _, _ in staged]
                ops += [{"path": c.path, "delete": c.before} for c in plan.changes if c.action == "delete"]
                write_journal(tree, journal, "staging", ops)
                for rel, content, executable in staged:
                    assert content is not None
                    tree.stage(rel, content, executable)
                write_journal(tree, journal, "commit", ops)
                # renames and deletes first, the manifest (last in ``staged``) after them
                roll_forward(
                    tree,
                    [op for op in ops if "delete" in op] + [op for op in ops if "tmp" in op],
                    output,
                    staged=True,
                )
                finish(tree, journal)
            sweep(tree, folders)
    except UnsafePath:
        raise
    except OSError as exc:
        where = exc.filename or "a generated file"
        raise OrkestraError(
            f"{where}: cannot write ({exc.strerror}); run `orkestra sync` again to complete "
            "or roll back this sync"
        ) from exc
    return ApplyResult(tuple(c.path for c in writes), deleted, plan.manifest_changed)
