"""The one body of every inspection command: ask `orkestra.inspect.api`, print a listing or a record.

``info`` and ``search`` are the same command for every registry but for the entity they name, so
:func:`info_command` and :func:`search_command` write them once from an :class:`Entity`. ``list``
stays written out per registry (each has its own filters) and shares only :func:`list_rows`.
"""

# No `from __future__ import annotations`: the factories' parameters are annotated with values
# built at call time, which typer must see as objects, not as strings to resolve later.

from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Annotated, Any, NamedTuple

import typer

from orkestra.cli.options import Format, FormatOption, LimitOption, RepoOption
from orkestra.cli.output import run, show_record, show_rows

Fetch = Callable[[ModuleType], Any]  # called with orkestra.inspect.api, imported only when it runs


class Entity(NamedTuple):
    """What the inspection commands of one registry differ by (a NamedTuple: no import at start-up)."""

    group: str  # the command group, and the JSON key of a listing's rows: "agents"
    noun: str  # one of them: "agent" (the record is `api.agent_info`)
    metavar: str  # what names one: "NAME" or "ID"
    example: str  # one that exists in this repository's registries, for the help
    columns: tuple[str, ...]  # a listing's table columns, the name or id first

    @property
    def scored_columns(self) -> tuple[str, ...]:
        """A search's columns: the name or id, its score, then the rest."""
        return (self.columns[0], "score", *self.columns[1:])


def list_rows(fetch: Fetch, fmt: Format | None, key: str, columns: Sequence[str]) -> None:
    """Print ``fetch(api)`` as a listing of the rows under ``key`` (a table on a terminal)."""
    run(lambda: show_rows(fetch(_api()), fmt, key, columns))


def one_record(fetch: Fetch, fmt: Format | None, title: str) -> None:
    """Print ``fetch(api)`` as one record (``field: value`` text on a terminal)."""
    run(lambda: show_record(fetch(_api()), fmt, title))


def info_command(entity: Entity, summary: str, jq: str) -> Callable[..., None]:
    """The ``orkestra GROUP info KEY`` command: ``api.<noun>_info(repo, key)`` printed as one record."""
    noun, metavar, example = entity.noun, entity.metavar, entity.example
    Key = Annotated[
        str, typer.Argument(metavar=metavar, help=f"The {noun}'s {metavar.lower()}, e.g. {example}.")
    ]

    def info(key: Key, repo: RepoOption = None, fmt: FormatOption = None) -> None:
        one_record(lambda api: getattr(api, f"{noun}_info")(repo, key), fmt, f"{noun} {key}")

    info.__doc__ = (
        f'{summary}\n\nAn unknown {metavar.lower()} exits 1 with "did you mean ...".\n\n\b\n'
        f"Example:\n  orkestra {entity.group} info {example}\n  orkestra {entity.group} info {example} | jq '{jq}'\n"
    )
    info.__name__ = info.__qualname__ = f"{noun}_info"
    return info


def search_command(entity: Entity, query_help: str, example: str) -> Callable[..., None]:
    """The ``orkestra GROUP search QUERY`` command: ``api.search_<group>(repo, query, limit)`` listed."""
    group = entity.group
    Query = Annotated[str, typer.Argument(metavar="QUERY", help=query_help)]

    def search(
        query: Query, limit: LimitOption = None, repo: RepoOption = None, fmt: FormatOption = None
    ) -> None:
        list_rows(
            lambda api: getattr(api, f"search_{group}")(repo, query, limit), fmt, group, entity.scored_columns
        )

    search.__doc__ = (
        f"Search {group}, best match first.\n\n"
        f'JSON: {{"query", "count", "{group}": [... "score"]}}.\n\n\b\nExample:\n  {example}\n'
    )
    search.__name__ = search.__qualname__ = f"search_{group}"
    return search


def _api() -> ModuleType:
    from orkestra.inspect import api

    return api
