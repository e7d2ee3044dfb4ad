"""Printing results and turning library errors into exit codes; the CLI's only printer.

Exit codes: 0 success, 1 diagnostics / drift / not found, 2 usage errors.
JSON goes to stdout (stable, documented in docs/cli.md); errors go to stderr.
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from typing import Any, Callable, NoReturn, Sequence

import typer


class Format(str, Enum):
    json = "json"
    table = "table"


def emit_json(data: Any) -> None:
    """Print ``data`` as indented, key-stable JSON on stdout."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=_default) + "\n")


def _default(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    return str(value)


def emit_lines(lines: Sequence[str]) -> None:
    """Print plain text lines on stdout (commands whose default output is for people: sync, validate)."""
    sys.stdout.write("".join(f"{line}\n" for line in lines))


def emit_table(title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Render rows as a rich table (rich is imported only here, for people)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    for column in columns:
        table.add_column(column)
    for row in rows:
        table.add_row(*("" if v is None else str(v) for v in row))
    Console().print(table)


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``message`` on stderr and exit with ``code``."""
    sys.stderr.write(f"error: {message}\n")
    raise typer.Exit(code)


def run(action: Callable[[], int | None]) -> None:
    """Call ``action`` and translate library errors into stderr text and exit codes."""
    from orkestra.errors import OrkestraError, WorkspaceError

    try:
        code = action()
    except WorkspaceError as exc:
        for diagnostic in exc.diagnostics:
            if diagnostic.severity == "error":
                sys.stderr.write(f"{diagnostic}\n")
        raise typer.Exit(1) from None
    except OrkestraError as exc:
        fail(str(exc), exc.exit_code)
    if code:
        raise typer.Exit(code)
