"""Finding a project's root: the nearest folder at or above a start that holds a marker (``orkestra.yaml``,
``.git``). The one search every "where is the repository" question goes through: the workspace
(``orkestra.workspace.root.find_root``), mining (``.git``) and the telemetry store (either).

Stdlib ``os`` only, on plain strings: the telemetry hook finds its store with it.
"""

from __future__ import annotations

import os

CONFIG_FILE = "orkestra.yaml"  # the workspace's marker (``orkestra.workspace.root`` re-exports it)


def nearest_root(start, markers, exists=os.path.exists):
    """The nearest directory at or above ``start`` (links resolved) holding one of ``markers`` (names),
    as a string; None when no folder up to the file system's root does. ``exists`` decides what counts
    as holding one: any entry (a ``.git`` folder, or the file a worktree has), or ``os.path.isfile``."""
    directory = os.path.realpath(start)
    while True:
        if any(exists(os.path.join(directory, marker)) for marker in markers):
            return directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent
