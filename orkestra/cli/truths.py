"""`orkestra truths …` (also `orkestra registry truths …`): ground truths — verified facts with evidence."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from orkestra.cli.inspect_common import FormatOption, LimitOption, RootOption, show_record, show_rows
from orkestra.cli.output import Format, fail, run

app = typer.Typer(help="Ground truths: list, search and inspect.", no_args_is_help=True,
                  rich_markup_mode=None)

COLUMNS = ("id", "status", "scope", "package", "statement")
TagOption = Annotated[Optional[str], typer.Option("--tag", help="Only truths carrying this tag.")]


@app.command("list")
def list_truths(
    status: Annotated[Optional[str], typer.Option(help="Only current, tentative or deprecated.")] = None,
    tag: TagOption = None,
    scope: Annotated[Optional[str], typer.Option(help="Only platform, package or domain truths.")] = None,
    root: RootOption = None,
    fmt: FormatOption = Format.json,
) -> None:
    """List ground truths by id: {"count", "truths": [...]}.

    \b
    Example:
      orkestra registry truths list --status current | jq -r '.truths[].id'
    """

    def action() -> None:
        from orkestra.inspect import api

        show_rows(api.list_truths(root, status, tag, scope), fmt, "truths", COLUMNS)

    run(action)


@app.command("search")
def search_truths(
    query: Annotated[Optional[str], typer.Argument(
        metavar="QUERY", help="Words (weights: id 6, statement 5, rationale 4, tags 3, evidence 2).")] = None,
    tag: TagOption = None,
    limit: LimitOption = None,
    root: RootOption = None,
    fmt: FormatOption = Format.json,
) -> None:
    """Search ground truths by words, by --tag, or both: {"query", "tag", "count", "truths": [... "score"]}.

    \b
    Example:
      orkestra registry truths search "embedding"
      orkestra registry truths search --tag security --format table
    """
    if not query and not tag:
        fail("give a QUERY, --tag TAG, or both", 2)

    def action() -> None:
        from orkestra.inspect import api

        show_rows(api.search_truths(root, query, tag, limit), fmt, "truths", ("id", "score", *COLUMNS[1:]))

    run(action)


@app.command("info")
def truth_info(
    truth_id: Annotated[str, typer.Argument(metavar="ID", help="Ground-truth id, e.g. GT-MAG-015.")],
    root: RootOption = None,
    fmt: FormatOption = Format.json,
) -> None:
    """The full ground-truth statement. An unknown id exits 1 with "did you mean ...".

    \b
    Example:
      orkestra registry truths info GT-MAG-015 | jq '.evidence'
    """

    def action() -> None:
        from orkestra.inspect import api

        show_record(api.truth_info(root, truth_id), fmt, truth_id)

    run(action)
