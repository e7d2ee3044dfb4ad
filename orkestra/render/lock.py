"""One sync at a time per workspace (its own module: the stat-only no-op check takes it too)."""

from __future__ import annotations

import fcntl
import os
from contextlib import contextmanager

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


@contextmanager
def sync_lock(root: Path) -> Iterator[None]:
    """One sync at a time per workspace: an exclusive flock on the root directory itself (no lock file)."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock
