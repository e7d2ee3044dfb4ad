"""Printing results and turning library errors into exit codes; the CLI's only printer.

Exit codes: 0 success, 1 diagnostics / drift / not found / no workspace, 2 usage errors.
Results go to stdout: JSON when piped (stable, documented in docs/cli.md), tables or text for a
person at a terminal (``--format`` chooses; see options.py). Errors go to stderr.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

import typer

from maguyva.cli.output import fail  # the same ``error: …`` line and exit code as the maguyva CLI
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

    lines = [
        piece
        for line in text.splitlines()
        for piece in (
            textwrap.wrap(line, width, subsequent_indent=" " * _hanging(line), break_on_hyphens=False) or [""]
        )
    ]
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = lines[-1][: width - 1].rstrip() + "…"
    return "\n".join(lines)


def _hanging(line: str) -> int:
    """How far a wrapped line's continuation is indented: under the text of a ``- item`` or an indent."""
    match = re.match(r"\s*(?:- )?", line)
    return min(len(match.group(0)) if match else 0, 8)


def shorten_middle(text: str, width: int) -> str:
    """``text`` cut to ``width`` by an ellipsis in the middle, keeping more of the end (file:line)."""
    if len(text) <= width:
        return text
    head = (width - 1) // 4
    return text[:head] + "…" + text[len(text) - (width - 1 - head) :]


def emit_text(data: Any) -> None:
    """A record for people: ``field: value`` lines, nested values indented, lists one ``- item`` a line.

    Free text (a decision's summary, context) reads as text: a hard-wrapped paragraph is joined and
    wrapped again to the terminal, blank lines part paragraphs, and a block of list items, indented
    or fenced lines is kept as written (:func:`readable`)."""
    data = json.loads(json.dumps(data, ensure_ascii=False, default=_default))
    lines: list[str] = []
    _text_lines(data, "", lines, text_width())
    sys.stdout.write("".join(f"{visible(line)}\n" for line in lines))


TEXT_WIDTH = 100  # text records wrap at the terminal's width, and never wider than this
_LITERAL = re.compile(r"^(?:\s+\S|\s*(?:[-*+•]|\d+[.)])\s|\s*```|\s*\||\s*>)")


def text_width() -> int:
    import shutil

    return max(40, min(shutil.get_terminal_size((TEXT_WIDTH, 24)).columns, TEXT_WIDTH))


def readable(text: str, width: int) -> list[str]:
    """Free text as lines of at most ``width`` (a longer word stays whole): each paragraph (lines up
    to a blank one) joined and wrapped again, unless it holds list items, indented, quoted or fenced
    lines, which are kept as written (a literal block); one empty line between paragraphs."""
    import textwrap

    out: list[str] = []
    for block in re.split(r"\n[ \t]*\n", text.strip("\n")):
        lines = [line.rstrip() for line in block.splitlines()]
        if any(_LITERAL.match(line) for line in lines):
            out.extend(lines)
        else:
            joined = " ".join(line.strip() for line in lines)
            out.extend(textwrap.wrap(joined, width, break_long_words=False, break_on_hyphens=False) or [""])
        out.append("")
    return out[:-1] or [""]


def _text_lines(value: Any, indent: str, out: list[str], width: int) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _text_field(str(key), item, indent, out, width)
    elif isinstance(value, list):
        for item in value:
            _text_item(item, indent, out, width)
    else:
        out.extend(indent + line if line else "" for line in readable(_scalar(value), width - len(indent)))


def _text_field(key: str, value: Any, indent: str, out: list[str], width: int) -> None:
    head = f"{indent}{key}:"
    if isinstance(value, (dict, list)) and value:
        out.append(head)
        _text_lines(value, indent + "  ", out, width)
    elif isinstance(value, str) and ("\n" in value.strip() or len(head) + 1 + len(value) > width):
        out.append(head)  # free text: its own indented block, wrapped as paragraphs
        out.extend(f"{indent}  {line}" if line else "" for line in readable(value, width - len(indent) - 2))
    else:
        out.append(f"{head} {_scalar(value)}")


def _text_item(item: Any, indent: str, out: list[str], width: int) -> None:
    """One ``- item`` of a list: a record's fields under the dash, text wrapped with a hanging indent."""
    nested: list[str] = []
    if isinstance(item, (dict, list)) and item:
        _text_lines(item, indent + "  ", nested, width)
    else:
        nested = [
            f"{indent}  {line}" if line else "" for line in readable(_scalar(item), width - len(indent) - 2)
        ]
    out.append(f"{indent}- {nested[0][len(indent) + 2 :]}")
    out.extend(nested[1:])


def _scalar(value: Any) -> str:
    if value is None or value in ([], {}, ""):
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


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
        record = json.loads(json.dumps(data, ensure_ascii=False, default=_default))
        emit_table(
            title,
            ("field", "value"),
            [[key, _record_cell(value)] for key, value in record.items()],
            max_lines=None,
        )


def _record_cell(value: Any) -> str:
    """A record's value in a field | value table: free text as paragraphs (joined, for the cell to
    wrap), a list one ``- item`` a line, nested records as the text view prints them."""
    if isinstance(value, str):
        return "\n".join(readable(value, 10**6))  # one line per paragraph; the cell wraps them
    if isinstance(value, (dict, list)) and value:
        lines: list[str] = []
        _text_lines(value, "", lines, 10**6)
        return "\n".join(lines)
    return _scalar(value)


def _cell(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value)
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return "" if value is None else str(value)


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
