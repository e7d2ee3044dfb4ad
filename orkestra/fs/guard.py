"""The write guard: every file orkestra writes or deletes below a workspace goes through here.

A cloned repository is untrusted. Its committed symlinks must not turn a write into
``.claude/`` into a write anywhere else (``.git/hooks``, ``~/.ssh``), so:

* a path is refused lexically if it is absolute, climbs (``..``), or has a ``.git``
  component at any depth (case-insensitively: ``.GIT`` is ``.git`` on macOS and Windows);
* directories are opened one component at a time from the root with ``O_NOFOLLOW``
  (``openat``), so no component — folder or file — is ever a symlink we pass through;
  the final name is created ``O_EXCL | O_NOFOLLOW`` as a temp file and renamed over the
  target inside that directory, which replaces a symlink rather than following it.

Checking and writing use the same descriptors, so a link swapped in between cannot redirect
a write. ``SafeTree`` is the one place new render targets inherit all of this from.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Self

from orkestra.errors import OrkestraError
from orkestra.fs.links import is_git_part

TMP_SUFFIX = ".orkestra-tmp"
MAX_PARTS = 256  # folders a written path may nest (each holds a descriptor while the tree is open)
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


class UnsafePath(OrkestraError):
    """A write or delete that would leave the workspace, enter ``.git`` or pass through a symlink."""


def path_parts(rel: str) -> list[str]:
    """The components of a repo-relative POSIX path, or UnsafePath when it may not be written."""
    parts = rel.replace("\\", "/").split("/")
    if not rel or rel.startswith("/") or any(p in ("", ".", "..") for p in parts):
        raise UnsafePath(f"refusing to write {rel!r}: not a plain path inside the workspace")
    if any(is_git_part(p) for p in parts):
        raise UnsafePath(f"refusing to write {rel!r}: it lies inside .git/")
    if "\0" in rel:
        raise UnsafePath(f"refusing to write {rel!r}: NUL byte in the path")
    if len(parts) > MAX_PARTS:
        raise UnsafePath(
            f"refusing to write {rel[:200]!r}…: nested {len(parts)} folders deep (the limit is {MAX_PARTS})"
        )
    return parts


def symlink_refusal(target: str, link: str, points_to: str) -> str:
    via = "it is a symlink" if link == target else f"{link!r} is a symlink"
    return (
        f"refusing to write {target!r}: outside the workspace root as far as sync is concerned "
        f"({via} -> {points_to}); sync never writes through symlinks"
    )


def tmp_name(name: str) -> str:
    return f".{name}.{os.getpid()}{TMP_SUFFIX}"


class SafeTree:
    """Directory descriptors below ``root``, opened without following any symlink. Use as a context."""

    def __init__(self, root: Path | str):
        self.root = Path(root)
        self._fds: dict[tuple[str, ...], int] = {(): os.open(self.root, _DIR_FLAGS & ~os.O_NOFOLLOW)}

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        for fd in self._fds.values():
            os.close(fd)
        self._fds.clear()

    # --- directories ------------------------------------------------------------------------

    def _dir(self, parts: tuple[str, ...], create: bool, target: str = "") -> int | None:
        """The descriptor of folder ``parts`` (None when missing and not ``create``); ``target`` names
        the file being written, for the message."""
        fd = self._fds.get(parts)
        if fd is not None:
            return fd
        known = len(parts) - 1  # the deepest folder on the way already open (the root always is)
        while parts[:known] not in self._fds:
            known -= 1
        for depth in range(known + 1, len(parts)):  # each folder on the way, from the top: no recursion
            if self._open(parts[:depth], create, target) is None:
                return None
        return self._open(parts, create, target)

    def _open(self, parts: tuple[str, ...], create: bool, target: str) -> int | None:
        """Open folder ``parts`` below its (open) parent, without following a link."""
        parent = self._fds[parts[:-1]]
        name = parts[-1]
        try:
            fd = os.open(name, _DIR_FLAGS, dir_fd=parent)
        except FileNotFoundError:
            if not create:
                return None
            try:
                os.mkdir(name, 0o777, dir_fd=parent)
            except FileExistsError:
                pass
            fd = os.open(name, _DIR_FLAGS, dir_fd=parent)
        except OSError as exc:
            raise self._refusal(target or "/".join(parts), "/".join(parts), parent, name, exc) from None
        self._fds[parts] = fd
        return fd

    def _refusal(self, target: str, rel: str, parent: int, name: str, exc: OSError) -> UnsafePath:
        try:
            mode = os.lstat(name, dir_fd=parent).st_mode
        except OSError:
            mode = 0
        if stat.S_ISLNK(mode):
            return UnsafePath(symlink_refusal(target, rel, os.readlink(name, dir_fd=parent)))
        if exc.errno == errno.ENOTDIR or (mode and not stat.S_ISDIR(mode)):
            return UnsafePath(f"cannot write {target!r}: {rel!r} is a file, not a folder; move it away")
        return UnsafePath(f"cannot write {target!r}: cannot open {rel!r}: {exc.strerror}")

    def _lstat(self, rel: str) -> tuple[int | None, str, os.stat_result | None]:
        parts = path_parts(rel)
        fd = self._dir(tuple(parts[:-1]), create=False, target=rel)
        if fd is None:
            return None, parts[-1], None
        try:
            return fd, parts[-1], os.lstat(parts[-1], dir_fd=fd)
        except FileNotFoundError:
            return fd, parts[-1], None

    # --- queries ----------------------------------------------------------------------------

    def exists(self, rel: str) -> bool:
        """Whether anything stands at ``rel`` (a file, a folder, a link, dangling or not); UnsafePath when
        a folder on the way is a symlink."""
        return self._lstat(rel)[2] is not None

    def check(self, rel: str) -> str:
        """Raise UnsafePath unless ``rel`` may be written; returns "file", "dir" or "absent"."""
        fd, name, st = self._lstat(rel)
        if st is None:
            return "absent"
        if stat.S_ISLNK(st.st_mode):
            raise UnsafePath(symlink_refusal(rel, rel, os.readlink(name, dir_fd=fd)))
        if stat.S_ISDIR(st.st_mode):
            return "dir"
        return "file" if stat.S_ISREG(st.st_mode) else "other"

    def read(self, rel: str, limit: int | None = None) -> bytes | None:
        """Bytes of the regular file ``rel`` (None when absent or not a regular file), never via a link.

        With ``limit``, a file larger than that (checked with ``fstat`` on the open file, at most
        limit + 1 bytes read) raises ``NotRegularFile`` (EFBIG) unread: a 3 GB sparse file costs nothing."""
        try:
            fd, name, st = self._lstat(rel)
        except UnsafePath:
            return None
        if st is None or not stat.S_ISREG(st.st_mode):
            return None
        handle = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=fd)
        with os.fdopen(handle, "rb") as file:
            if limit is None:
                return file.read()
            from maguyva.capped import NotRegularFile

            size = os.fstat(handle).st_size
            data = file.read(limit + 1) if size <= limit else b""
            if size > limit or len(data) > limit:
                raise NotRegularFile(errno.EFBIG, f"larger than {limit:,} bytes", rel)
            return data

    def entries(self, rel_dir: str) -> list[str]:
        """Names in folder ``rel_dir`` ("" for the root), [] when it is missing."""
        parts = tuple(path_parts(rel_dir)) if rel_dir else ()
        try:
            fd = self._dir(parts, create=False)
        except UnsafePath:
            return []
        return [] if fd is None else os.listdir(fd)

    # --- writes -----------------------------------------------------------------------------

    def makedirs(self, rel_dir: str) -> None:
        """Create folder ``rel_dir`` and its parents (none of them may be a symlink)."""
        self._dir(tuple(path_parts(rel_dir)), create=True, target=rel_dir)

    def stage(self, rel: str, data: bytes, executable: bool = False) -> str:
        """Write ``data`` to a fresh temp file beside ``rel``; returns the temp file's relative path."""
        parts = path_parts(rel)
        if self.check(rel) == "dir":
            raise UnsafePath(
                f"cannot write {rel!r}: a directory stands where sync writes a file; move it away"
            )
        fd = self._dir(tuple(parts[:-1]), create=True, target=rel)
        tmp = tmp_name(parts[-1])
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
        mode = 0o755 if executable else 0o644
        try:
            handle = os.open(tmp, flags, mode, dir_fd=fd)
        except FileExistsError:  # left over by a crashed run with our pid
            os.unlink(tmp, dir_fd=fd)
            handle = os.open(tmp, flags, mode, dir_fd=fd)
        try:
            with os.fdopen(handle, "wb") as file:
                file.write(data)
        except BaseException:
            os.unlink(tmp, dir_fd=fd)
            raise
        return "/".join([*parts[:-1], tmp])

    def commit(self, tmp_rel: str, rel: str) -> None:
        """Rename a staged temp file over ``rel`` (same folder; a symlink at ``rel`` is replaced, not followed)."""
        parts = path_parts(rel)
        fd = self._dir(tuple(parts[:-1]), create=False, target=rel)
        try:
            os.replace(tmp_rel.rpartition("/")[2], parts[-1], src_dir_fd=fd, dst_dir_fd=fd)
        except IsADirectoryError:
            raise UnsafePath(
                f"cannot write {rel!r}: a directory stands where sync writes a file; move it away"
            ) from None

    def write(self, rel: str, data: bytes, executable: bool = False) -> None:
        """Atomically replace ``rel`` with ``data``."""
        tmp = self.stage(rel, data, executable)
        try:
            self.commit(tmp, rel)
        except BaseException:
            self.unlink(tmp)
            raise

    def unlink(self, rel: str) -> bool:
        """Delete the file ``rel`` (a symlink itself, never its target); False when it was absent."""
        fd, name, st = self._lstat(rel)
        if st is None:
            return False
        if stat.S_ISDIR(st.st_mode):
            raise UnsafePath(f"cannot delete {rel!r}: it is a directory")
        os.unlink(name, dir_fd=fd)
        return True

    def prune_empty_dirs(self, rel: str, stop: str) -> None:
        """Remove the now-empty folders above file ``rel``, up to (not including) folder ``stop``."""
        parts, stop_parts = path_parts(rel)[:-1], tuple(p for p in stop.strip("/").split("/") if p)
        while len(parts) > len(stop_parts) and tuple(parts[: len(stop_parts)]) == stop_parts:
            key = tuple(parts)
            parent = self._dir(key[:-1], create=False)
            if parent is None:
                return
            fd = self._fds.pop(key, None)
            if fd is not None:
                os.close(fd)
            try:
                os.rmdir(key[-1], dir_fd=parent)
            except OSError:
                return
            parts = parts[:-1]


def write_file(root: Path | str, rel: str, data: bytes, executable: bool = False) -> None:
    """One guarded atomic write below ``root`` (for writers outside sync: caches, state)."""
    with SafeTree(root) as tree:
        tree.write(rel, data, executable)
