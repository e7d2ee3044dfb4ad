"""Has anything changed since the last sync? The one module that decides it, before any plan.

Two levels of evidence, cheapest first; when neither holds, the plan (a full load and render,
``orkestra.render.plan``) is the ground truth:

* **The stamp** (stat data only, standard library: ``orkestra sync`` on an unchanged tree imports
  neither yaml nor pydantic nor the CLI framework). After a sync that ends in sync, :func:`record`
  stores it in the load cache (``<paths.state>/cache/sync/``, ``orkestra.inspect.cache``) watching
  every input file, every folder the input walk visited (an added or removed input changes one of
  their mtimes), the manifest, every owned and merged output, the state folder (a journal appears
  there) and the packaged files that shape the output. :func:`stamped` holds only while every one of
  them keeps its stat, the same orkestra install recorded it, and the stamp is from today; anything
  else (or a path changed while the stamp was taken: racy) falls back to the next level. The fast
  entry (``orkestra.entry``) asks :func:`unchanged_by_stat`; ``render.sync`` asks :func:`stamped`.
* **The digest** (:func:`last_sync`, no workspace load): the inputs' digest recorded in the last
  sync's manifest, and the bytes of every owned and merged output, hashed again. When they all
  match, the sync stamps the tree again (:func:`record`) and writes nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

from orkestra.inspect.cache import SectionCache, Watch

TYPE_CHECKING = False  # typing costs more to import than the stamp's whole check
if TYPE_CHECKING:
    from orkestra.render.manifest import Manifest
    from orkestra.workspace.config import OrkestraConfig

CACHE_NAME = "sync"
SECTION = "noop"


# --- the stamp (stat data) ------------------------------------------------------------------


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
        return stamped(root_path) is not None


def stamped(root: Path) -> str | None:
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


def record(
    root: Path, config: OrkestraConfig, vendor_roots: list[str], manifest: Manifest, started_ns: int
) -> None:
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
    cache = SectionCache(root, CACHE_NAME)
    own = cache.relative_folder  # the stamp's own folder changes as it is written: never watched
    dirs = [
        rel
        for rel in (*input_dirs(root, config, vendor_roots), paths.state.strip("/") or ".")
        if rel != own and not rel.startswith(own + "/")
    ]
    stamp = {**_identity(), "manifest": manifest_path(config)}
    cache.write({SECTION: stamp}, Watch(tuple(files), tuple(dirs)), started_ns)


# --- the digest (content, without loading the workspace) ------------------------------------


def output_drift(root: Path, manifest: Manifest) -> tuple[list[str], list[str]]:
    """(edited, missing): owned files whose bytes differ from the manifest, and those gone."""
    from orkestra.render.manifest import file_sha256

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
    from orkestra.render.manifest import file_sha256

    return (
        manifest.inputs == digest
        and not any(output_drift(root, manifest))
        and all(file_sha256(root / rel) == sha for rel, sha in manifest.merged.items())
    )


class LastSync:
    """What the digest check found: the last sync's manifest (None before the first, or when the
    config does not load) and whether nothing changed since; ``vendor_roots`` None when unreadable."""

    __slots__ = ("config", "manifest", "unchanged", "vendor_roots")

    def __init__(
        self,
        manifest: Manifest | None,
        unchanged: bool,
        config: OrkestraConfig | None = None,
        vendor_roots: list[str] | None = None,
    ):
        self.manifest, self.unchanged, self.config, self.vendor_roots = (
            manifest,
            unchanged,
            config,
            vendor_roots,
        )


def last_sync(root: Path, config: OrkestraConfig | None) -> LastSync:
    """The last manifest, read once, and whether inputs and outputs are as that sync left them,
    checked without loading the workspace (``config``: ``orkestra.yaml``'s model, None when it does
    not load; then the full load decides, and reports why)."""
    from orkestra.render.inputs import inputs_digest
    from orkestra.render.manifest import read_manifest

    manifest = read_manifest(root, config) if config is not None else None
    vendor_roots = _vendor_roots(root, config) if manifest is not None else None
    if manifest is None or vendor_roots is None:
        return LastSync(manifest, False, config, vendor_roots)
    return LastSync(
        manifest, untouched(root, manifest, inputs_digest(root, config, vendor_roots)), config, vendor_roots
    )


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
