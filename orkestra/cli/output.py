"""Printing results and turning library errors into exit codes; the CLI's only printer.

Exit codes: 0 success, 1 diagnostics / drift / not found / no workspace, 2 usage errors.
Results go to stdout: JSON when piped (stable, documented in docs/cli.md), tables or text for a
person at a terminal (``--format`` chooses; see options.py). Errors go to stderr.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import typer

from maguyva.controls import visible
from orkestra.cli.options import Format, pick_format

__all__ = [
    "Format",
    "emit_json",
    "emit_lines",
    "emit_table",
    "emit_text",
    "fail",
    "run",
    "show_record",
    "show_rows",
]

# Columns that tell rows apart: at any width they are shown whole, or shortened in the middle.
KEY_COLUMNS = frozenset(
    {"id", "name", "ref", "skill", "rule", "where", "citation", "path", "session", "sha", "family"}
)
LIST_LINES = 3  # a listing's free-text cell shows at most this many lines; `info` shows the rest
NO_WORKSPACE_HINT = "hint: run `orkestra init` to create orkestra.yaml here, or pass --repo PATH"


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
    sys.stdout.write("".join(f"{visible(line)}\n" for line in lines))


def emit_table(
    title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]], max_lines: int | None = LIST_LINES
) -> None:
    """Render rows as a rich table that fits the terminal (rich is imported only here, for people).

    Key columns (:data:`KEY_COLUMNS`, e.g. a ``path:line`` citation) are never wrapped or cut at
    the end: a value too long for its column is shortened in the middle, so rows stay
    distinguishable. Other text wraps, to at most ``max_lines`` lines (None: in full)."""
    from rich.console import Console
    from rich.table import Table

    console = Console(markup=False, emoji=False, highlight=False)  # a cell's "[link=…]" is text, not a link
    cells = [["" if v is None else visible(str(v)) for v in row] for row in rows]
    keys = {i for i, column in enumerate(columns) if column in KEY_COLUMNS}
    widths = column_widths(columns, cells, console.width, keys)
    table = Table(title=title)
    for index, column in enumerate(columns):
        table.add_column(column, width=widths[index], no_wrap=index in keys, overflow="fold")
    for row in cells:
        table.add_row(
            *(
                shorten_middle(v, widths[i]) if i in keys else wrap_cell(v, widths[i], max_lines)
                for i, v in enumerate(row)
            )
        )
    console.print(table)


def column_widths(
    columns: Sequence[str], cells: Sequence[Sequence[str]], width: int, keys: set[int]
) -> list[int]:
    """Each column's width so the table fits ``width``: short columns whole, then a fair share each,
    key columns weighing twice as much as free text."""
    count = len(columns)
    natural = [
        max([len(columns[i]), *(len(line) for row in cells for line in row[i].splitlines() or [""])])
        for i in range(count)
    ]
    budget = width - (3 * count + 1)  # rich's borders and padding
    if sum(natural) <= budget:
        return natural
    widths = {i: natural[i] for i in range(count) if natural[i] <= 12 and i not in keys}
    budget -= sum(widths.values())
    weight = {i: 2 if i in keys else 1 for i in range(count) if i not in widths}
    left = sum(weight.values())
    for index in sorted(weight, key=lambda i: natural[i] / weight[i]):  # the narrow ones give back slack
        share = max(budget * weight[index] // max(left, 1), len(columns[index]), 6)
        widths[index] = min(natural[index], share)
        budget -= widths[index]
        left -= weight[index]
    return [widths[i] for i in range(count)]


def wrap_cell(text: str, width: int, max_lines: int | None) -> str:
    """``text`` wrapped to ``width``; beyond ``max_lines`` lines the last one ends in an ellipsis."""
    import textwrap

    lines = [piece for line in text.splitlines() for piece in (textwrap.wrap(line, width) or [""])]
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1][: width - 1].rstrip() + "…"
    return "\n".join(lines)


def shorten_middle(text: str, width: int) -> str:
    """``text`` cut to ``width`` by an ellipsis in the middle, keeping more of the end (file:line)."""
    if len(text) <= width:
        return text
    head = (width - 1) // 4
    return text[:head] + "…" + text[len(text) - (width - 1 - head) :]


def emit_text(data: Any) -> None:
    """A record for people: YAML-like ``field: value`` lines, nested values indented."""
    import yaml

    text = yaml.safe_dump(
        json.loads(json.dumps(data, ensure_ascii=False, default=_default)),
        sort_keys=False,
        allow_unicode=True,
        width=100,
        default_flow_style=False,
    )
    sys.stdout.write(visible(text))


def show_rows(data: dict[str, Any], fmt: Format | None, key: str, columns: Sequence[str]) -> None:
    """A listing: JSON as is, a table of ``columns`` (terminal default), or one tab-separated line per row."""
    fmt = pick_format(fmt, Format.table)
    if fmt is Format.json:
        emit_json(data)
        return
    rows = [[_cell(row.get(column)) for column in columns] for row in data[key]]
    if fmt is Format.text:
        emit_lines(["\t".join(row) for row in rows])
        return
    emit_table(f"{key} ({data.get('count', len(data[key]))})", columns, rows)


def show_record(data: Any, fmt: Format | None, title: str) -> None:
    """A single record: JSON as is, ``field: value`` text (terminal default), or a field | value table."""
    fmt = pick_format(fmt, Format.text)
    if fmt is Format.json:
        emit_json(data)
    elif fmt is Format.text:
        emit_text(data)
    else:
        emit_table(
            title, ("field", "value"), [[key, _cell(value)] for key, value in data.items()], max_lines=None
        )


def _cell(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value)
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return "" if value is None else str(value)


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``message`` on stderr and exit with ``code``."""
    sys.stderr.write(f"error: {visible(message)}\n")
    raise typer.Exit(code)


def run(action: Callable[[], int | None]) -> None:
    """Call ``action`` and translate library errors into stderr text and exit codes."""
    from maguyva.errors import MaguyvaError
    from orkestra.errors import NoWorkspaceError, OrkestraError, WorkspaceError

    try:
        code = action()
    except WorkspaceError as exc:
        for diagnostic in exc.diagnostics:
            if diagnostic.severity == "error":
                sys.stderr.write(f"{visible(str(diagnostic))}\n")
        raise typer.Exit(1) from None
    except NoWorkspaceError as exc:
        fail(f"{exc}\n{NO_WORKSPACE_HINT}", exc.exit_code)
    except (OrkestraError, MaguyvaError) as exc:  # maguyva's tree has its own root and the same exit codes
        fail(str(exc), exc.exit_code)
    if code:
        raise typer.Exit(code)
