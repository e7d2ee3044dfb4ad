"""A load cache: JSON sections derived from a workspace, reused while no watched path changed.

Loading 1,300+ YAML files and importing pydantic costs far more than the 150 ms a CLI
start-up may take, so inspection commands read derived JSON *sections* from
``<paths.state>/cache/<name>/`` instead. A cache is valid only while every watched path
is unchanged:

* each watched file keeps its ``(mtime_ns, size, ctime_ns, inode)`` (or ``None`` when it did
  not exist);
* each watched directory keeps the same; its mtime changes when an entry is added,
  removed or renamed — so new files are noticed without listing them;
* a path modified while the cache was being built (mtime at or after the build started,
  less a small slack for coarse clocks) is *racy*: the loader may have read it before or
  after the change, so it is recorded as never matching and the next command rebuilds;
* the key also holds a version, the date (for results that depend on today) and the
  ``paths.state`` the cache was written for.

Where is ``paths.state``? Every fingerprint watches ``orkestra.yaml`` and records the state
folder in its key, so a cache found in the default folder (``.orkestra``) that was written for
it, with ``orkestra.yaml`` unchanged since, answers without reading any YAML. Otherwise
``orkestra.yaml`` is read with the one YAML reader (``orkestra.workspace.root.raw_config``) and
the configured folder is tried. This module imports only the standard library on a hit in the
default folder, and never pydantic.
"""

from __future__ import annotations

import fnmatch
import json
import os
import time
from pathlib import Path

from maguyva.capped import read_regular
from orkestra.fs.scan import walk_tree
from orkestra.workspace import jsontext
from orkestra.workspace.root import CONFIG_FILE, raw_config  # raw_config: no pydantic on a cache hit

TYPE_CHECKING = False  # typing and dataclasses cost more to import than a no-op sync's whole check
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any

CACHE_VERSION = 3  # 2: ctime and inode in every fingerprint entry; 3: the state folder in the key
RACY_SLACK_NS = 50_000_000
RACY = [-1, -1]  # recorded for a path modified while the cache was built: never fresh
DEFAULT_STATE = ".orkestra"  # the default of orkestra.workspace.config.Paths.state
SKIPPED_DIRS = {"node_modules", "__pycache__"}


class Watch:
    """Paths (repo-relative, POSIX) whose change invalidates a cache."""

    __slots__ = ("dirs", "files")

    def __init__(self, files: tuple[str, ...], dirs: tuple[str, ...]):
        self.files, self.dirs = files, dirs


def project_dirs(root: Path, exclude: list[str]) -> Iterator[tuple[str, list[str], list[str]]]:
    """Walk ``root`` like ``os.walk`` (rel dir, dir names, file names), sorted, skipping hidden,
    ``node_modules``/``__pycache__`` and excluded directories."""
    base = os.fspath(root)
    for current, dirnames, filenames in walk_tree(base):
        rel = _relative(current, base)
        dirnames[:] = sorted(d for d in dirnames if not _skipped(d, "" if rel == "." else rel, exclude))
        yield rel, list(dirnames), sorted(filenames)


def _relative(path: str, base: str) -> str:
    """``path`` below ``base`` as a POSIX relative path ("." for ``base`` itself); string slicing only."""
    return path[len(base) + 1 :].replace(os.sep, "/") if path != base else "."


def _skipped(name: str, parent: str, exclude: list[str]) -> bool:
    if name.startswith(".") or name in SKIPPED_DIRS:
        return True
    rel = f"{parent}/{name}" if parent else name
    return any(fnmatch.fnmatch(rel + "/", glob) for glob in exclude)


def tree(root: Path, rel: str, skip: str | None = None) -> tuple[list[str], list[str]]:
    """(files, dirs) below ``root/rel``, all of them, except the subtree ``skip``."""
    files, dirs = [], []
    base = root / rel
    if not base.is_dir():
        return files, [rel]  # a missing directory is watched too: creating it is a change
    for current, dirnames, filenames in walk_tree(base):
        current_rel = _relative(current, os.fspath(root))
        if skip is not None:
            dirnames[:] = [d for d in dirnames if f"{current_rel}/{d}" != skip]
        dirs.append(current_rel)
        files.extend(f"{current_rel}/{name}" for name in filenames)
    return files, dirs


def state_dir(root: Path) -> Path:
    """``paths.state`` of the workspace at ``root``, read from ``orkestra.yaml`` with the one YAML reader
    (the default when it is missing, unreadable or sets none)."""
    paths = raw_config(root).get("paths")
    state = paths.get("state", DEFAULT_STATE) if isinstance(paths, dict) else DEFAULT_STATE
    return root / str(state)


class SectionCache:
    """Named JSON sections under ``<state>/cache/<name>/`` with one fingerprint file."""

    def __init__(self, root: Path, name: str):
        self.root, self.name = root, name
        self._folder: Path | None = None

    @property
    def folder(self) -> Path:
        """``<paths.state>/cache/<name>``, ``paths.state`` read from ``orkestra.yaml`` (once)."""
        if self._folder is None:
            self._folder = state_dir(self.root) / "cache" / self.name
        return self._folder

    @property
    def relative_folder(self) -> str:
        return Path(
            os.path.relpath(self.folder, self.root)
        ).as_posix()  # "../x" when paths.state leaves the root

    def read(self, sections: Iterable[str]) -> dict[str, Any] | None:
        """The cached sections, or ``None`` when one is missing or any watched path changed.

        First in the default state folder: a fingerprint there written for it, with ``orkestra.yaml``
        (which every fingerprint watches) unchanged since, proves ``paths.state`` is still the
        default without reading the YAML. Otherwise in the configured folder, if it is another."""
        sections = tuple(sections)
        default = self.root / DEFAULT_STATE
        found = self._read_at(default / "cache" / self.name, DEFAULT_STATE, sections)
        if found is not None:
            return found
        state = state_dir(self.root)
        self._folder = state / "cache" / self.name
        if os.path.normpath(state) == os.path.normpath(default):
            return None
        return self._read_at(self._folder, os.path.relpath(state, self.root), sections)

    def _read_at(self, folder: Path, state: str, sections: tuple[str, ...]) -> dict[str, Any] | None:
        try:
            fingerprint = _json_at(folder / "fingerprint.json")
            if fingerprint.get("key") != _key(state) or not _fresh(self.root, fingerprint):
                return None
            found = {}
            for section in sections:
                stored = _json_at(folder / f"{section}.json")
                if stored.get("build") != fingerprint["build"]:
                    return None
                found[section] = stored["data"]
        except (OSError, ValueError, KeyError, AttributeError, TypeError):  # missing, unreadable, not ours
            return None
        return found

    def start(self) -> int:
        """Call before building: creates the folder and returns the build's start time (ns).

        Creating the folder changes its parents' mtimes; waiting out the racy window once, on
        creation, keeps that change of ours from looking like one made during the build.
        """
        if not self.folder.is_dir():
            try:
                _guarded(self.root, lambda tree, rel: tree.makedirs(rel), self.folder)
            except (OSError, ValueError):
                return time.time_ns()  # write() will fail the same way and skip caching
            time.sleep(RACY_SLACK_NS / 1e9)
        return time.time_ns()

    def write(self, sections: dict[str, Any], watch: Watch, started_ns: int) -> None:
        """Store ``sections`` with the fingerprint of ``watch`` taken now (after building them).

        Written through the write guard: a committed symlink at ``.orkestra`` (or a ``paths.state``
        outside the tree or in .git) makes the cache silently unavailable, never a write elsewhere.
        """
        build = os.urandom(16).hex()

        state = os.path.relpath(self.folder.parent.parent, self.root)

        def store(tree: Any, rel: str) -> None:
            fingerprint = {"key": _key(state), "build": build, **_fingerprint(self.root, watch, started_ns)}
            for section, data in sections.items():
                tree.write(f"{rel}/{section}.json", _json_bytes({"build": build, "data": data}))
            tree.write(f"{rel}/fingerprint.json", _json_bytes(fingerprint))

        try:
            _guarded(self.root, store, self.folder)
        except (OSError, ValueError):
            return  # a read-only checkout still answers, from a fresh load every time


def _json_at(path: Path) -> Any:
    """A cache file's JSON; only a regular file is opened (a FIFO planted there is refused, not waited on)."""
    return jsontext.loads(read_regular(path).decode("utf-8"))


def _guarded(root: Path, action: Any, folder: Path) -> None:
    """Run ``action(tree, rel)`` on a write-guarded tree; ValueError when ``folder`` may not be written."""
    from orkestra.fs.guard import SafeTree, UnsafePath  # not on the cache-hit path

    try:
        rel = folder.relative_to(root).as_posix()
        with SafeTree(root) as tree:
            action(tree, rel)
    except UnsafePath as exc:
        raise ValueError(str(exc)) from None


def _json_bytes(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode("utf-8")


def _key(state: str) -> dict:
    """Version, today (local time), and the state folder (relative to the root, normalised)."""
    return {"version": CACHE_VERSION, "day": time.strftime("%Y-%m-%d"), "state": os.path.normpath(state)}


def _fingerprint(root: Path, watch: Watch, started_ns: int) -> dict:
    racy_after = started_ns - RACY_SLACK_NS
    files: dict[str, Any] = {}
    for rel in sorted({*watch.files, CONFIG_FILE}):  # orkestra.yaml always: it says where the cache is
        stat = _stat(root / rel)
        files[rel] = RACY if stat is not None and max(stat[0], stat[2]) >= racy_after else stat
    dirs: dict[str, Any] = {}
    for rel in sorted(set(watch.dirs)):
        stat = _stat(root / rel)
        dirs[rel] = RACY if stat is not None and max(stat[0], stat[2]) >= racy_after else stat
    return {"files": files, "dirs": dirs}


def _fresh(root: Path, fingerprint: dict) -> bool:
    """Every watched path as recorded; stats relative to an open root (the hot path of a cache hit).

    Besides mtime and size, the inode change time and inode number must match: neither can be set
    by hand, so a fingerprint planted with copied mtimes (a tarball, ``touch -d``) never matches.
    """
    root_fd = os.open(root, os.O_RDONLY)
    try:
        for table in (fingerprint["files"], fingerprint["dirs"]):
            for rel, recorded in table.items():
                try:
                    stat = os.stat(rel, dir_fd=root_fd)
                except OSError:
                    if recorded is not None:
                        return False
                    continue
                # a RACY entry never matches: its mtime is recorded as -1
                if recorded != [stat.st_mtime_ns, stat.st_size, stat.st_ctime_ns, stat.st_ino]:
                    return False
    finally:
        os.close(root_fd)
    return True


def _stat(path: Path) -> list[int] | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return [stat.st_mtime_ns, stat.st_size, stat.st_ctime_ns, stat.st_ino]
