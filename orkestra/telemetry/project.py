"""A project's telemetry settings and store folder, read through the workspace config model
(``orkestra.workspace.config``, which embeds the ``telemetry:`` section of ``orkestra.telemetry.settings``)."""

from __future__ import annotations

from pathlib import Path

from orkestra.telemetry.settings import TelemetrySettings


def load_settings(root: Path) -> TelemetrySettings:
    """The ``telemetry:`` section of ``root/orkestra.yaml`` (defaults when there is no such file), from
    the one config model (``orkestra.workspace.config.load_config``, loaded once per process).

    Raises ``WorkspaceError`` with a located diagnostic for a bad file or value.
    """
    from orkestra.workspace.config import load_config

    return load_config(root).telemetry


def store_dir_for(root: Path, store_dir: str | None = None) -> str:
    """The store folder a command reads: the user's own ``--store-dir`` as given (any folder), else the
    repository's ``telemetry.store_dir``, inside it with no symlink on the way (an ``OrkestraError``
    naming the file and the field otherwise)."""
    from orkestra.telemetry.store import UnsafeStoreDir, resolve_store_dir, store_directory

    if store_dir:
        return resolve_store_dir(root, store_dir)
    try:
        return store_directory(str(root), load_settings(Path(root)).store_dir, create=False)
    except UnsafeStoreDir as exc:
        from orkestra.errors import OrkestraError

        raise OrkestraError(f"{Path(root) / 'orkestra.yaml'}: telemetry.store_dir: {exc}") from None
