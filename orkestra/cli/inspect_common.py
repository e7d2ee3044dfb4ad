"""Options and printing shared by the inspection commands (system, agents, skills, decisions, ...)."""

from __future__ import annotations

import json
from typing import Annotated, Any, Optional, Sequence

import typer

from orkestra.cli.output import Format, emit_json, emit_table

RootOption = Annotated[Optional[str], typer.Option(
    "--root", help="Workspace root (default: nearest directory upwards from the cwd with orkestra.yaml).")]
FormatOption = Annotated[Format, typer.Option("--format", help="json (default, tools) or table (people).")]
LimitOption = Annotated[Optional[int], typer.Option("--limit", min=1, help="Show at most N results.")]


def show_rows(data: dict[str, Any], fmt: Format, key: str, columns: Sequence[str]) -> None:
    """A listing: JSON as is, or the rows under ``key`` as a table of ``columns``."""
    if fmt is Format.json:
        emit_json(data)
        return
    title = f"{key} ({data.get('count', len(data[key]))})"
    emit_table(title, columns, [[_cell(row.get(column)) for column in columns] for row in data[key]])


def show_record(data: dict[str, Any], fmt: Format, title: str) -> None:
    """A single record: JSON as is, or one ``field | value`` table row per top-level field."""
    if fmt is Format.json:
        emit_json(data)
        return
    emit_table(title, ("field", "value"), [[key, _cell(value)] for key, value in data.items()])


def _cell(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return ", ".join(value)
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return "" if value is None else str(value)
