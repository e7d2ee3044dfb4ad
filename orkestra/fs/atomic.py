"""The one atomic file writer for paths outside a guarded workspace tree (ledgers, changelogs,
decision records, the mining index, telemetry pages and outboxes, ingested skills).

Everything is written under a temporary name in the target's own folder and renamed over the
target only once complete, so a reader (or a process killed at any moment) sees the old file or
the new one, never a mix; a failed write leaves no temporary file behind. Generated files inside
a workspace go through ``orkestra.fs.guard.SafeTree`` instead, which adds the symlink and
``.git`` guard on top of the same temporary-then-rename write.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO


@contextmanager
def atomic_file(
    path: str | os.PathLike[str], *, mode: int | None = None, durable: bool = False, buffering: int = -1
) -> Iterator[BinaryIO]:
    """A binary handle whose bytes replace ``path`` when the block ends without an exception.

    ``mode``: permission bits for the new file (default: mkstemp's 0600); ``durable``: fsync before
    the rename (a power cut keeps one of the two versions too)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(fd, "wb", buffering=buffering) as handle:
            yield handle
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def write_atomic(
    path: str | os.PathLike[str], data: bytes | str, *, mode: int | None = None, durable: bool = False
) -> None:
    """Replace ``path`` with ``data`` (text is written as UTF-8) in one rename."""
    with atomic_file(path, mode=mode, durable=durable) as handle:
        handle.write(data.encode("utf-8") if isinstance(data, str) else data)


def create_new(path: str | os.PathLike[str], data: bytes | str) -> bool:
    """Create ``path`` with ``data``, complete and fsynced, only if it does not exist yet (a hard link
    from the temporary file: never an overwrite, never a partial file); False when it already exists."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(tmp, target)
        except FileExistsError:
            return False
        return True
    finally:
        os.unlink(tmp)
