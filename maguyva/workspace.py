"""Team workspaces: several repositories in one PostgreSQL store, queried together or one at a time.

A workspace is a scope (``maguyva.scope``): the scoped retrieval runs the one-repository
``Maguyva`` in every repository it selects and merges the answers, fusing rankings by rank.

In a workspace every place is repository-qualified: citations read ``repo:path:line``, and any
path or path-prefix argument may be ``repo:path`` (``api:`` alone selects the repository
``api``). A ``TeamWorkspace`` is bound to one workspace: repository names are looked up inside
it and every store query is keyed by repository id, so nothing outside it can be named.
There is no checkout on a team server; files are read from the index, never from disk.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from maguyva.answers import OverviewAnswer, RefreshAnswer, StatusAnswer
from maguyva.api import Maguyva
from maguyva.errors import MaguyvaError
from maguyva.scope import Scope, ScopedMaguyva, hosted_path, qualify  # noqa: F401 (qualify: importable here too)
from maguyva.store.postgres.location import PostgresLocation


def workspace_status(store: PostgresLocation | str) -> dict:
    """Every repository of a workspace with its published snapshot (commit, time) and languages."""
    team = TeamWorkspace(store)
    try:
        return team.index_status().dump()
    finally:
        team.close()


REFRESH_HINT = "the team index is published from CI: run `orkestra code index --store URL` there"


@dataclass
class HostedMaguyva(Maguyva):
    """One repository of a team store: the same retrieval, with files read from the index only."""

    repo: str = ""

    def _file_content(self, path: str, *, ranged: bool) -> tuple[str, str, Path | None]:
        relative = hosted_path(path)
        content = self.store.file_text(relative)
        if content is None:
            raise MaguyvaError(f"no file {relative!r} in repository {self.repo!r}")
        return relative, content, None

    def repo_overview(self, *, hubs: int = 15) -> OverviewAnswer:
        return super().repo_overview(hubs=hubs).model_copy(update={"root": self.repo})

    def index_status(self) -> StatusAnswer:
        snapshot = self.store.snapshot()
        return StatusAnswer.model_validate(
            {
                "repo": self.repo,
                "store": self.store_location,
                "snapshot": snapshot.as_dict() if snapshot else None,
                "languages": [s.as_row() for s in self.store.language_stats()],
            }
        )

    def refresh_index(self) -> RefreshAnswer:
        raise MaguyvaError(REFRESH_HINT)


class WorkspaceScope(Scope):
    """The repositories of one PostgreSQL workspace, all read through one connection, keyed by repository id."""

    def __init__(
        self, location: PostgresLocation | str, embedder: Any = None, embedding_settings: Any = None
    ):
        from maguyva.store.postgres import catalog

        self.location = PostgresLocation.parse(location)
        super().__init__(self.location.workspace, label=f"workspace {self.location.workspace!r}")
        self.embedder, self.embedding_settings = embedder, embedding_settings
        self.conn = catalog.connect(self.location.conninfo, create=False)
        if not self.refresh():
            self.close()
            raise MaguyvaError(
                f"workspace {self.name!r} has no indexed repositories "
                f"(run `orkestra code index --store URL` in CI first)"
            )

    def refresh(self) -> dict[str, Maguyva]:
        """Pick up repositories indexed since the last call (CI may publish a new one at any time)."""
        from maguyva.store.postgres import catalog
        from maguyva.store.postgres.store import PostgresStore

        for name in catalog.workspace_repos(self.conn, self.name):
            if name not in self.repos:
                place = self.location.for_repo(name)
                store = PostgresStore(place, readonly=True, conn=self.conn)
                self.repos[name] = HostedMaguyva(
                    Path(name),
                    store,
                    str(place),
                    embedder=self.embedder,
                    embedding_settings=self.embedding_settings,
                    repo=name,
                )
        return self.repos

    def refresh_index(self) -> RefreshAnswer:
        raise MaguyvaError(REFRESH_HINT)

    def close(self) -> None:
        self.conn.close()  # the repositories' stores share it


class TeamWorkspace(ScopedMaguyva):
    """Retrieval over every repository of one workspace: the scoped tools over a ``WorkspaceScope``."""

    scope: WorkspaceScope

    def __init__(
        self, location: PostgresLocation | str, embedder: Any = None, embedding_settings: Any = None
    ):
        super().__init__(WorkspaceScope(location, embedder, embedding_settings))

    @property
    def workspace(self) -> str:
        return self.scope.name

    @property
    def repos(self) -> dict[str, Maguyva]:
        return self.scope.repos

    @property
    def conn(self) -> Any:
        return self.scope.conn
