"""The one body of every inspection command: ask `orkestra.inspect.api`, print a listing or a record.

``info`` is the same command for agents, skills, decisions and truths (one key, looked up with
"did you mean ..."), so :func:`info_command` writes it once for all four.
"""

# No `from __future__ import annotations`: info_command's parameters are annotated with values
# built at call time, which typer must see as objects, not as strings to resolve later.

from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Annotated, Any

import typer

from orkestra.cli.options import Format, FormatOption, RepoOption
from orkestra.cli.output import run, show_record, show_rows

Fetch = Callable[[ModuleType], Any]  # called with orkestra.inspect.api, imported only when it runs


def list_rows(fetch: Fetch, fmt: Format | None, key: str, columns: Sequence[str]) -> None:
    """Print ``fetch(api)`` as a listing of the rows under ``key`` (a table on a terminal)."""
    run(lambda: show_rows(fetch(_api()), fmt, key, columns))


def one_record(fetch: Fetch, fmt: Format | None, title: str) -> None:
    """Print ``fetch(api)`` as one record (``field: value`` text on a terminal)."""
    run(lambda: show_record(fetch(_api()), fmt, title))


def info_command(
    group: str, noun: str, metavar: str, example: str, summary: str, jq: str
) -> Callable[..., None]:
    """The ``orkestra GROUP info KEY`` command: ``api.<noun>_info(repo, key)`` printed as one record."""
    Key = Annotated[
        str, typer.Argument(metavar=metavar, help=f"The {noun}'s {metavar.lower()}, e.g. {example}.")
    ]

    def info(key: Key, repo: RepoOption = None, fmt: FormatOption = None) -> None:
        one_record(lambda api: getattr(api, f"{noun}_info")(repo, key), fmt, f"{noun} {key}")

    info.__doc__ = (
        f'{summary}\n\nAn unknown {metavar.lower()} exits 1 with "did you mean ...".\n\n\b\n'
        f"Example:\n  orkestra {group} info {example}\n  orkestra {group} info {example} | jq '{jq}'\n"
    )
    info.__name__ = info.__qualname__ = f"{noun}_info"
    return info


def _api() -> ModuleType:
    from orkestra.inspect import api

    return api
