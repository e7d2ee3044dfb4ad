"""`orkestra truths …` (also `orkestra registry truths …`): ground truths — verified facts with evidence."""

from __future__ import annotations

from typing import Annotated

import typer

from orkestra.cli.inspect_common import Entity, info_command, list_rows
from orkestra.cli.options import FormatOption, LimitOption, RepoOption, group
from orkestra.cli.output import fail

app = group("Ground truths: list, search and inspect.")

COLUMNS = ("id", "status", "scope", "package", "statement")
TRUTHS = Entity("truths", "truth", "ID", "GT-MAG-015", COLUMNS)
TagOption = Annotated[str | None, typer.Option("--tag", help="Only truths carrying this tag.")]


def list_truths(
    status: Annotated[str | None, typer.Option(help="Only current, tentative or deprecated.")] = None,
    tag: TagOption = None,
    scope: Annotated[str | None, typer.Option(help="Only platform, package or domain truths.")] = None,
    repo: RepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """List ground truths by id.

    JSON: {"count", "truths": [...]}.

    \b
    Example:
      orkestra truths list --status current | jq -r '.truths[].id'
    """
    list_rows(lambda api: api.list_truths(repo, status, tag, scope), fmt, "truths", COLUMNS)


truth_info = info_command(TRUTHS, "The full ground-truth statement, with its evidence.", ".evidence")


def search_truths(
    query: Annotated[
        str | None,
        typer.Argument(
            metavar="QUERY", help="Words (weights: id 6, statement 5, rationale 4, tags 3, evidence 2)."
        ),
    ] = None,
    tag: TagOption = None,
    limit: LimitOption = None,
    repo: RepoOption = None,
    fmt: FormatOption = None,
) -> None:
    """Search ground truths by words, by --tag, or both.

    JSON: {"query", "tag", "count", "truths": [... "score"]}.

    \b
    Example:
      orkestra truths search "embedding"
      orkestra registry truths search --tag security --format table
    """
    if not query and not tag:
        fail("give a QUERY, --tag TAG, or both", 2)
    list_rows(lambda api: api.search_truths(repo, query, tag, limit), fmt, "truths", TRUTHS.scored_columns)


app.command("list")(list_truths)
app.command("info")(truth_info)
app.command("search")(search_truths)
app.command("show", hidden=True)(truth_info)  # the spelling other tools use
