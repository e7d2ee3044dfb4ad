"""The no-op sync answered from stat data: nothing changed since a sync that found (or left) the
output in sync. Standard library only, so ``orkestra sync`` on an unchanged tree imports neither
yaml nor pydantic nor the CLI framework.

After a sync that ends in sync, :func:`record` stores a stamp in the load cache
(``<paths.state>/cache/sync/``, ``orkestra.inspect.cache``) watching every input file, every folder
the input walk visited (an added or removed input changes one of their mtimes), the manifest,
every owned and merged output, the state folder (a journal appears there) and the packaged files
that shape the output. :func:`unchanged` is true only while every one of them keeps its stat, the
same orkestra install recorded it, and the stamp is from today; anything else (or a path changed
while the stamp was taken: racy) falls back to the full check, which hashes every byte.
"""

from __future__ import annotations

import os
from pathlib import Path

from orkestra.inspect.cache import SectionCache, Watch

CACHE_NAME = "sync"
SECTION = "noop"


def _identity() -> dict:
    import orkestra

    return {"package": os.path.dirname(os.path.abspath(orkestra.__file__)), "version": orkestra.__version__}


def unchanged_by_stat(root: str | os.PathLike[str] | None) -> bool:
    """True when a sync at ``root`` (None: nearest upwards) would find nothing to do, decided from the
    stamp of the last in-sync sync alone (stat data: no yaml, no pydantic); False means "not known"."""
    from orkestra.render.lock import sync_lock
    from orkestra.workspace.root import find_root

    root_path = find_root(root)
    with sync_lock(root_path):
        return unchanged(root_path) is not None


def unchanged(root: Path) -> str | None:
    """The manifest's repo-relative path when the last in-sync result still holds (every watched path
    as recorded, by this orkestra install); else None."""
    found = SectionCache(root, CACHE_NAME).read([SECTION])
    if found is None or not isinstance(found[SECTION], dict):
        return None
    stamp = dict(found[SECTION])
    manifest = stamp.pop("manifest", None)
    return manifest if isinstance(manifest, str) and stamp == _identity() else None


def start(root: Path) -> int:
    """Call before the full check reads anything: the time after which a change is racy."""
    return SectionCache(root, CACHE_NAME).start()


def record(root: Path, config, vendor_roots: list[str], manifest, started_ns: int) -> None:
    """Stamp the tree as in sync (after a full check found it so, or an apply made it so)."""
    from orkestra.render.inputs import input_dirs, input_files, shaping_files
    from orkestra.render.manifest import manifest_path
    from orkestra.workspace.root import CONFIG_FILE

    paths = config.paths
    files = [
        CONFIG_FILE,
        f"{paths.registries.strip('/')}/metadata.yaml",
        manifest_path(config),
        *input_files(root, config, vendor_roots),
        *manifest.files,
        *manifest.merged,
        *(os.fspath(path) for path in shaping_files()),
    ]
    dirs = [*input_dirs(root, config, vendor_roots), paths.state.strip("/") or "."]
    stamp = {**_identity(), "manifest": manifest_path(config)}
    SectionCache(root, CACHE_NAME).write({SECTION: stamp}, Watch(tuple(files), tuple(dirs)), started_ns)
