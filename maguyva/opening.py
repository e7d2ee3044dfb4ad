"""Opening the retrieval a command asks for, importing only what that retrieval needs.

One repository's index opens a ``Maguyva`` (no answer models, no team code); a store naming a
whole PostgreSQL workspace (``repo=*``) opens a ``maguyva.workspace.TeamWorkspace``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maguyva.api import Maguyva
    from maguyva.workspace import TeamWorkspace


def open_api(root: str | Path, store: str | None = None) -> "Maguyva | TeamWorkspace":
    """``Maguyva.open``, or a ``TeamWorkspace`` when the store names a whole workspace (``repo=*``)."""
    from maguyva.store.location import store_path
    from maguyva.store.postgres.location import PostgresLocation

    location = store_path(Path(root).resolve(), store)
    if isinstance(location, PostgresLocation) and location.whole_workspace:
        from maguyva.embed.base import settings_for
        from maguyva.workspace import TeamWorkspace

        return TeamWorkspace(location, embedding_settings=settings_for(Path(root).resolve()))
    from maguyva.api import Maguyva

    return Maguyva.open(root, store)
