"""The sync journal: a killed apply is rolled back or completed by the next run, never left mixed.

An apply runs in three steps, recorded in ``<paths.state>/sync-journal.json`` (replaced
atomically, so it is whole or absent):

1. ``staging``: the journal lists every temp file about to be written, then they are written
   beside their targets. A kill here leaves the old tree plus temps: recovery deletes them.
2. ``commit``: all temps are in place. The renames, deletes and the manifest (last) follow.
   A kill here leaves a mix: recovery finishes the renames and deletes (roll forward).
3. The journal is deleted.

Every sync (``--check`` and ``--dry-run`` too) takes an exclusive lock on the workspace
root and recovers first, and a full sync also sweeps stray ``.*.orkestra-tmp`` files from
the folders it owns (older versions left them behind when killed).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path

from orkestra.fs.guard import TMP_SUFFIX, SafeTree, UnsafePath, path_parts, tmp_name
from orkestra.render.lock import sync_lock  # noqa: F401 - re-exported: the journal's callers hold it
from orkestra.workspace import jsontext

JOURNAL_NAME = "sync-journal.json"
DEFAULT_STATE = ".orkestra"


def journal_rel(state: str | None) -> str:
    return f"{(state or DEFAULT_STATE).strip('/')}/{JOURNAL_NAME}"


def tmp_rel(rel: str) -> str:
    parts = path_parts(rel)
    return "/".join([*parts[:-1], tmp_name(parts[-1])])


def write_journal(tree: SafeTree, rel: str, phase: str, ops: list[dict]) -> None:
    tree.write(rel, json.dumps({"version": 1, "phase": phase, "ops": ops}, separators=(",", ":")).encode())


def finish(tree: SafeTree, rel: str) -> None:
    """Delete the journal (the apply is complete) and its folder if that is now empty."""
    tree.unlink(rel)
    tree.prune_empty_dirs(rel, "")


def roll_forward(tree: SafeTree, ops: list[dict], stop: str, staged: bool = False) -> int:
    """Perform (or finish) the renames and deletes of a committed journal; returns how many were done.

    ``staged``: every temp file is known to exist (a live apply), so none is looked up first.
    """
    done = 0
    for op in ops:
        if "tmp" in op:
            if staged or tree.check(op["tmp"]) == "file":
                tree.commit(op["tmp"], op["path"])
                done += 1
        elif _sha(tree, op["path"]) == op.get("delete"):
            tree.unlink(op["path"])
            tree.prune_empty_dirs(op["path"], stop)
            done += 1
    return done


def recover(root: Path, state: str | None, output: str) -> str | None:
    """Roll back or complete an interrupted apply; a sentence saying what was done, or None."""
    rel = journal_rel(state)
    with SafeTree(root) as tree:
        raw = tree.read(rel)
        if raw is None:
            sweep(tree, [_parent(rel)])
            return None
        try:
            journal = jsontext.loads(raw)
            phase, ops = journal["phase"], list(journal["ops"])
        except (ValueError, KeyError, TypeError):
            phase, ops = "corrupt", []
        folders = {_parent(op["path"]) for op in ops if isinstance(op, dict) and "path" in op}
        if phase == "commit":
            done = roll_forward(tree, ops, output)
            message = f"completed an interrupted sync ({done} pending change(s) applied)"
        else:
            message = "rolled back an interrupted sync (its temporary files were removed)"
        sweep(tree, [*folders, _parent(rel)])
        finish(tree, rel)
        return message


def sweep(tree: SafeTree, folders: Iterable[str]) -> int:
    """Delete stray ``.<name>.<pid>.orkestra-tmp`` files in ``folders`` (repo-relative); returns the count."""
    removed = 0
    for folder in sorted(set(folders)):
        try:
            names = tree.entries(folder)
        except UnsafePath:
            continue
        for name in names:
            if name.startswith(".") and name.endswith(TMP_SUFFIX):
                rel = f"{folder}/{name}" if folder else name
                try:
                    removed += tree.unlink(rel)
                except (UnsafePath, OSError):
                    continue
    return removed


def _parent(rel: str) -> str:
    return rel.rpartition("/")[0]


def _sha(tree: SafeTree, rel: str) -> str | None:
    data = tree.read(rel)
    return None if data is None else hashlib.sha256(data).hexdigest()
