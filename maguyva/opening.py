"""Opening the retrieval a command asks for, importing only what that retrieval needs.

One repository's index opens a ``Maguyva`` (no answer models, no team code); a store naming a
whole PostgreSQL workspace (``repo=*``) opens a ``maguyva.workspace.TeamWorkspace``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maguyva.api import Maguyva
    from maguyva.workspace import TeamWorkspace


def open_api(root: str | Path, store: str | None = None) -> Maguyva | TeamWorkspace:
    """``Maguyva.open``, or a ``TeamWorkspace`` when the store names a whole workspace (``repo=*``)."""
    if _may_name_a_workspace(Path(root).resolve(), store):
        from maguyva.store.location import store_path
        from maguyva.store.postgres.location import PostgresLocation

        location = store_path(Path(root).resolve(), store)
        if isinstance(location, PostgresLocation) and location.whole_workspace:
            from maguyva.embed.base import settings_for
            from maguyva.workspace import TeamWorkspace

            return TeamWorkspace(location, embedding_settings=settings_for(Path(root).resolve()))
    from maguyva.api import Maguyva

    return Maguyva.open(root, store)


def _may_name_a_workspace(root: Path, store: str | None) -> bool:
    """Whether the store may be a PostgreSQL URL: only ``--store``, ``$MAGUYVA_STORE`` or a ``maguyva:``
    section in orkestra.yaml can name one (the default is a SQLite file in the git dir), so the usual
    case asks git nothing here (``Maguyva.open`` asks it once)."""
    from maguyva.config_file import declares_section
    from maguyva.store.location import ENV_VAR

    return bool(store or os.environ.get(ENV_VAR) or declares_section(root))
