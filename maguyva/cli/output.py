"""Printing for the ``maguyva`` CLI, and library errors turned into exit codes.

Exit codes: 0 success, 1 a problem the user can fix (no index, unknown id), 2 usage errors.
JSON goes to stdout (stable, documented in docs/cli.md); errors go to stderr as ``error: …``.
rich is imported only to draw tables and progress bars, for people.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

import typer

from maguyva.cli.options import Format
from maguyva.controls import visible

CITATION = "citation"
SYMBOL = "symbol"
MIN_CITATION = 24  # shortened in the middle below this many columns, never cut at the end


def chosen(fmt: Format | None, *, listing: bool) -> Format:
    """``fmt``, or the default: ``table`` (listings) or ``text`` (records) on a terminal, ``json`` when piped."""
    if fmt is not None:
        return fmt
    if not sys.stdout.isatty():
        return Format.json
    return Format.table if listing else Format.text


def plain(data: Any) -> Any:
    """Answers as JSON-ready values (typed answers are dumped, dataclasses use their ``to_dict``)."""
    if hasattr(data, "model_dump"):
        return data.model_dump(mode="json")
    if hasattr(data, "to_dict"):
        return data.to_dict()
    return data


def emit_json(data: Any) -> None:
    """Print ``data`` as indented, key-stable JSON on stdout."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False, default=_json_value) + "\n")


def _json_value(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    converted = plain(value)
    return str(value) if converted is value else converted


def shorten_middle(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters, cut in the middle so the end (``file.py:12``) stays."""
    if len(text) <= width:
        return text
    tail = max(width * 2 // 3, 1)
    head = max(width - tail - 1, 0)
    return f"{text[:head]}…{text[-tail:]}"


def emit_table(title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Rows as a rich table. A ``citation`` column is never cut at the end: it keeps its full width
    when it fits and is shortened in the middle when it does not. In a table of hits every row stays
    one line: the last column (a snippet) takes what is left, ``symbol`` is shortened in the middle."""
    from rich.console import Console
    from rich.table import Table

    console = Console(markup=False, emoji=False, highlight=False)  # a cell's "[link=…]" is text, not a link
    cells = [["" if v is None else visible(" ".join(str(v).split())) for v in row] for row in rows]
    table = Table(title=title)
    if CITATION not in columns:  # counts, keys, languages: short values that may wrap
        for column in columns:
            table.add_column(column, overflow="fold")
    else:
        widths = [
            _hit_column_width(column, [r[i] for r in cells], console.width)
            for i, column in enumerate(columns)
        ]
        last = len(columns) - 1
        _fit(widths, columns, console.width - 3 * len(columns) - 1)
        for i, column in enumerate(columns):
            for r in cells:
                r[i] = shorten_middle(r[i], widths[i]) if i < last else _cut_end(r[i], widths[i])
            table.add_column(
                column,
                no_wrap=True,
                min_width=min(widths[i], max((len(r[i]) for r in cells), default=0)) or len(column),
            )
    for row in cells:
        table.add_row(*row)
    console.print(table)


def emit_path(label: str, path: Any) -> None:
    """``label: path`` on a line of its own, never wrapped: a path split mid-word cannot be copied."""
    sys.stdout.write(f"{label}: {visible(str(path))}\n")


def _hit_column_width(column: str, values: list[str], width: int) -> int:
    """The room a column of a hit table gets: its widest value, capped (half the line for citations)."""
    cap = {CITATION: max(MIN_CITATION, width // 2), SYMBOL: max(12, width // 4)}.get(column, 12)
    return max(len(column), min(cap, max((len(v) for v in values), default=0)))


def _fit(widths: list[int], columns: Sequence[str], room: int, last_min: int = 10) -> None:
    """Shrink the fixed columns until the last one gets ``last_min``: the middle ones first, down to
    their headers, and the citation last, never below :data:`MIN_CITATION`; the last takes the rest."""
    last = len(widths) - 1
    order = [*[i for i in range(last) if columns[i] != CITATION][::-1], columns.index(CITATION)]
    for i in order:
        excess = sum(widths[:last]) + last_min - room
        if excess <= 0:
            break
        floor = MIN_CITATION if columns[i] == CITATION else len(columns[i])
        widths[i] = max(floor, widths[i] - excess)
    widths[last] = max(last_min, room - sum(widths[:last]))


def _cut_end(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(width - 1, 0)] + "…"


def emit_text(data: Any, indent: str = "") -> None:
    """A record for people: ``field: value`` lines, nested records indented, lists one item a line."""
    lines: list[str] = []
    _text_lines(data, indent, lines)
    sys.stdout.write("".join(f"{visible(line)}\n" for line in lines))


def _text_lines(data: Any, indent: str, out: list[str]) -> None:
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, (dict, list)) and value:
                out.append(f"{indent}{key}:")
                _text_lines(value, indent + "  ", out)
            elif isinstance(value, str) and "\n" in value:  # file content, snippets: kept as written
                out.append(f"{indent}{key}:")
                out.extend(f"{indent}  {line}" for line in value.splitlines())
            else:
                out.append(f"{indent}{key}: {_scalar(value)}")
    elif isinstance(data, list):
        for item in data:
            if isinstance(item, dict):
                out.append(
                    f"{indent}- "
                    + ", ".join(
                        f"{k}: {_scalar(v)}" for k, v in item.items() if not isinstance(v, (dict, list))
                    )
                )
            else:
                out.append(f"{indent}- {_scalar(item)}")
    else:
        out.append(f"{indent}{_scalar(data)}")


def _scalar(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, list):
        return ", ".join(_scalar(v) for v in value) or "-"
    if isinstance(value, dict):
        return ", ".join(f"{k}={_scalar(v)}" for k, v in value.items()) or "-"
    return " ".join(str(value).split()) if isinstance(value, str) else str(value)


def show(
    data: Any, fmt: Format | None, *, rows: str | None = None, columns: Sequence[str] = (), title: str = ""
) -> None:
    """Print an answer: JSON as is; a table of ``columns`` from the list under ``rows``; or text."""
    data = plain(data)
    listing = rows is not None and isinstance(data, dict) and isinstance(data.get(rows), list)
    fmt = chosen(fmt, listing=listing)
    if fmt is Format.json:
        emit_json(data)
    elif fmt is Format.table and listing:
        emit_table(
            title or f"{rows} ({len(data[rows])})",
            columns,
            [[_cell(row.get(c)) if isinstance(row, dict) else row for c in columns] for row in data[rows]],
        )
    else:
        emit_text(data)


SEARCH_TABLE_MIN_SNIPPET = 40  # below this many columns for the snippet, each hit is printed as a block
SNIPPET_LINES = 3


def show_search(data: Any, fmt: Format | None) -> None:
    """``search``'s answer: JSON as is; text as a record; else (the terminal's table) the query's
    intent, fusion strategy and notes first, then the hits: a table when every citation and symbol
    fits whole and the snippet keeps :data:`SEARCH_TABLE_MIN_SNIPPET` columns, else one block per hit
    (citation, kind and symbol on a line, the snippet wrapped under it, then the ``more`` places)."""
    data = plain(data)
    fmt = chosen(fmt, listing=True)
    if fmt is not Format.table:
        show(data, fmt, rows="results", columns=("citation", "kind", "symbol", "snippet"))
        return
    from rich.console import Console

    width = Console().width
    lines = _search_header(data, width)
    hits = [
        {k: "" if v is None else visible(" ".join(str(v).split())) for k, v in _hit(h).items()}
        for h in data.get("results") or []
    ]
    sys.stdout.write("".join(f"{line}\n" for line in lines))
    if not hits:
        sys.stdout.write("no results\n")
        return
    fixed = [max([len(c), *(len(h[c]) for h in hits)]) for c in ("citation", "kind", "symbol")]
    if width - sum(fixed) - 13 >= SEARCH_TABLE_MIN_SNIPPET:
        _search_table(hits, fixed, width)
    else:
        _search_blocks(hits, width)


def _hit(hit: dict) -> dict:
    more = ", ".join(
        f"{m.get('citation', '')} {m.get('symbol') or ''}".strip()
        for m in hit.get("more") or []
        if isinstance(m, dict)
    )
    return {
        "citation": hit.get("citation"),
        "kind": hit.get("kind"),
        "symbol": hit.get("symbol"),
        "snippet": hit.get("snippet"),
        "more": more,
    }


def _search_header(data: dict, width: int) -> list[str]:
    import textwrap

    intent = data.get("intent") or "-"
    if data.get("confidence") is not None:
        intent += f" ({data['confidence']:.2f})" if isinstance(data["confidence"], (int, float)) else ""
    fusion = data.get("fusion_strategy") or "-"
    used = ", ".join(data.get("modalities_used") or [])
    lines = [
        f"query: {visible(str(data.get('query', '')))}",
        f"intent: {intent}",
        f"fusion: {fusion}" + (f" ({used})" if used else ""),
    ]
    for note in data.get("notes") or []:
        lines.extend(
            textwrap.wrap(
                visible(str(note)),
                width,
                initial_indent="note: ",
                subsequent_indent="      ",
                break_on_hyphens=False,
                break_long_words=False,
            )
        )
    return lines


def _search_table(hits: list[dict], fixed: list[int], width: int) -> None:
    import textwrap

    from rich.console import Console
    from rich.table import Table

    console = Console(markup=False, emoji=False, highlight=False)
    snippet_width = max(SEARCH_TABLE_MIN_SNIPPET, width - sum(fixed) - 13)
    table = Table(title=f"results ({len(hits)})")
    for name, room in zip(("citation", "kind", "symbol"), fixed, strict=True):
        table.add_column(name, no_wrap=True, min_width=room)
    table.add_column("snippet", width=snippet_width, overflow="fold")
    for hit in hits:
        text = textwrap.wrap(
            hit["snippet"], snippet_width, break_on_hyphens=False, break_long_words=True
        ) or [""]
        if len(text) > SNIPPET_LINES:
            text = [*text[: SNIPPET_LINES - 1], _cut_end(" ".join(text[SNIPPET_LINES - 1 :]), snippet_width)]
        if hit["more"]:
            text += textwrap.wrap(
                "also: " + hit["more"], snippet_width, break_on_hyphens=False, break_long_words=False
            )
        table.add_row(hit["citation"], hit["kind"], hit["symbol"], "\n".join(text))
    console.print(table)


def _search_blocks(hits: list[dict], width: int) -> None:
    """One block per hit: a terminal too narrow for a table still shows each citation and symbol whole."""
    import textwrap

    out: list[str] = []
    for rank, hit in enumerate(hits, 1):
        head = f"{rank}. {hit['citation']}"
        pad = " " * (len(str(rank)) + 2)
        rest = " ".join(part for part in (hit["kind"], hit["symbol"]) if part)
        if len(head) + 1 + len(rest) <= width:
            out.append(f"{head} {rest}".rstrip())
        else:  # the citation alone on its line (whole even when wider), kind and symbol under it
            out.extend([head, pad + rest] if rest else [head])
        snippet = textwrap.wrap(
            hit["snippet"], max(width - len(pad), 20), break_on_hyphens=False, break_long_words=True
        )
        if len(snippet) > SNIPPET_LINES:
            snippet = [
                *snippet[: SNIPPET_LINES - 1],
                _cut_end(" ".join(snippet[SNIPPET_LINES - 1 :]), width - len(pad)),
            ]
        out.extend(pad + line for line in snippet)
        if hit["more"]:
            out.extend(
                textwrap.wrap(
                    "also: " + hit["more"],
                    width,
                    initial_indent=pad,
                    subsequent_indent=pad + "      ",
                    break_on_hyphens=False,
                    break_long_words=False,
                )
            )
    sys.stdout.write("".join(f"{line}\n" for line in out))


def show_report(report: dict, fmt: Format | None, tables: Callable[[], None]) -> None:
    """A report with its own tables: JSON when piped or asked, ``tables()`` on a terminal, else text."""
    shown = chosen(fmt, listing=True)
    if shown is Format.json:
        emit_json(report)
    elif shown is Format.table:
        tables()
    else:
        emit_text(report)


def _cell(value: Any) -> str:
    return "" if value is None else _scalar(value)


def fail(message: str, code: int = 1) -> NoReturn:
    """Print ``message`` on stderr and exit with ``code``."""
    sys.stderr.write(f"error: {visible(message)}\n")
    raise typer.Exit(code)


def run(action: Callable[[], int | None]) -> None:
    """Call ``action`` and translate maguyva's errors into stderr text and their exit codes."""
    from maguyva.errors import MaguyvaError

    try:
        code = action()
    except MaguyvaError as exc:
        fail(str(exc), exc.exit_code)
    if code:
        raise typer.Exit(code)
