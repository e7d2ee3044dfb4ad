"""A folder of our own: where a build (``orkestra plugin build --out DIR``) may write, and what it may replace.

An output folder is one a mistyped ``--out`` must never turn into a deletion, so:

* the path is resolved first (``..`` and symlinks, as the kernel will), never checked as typed and
  then made to exist by ``mkdir``: ``build/../src`` is ``src`` before anything happens;
* it must not be the repository, a folder holding it, anything in ``.git``, or be, hold or lie inside a
  source folder (the registries, templates, ai_assets, the state folder, the package sources...);
* it is replaced only when it is absent, empty, or a folder we wrote: a marker file
  (:data:`MARKER`) lists every file with its sha256, and the folder holds nothing else, no link, no
  file changed since. Anything else is refused, and nothing is removed that the marker does not list.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from orkestra.errors import OrkestraError
from orkestra.fs.links import is_git_part, read_regular
from orkestra.fs.scan import walk_tree

MARKER = ".orkestra-build.json"
MAX_MARKER_BYTES = 8 << 20


class UnsafeOutput(OrkestraError):
    """An output folder that may not be written or replaced."""


def resolve_output(out: str | os.PathLike[str], root: Path, protected: Iterable[str], built_by: str) -> Path:
    """The real folder ``out`` names (relative to the cwd), checked against ``root`` and its source folders
    ``protected`` (repo-relative), and replaceable by ``built_by``; UnsafeOutput otherwise."""
    asked = os.fspath(out)
    if not asked or "\0" in asked:
        raise UnsafeOutput(f"{asked!r}: not a folder name")
    given = Path(os.path.abspath(asked))
    if os.path.islink(given):
        raise UnsafeOutput(f"{asked}: is a symbolic link (-> {os.readlink(given)}); refusing to replace it")
    target = Path(os.path.realpath(given))
    where = asked if str(target) == asked else f"{asked} (= {target})"
    home = Path(os.path.realpath(root))
    if target == home or home.is_relative_to(target):
        raise UnsafeOutput(f"{where}: is the repository or a folder holding it; choose another --out")
    if target.is_relative_to(home):
        rel = target.relative_to(home)
        if any(is_git_part(part) for part in rel.parts):
            raise UnsafeOutput(f"{where}: lies inside .git/; choose another --out")
        for source in _folders(home, protected):
            if target == source or source.is_relative_to(target) or target.is_relative_to(source):
                name = source.relative_to(home).as_posix()
                raise UnsafeOutput(
                    f"{where}: is, holds or lies inside the source folder '{name}'; choose another --out"
                )
    problem = replace_problem(target, built_by)
    if problem:
        raise UnsafeOutput(f"{where}: {problem}; choose another --out (or remove it yourself)")
    return target


def _folders(home: Path, protected: Iterable[str]) -> list[Path]:
    found = [home / ".git"]
    for rel in protected:
        rel = rel.strip().strip("/")
        if rel and rel not in (".", "..") and not os.path.isabs(rel):
            found.append(Path(os.path.realpath(home / rel)))
    return found


def replace_problem(target: Path, built_by: str) -> str:
    """Why ``target`` may not be replaced ("" when it is absent, an empty folder or one we wrote)."""
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        return ""
    except OSError as exc:
        return f"cannot be inspected ({exc.strerror})"
    if stat.S_ISLNK(mode):
        return "is a symbolic link"
    if not stat.S_ISDIR(mode):
        return "exists and is not a folder"
    try:
        if not any(os.scandir(target)):
            return ""
    except OSError as exc:
        return f"cannot be listed ({exc.strerror})"
    listed = read_marker(target, built_by)
    if listed is None:
        return f"exists, is not empty and was not written by `{built_by}` (no {MARKER})"
    for rel, kind in _entries(target):
        if kind == "dir":
            continue
        if rel == MARKER:
            continue
        if kind != "file":
            return f"holds '{rel}', which `{built_by}` did not write (a {kind})"
        if rel not in listed:
            return f"holds '{rel}', which `{built_by}` did not write"
        try:
            digest = hashlib.sha256(read_regular(target / rel, follow=False)).hexdigest()
        except OSError as exc:
            return f"cannot read '{rel}' ({exc.strerror})"
        if digest != listed[rel]:
            return f"'{rel}' was changed since `{built_by}` wrote it"
    return ""


def read_marker(folder: Path, built_by: str) -> dict[str, str] | None:
    """The files (path → sha256) the marker in ``folder`` lists, or None when there is no valid marker."""
    try:
        data = json.loads(read_regular(folder / MARKER, MAX_MARKER_BYTES, follow=False))
    except (OSError, ValueError):
        return None
    files = data.get("files") if isinstance(data, dict) and data.get("built_by") == built_by else None
    if not isinstance(files, dict):
        return None
    return {str(k): str(v) for k, v in files.items()}


def _entries(folder: Path) -> Iterable[tuple[str, str]]:
    """(relative path, "file" | "dir" | "symlink" | "special file") of everything below ``folder``."""
    for current, dirnames, filenames in walk_tree(folder):
        base = Path(current).relative_to(folder)
        for name in [*dirnames, *filenames]:
            path = Path(current, name)
            try:
                mode = os.lstat(path).st_mode
            except OSError:
                continue
            rel = (base / name).as_posix()
            kind = (
                "symlink"
                if stat.S_ISLNK(mode)
                else "dir"
                if stat.S_ISDIR(mode)
                else "file"
                if stat.S_ISREG(mode)
                else "special file"
            )
            yield rel, kind


def write_output(target: Path, files: Mapping[str, bytes], built_by: str) -> None:
    """Write ``files`` (relative path → bytes) and the marker as folder ``target``, in one rename.

    ``target`` comes from :func:`resolve_output`. An earlier build is moved aside, then only the files its
    marker lists are deleted (anything that appeared since is left where it is)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    marker = {"built_by": built_by, "files": {}}
    try:
        for rel, content in files.items():
            path = staging / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
            marker["files"][rel] = hashlib.sha256(content).hexdigest()
        (staging / MARKER).write_text(json.dumps(marker, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        problem = replace_problem(target, built_by)  # again, just before the rename
        if problem:
            raise UnsafeOutput(f"{target}: {problem}; nothing replaced")
        old = None
        if os.path.lexists(target) and any(os.scandir(target)):
            old = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
            os.replace(target, old / "build")
        os.replace(staging, target)
        if old is not None:
            remove_build(old / "build", built_by)
            _rmdir(old)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def remove_build(folder: Path, built_by: str) -> None:
    """Delete the files ``folder``'s marker lists (and unchanged), the marker, then the folders left empty."""
    listed = read_marker(folder, built_by) or {}
    for rel, digest in listed.items():
        path = folder / rel
        try:
            if hashlib.sha256(read_regular(path, follow=False)).hexdigest() == digest:
                os.unlink(path)
        except OSError:
            continue
    try:
        os.unlink(folder / MARKER)
    except OSError:
        pass
    dirs = [current for current, _, _ in walk_tree(folder)]
    for current in reversed(dirs):
        _rmdir(Path(current))


def _rmdir(path: Path) -> None:
    try:
        os.rmdir(path)
    except OSError:
        pass
