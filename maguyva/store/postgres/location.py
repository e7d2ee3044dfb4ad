"""A PostgreSQL store location: a ``postgresql://`` URL plus the workspace and repository it names.

``postgresql://user@host:5432/db?workspace=acme&repo=api`` — ``workspace`` and ``repo`` are ours
(stripped before connecting); every other query parameter goes to libpq untouched. ``str()``
masks the password, so a location can be printed in summaries and errors.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from maguyva.store.postgres.scheme import SCHEMES, is_postgres_url

__all__ = ["ALL_REPOS", "DEFAULT_WORKSPACE", "SCHEMES", "PostgresLocation", "is_postgres_url"]

DEFAULT_WORKSPACE = "default"
ALL_REPOS = "*"


@dataclass(frozen=True, slots=True)
class PostgresLocation:
    """Where a team index lives: the server (``conninfo``), the workspace and one repository."""

    conninfo: str
    workspace: str = DEFAULT_WORKSPACE
    repo: str | None = None  # None or "*" when the location names a whole workspace

    @classmethod
    def parse(cls, url: str | PostgresLocation) -> PostgresLocation:
        if isinstance(url, PostgresLocation):
            return url
        parts = urlsplit(url)
        ours = {"workspace": DEFAULT_WORKSPACE, "repo": None}
        rest = []
        for key, value in parse_qsl(parts.query, keep_blank_values=True):
            if key in ours:
                ours[key] = value or ours[key]
            else:
                rest.append((key, value))
        conninfo = urlunsplit(parts._replace(query=urlencode(rest)))
        return cls(conninfo, ours["workspace"], ours["repo"])

    def for_repo(self, repo: str) -> PostgresLocation:
        return replace(self, repo=repo)

    @property
    def whole_workspace(self) -> bool:
        return self.repo in (None, ALL_REPOS)

    def __str__(self) -> str:
        """The URL with the password masked, for summaries and errors (``conninfo`` is for connecting)."""
        parts = urlsplit(self.conninfo)
        netloc = parts.netloc
        if parts.password is not None:
            netloc = netloc.replace(f":{parts.password}@", ":***@", 1)
        base = urlunsplit(parts._replace(netloc=netloc))
        params = {"workspace": self.workspace, **({"repo": self.repo} if self.repo else {})}
        return base + ("&" if "?" in base else "?") + urlencode(params)
