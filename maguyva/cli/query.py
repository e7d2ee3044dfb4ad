"""``maguyva search|symbol|refs|deps|grep|structure|file|context|overview``: the CLI twins of the
MCP tools, the same library calls (``maguyva.opening.open_api``), one answer per command.

``grep`` and ``symbol`` on one repository's index print the answer's JSON straight from the
library (``search_text_json`` / ``find_symbol_json``: the same dict the answer model dumps) and
so never import pydantic or the ranking code; they start about as fast as typer itself."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any

import typer

from maguyva.cli.options import FormatOption, RepoOption, StoreOption
from maguyva.cli.output import run, show, show_search

HIT_COLUMNS = ("citation", "kind", "symbol", "snippet")
NameArgument = Annotated[str, typer.Argument(help="Symbol name or qualified name.")]


def _answer(
    repo: str,
    store: str | None,
    call: Callable[[Any], Any],
    fmt,
    rows: str | None = None,
    columns=HIT_COLUMNS,
    fast: Callable[[Any], Any] | None = None,
    printer: Callable[[Any, Any], None] | None = None,
) -> None:
    """Open the index, ``call`` the library, print the answer; ``fast`` instead when the retrieval is
    one repository's ``Maguyva`` (it returns the answer's JSON without building the model)."""

    def action() -> None:
        from maguyva.api import Maguyva
        from maguyva.opening import open_api

        api = open_api(repo, store)
        try:
            result = fast(api) if fast is not None and isinstance(api, Maguyva) else call(api)
        finally:
            api.close()
        if printer is not None:
            printer(result, fmt)
        else:
            show(result, fmt, rows=rows, columns=columns)

    run(action)


def search(
    query: Annotated[str, typer.Argument(help="A question, identifier, quoted literal or error text.")],
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=200, help="Show at most N hits.")] = 10,
    preset: Annotated[str, typer.Option("--preset", help="quick, default or thorough.")] = "default",
    modality: Annotated[
        list[str] | None,
        typer.Option(
            "--modality", help="Only these retrievers (repeatable): semantic, text, structure, graph."
        ),
    ] = None,
    path_prefix: Annotated[str | None, typer.Option("--path", help="Only hits under this path.")] = None,
    repo: RepoOption = ".",
    store: StoreOption = None,
    fmt: FormatOption = None,
) -> None:
    """Search the code by intent, with ranked path:line citations.

    Routes the query by kind (identifier, question, literal, error text) and fuses the
    retrievers' hits (the intelligent_search tool).

    \b
    Example:
      maguyva search "who calls plan_route" --limit 5
    """
    _answer(
        repo,
        store,
        lambda api: api.intelligent_search(
            query, limit=limit, preset=preset, modalities=modality or None, path_prefix=path_prefix
        ),
        fmt,
        "results",
        printer=show_search,
    )


def symbol(
    name: NameArgument,
    kind: Annotated[
        str | None, typer.Option("--kind", help="Only this kind (function, class, method, …).")
    ] = None,
    similar: Annotated[bool, typer.Option("--similar", help="Opt in to fuzzy matches.")] = False,
    exact: Annotated[bool, typer.Option("--exact", help="Strict matching, no fallbacks.")] = False,
    repo: RepoOption = ".",
    store: StoreOption = None,
    fmt: FormatOption = None,
) -> None:
    """Find where a symbol is defined (exact by default).

    \b
    Example:
      maguyva symbol Workspace.load
    """
    _answer(
        repo,
        store,
        lambda api: api.find_symbol(name, kind=kind, find_similar=similar, exact_match=exact),
        fmt,
        "symbols",
        fast=lambda api: api.find_symbol_json(name, kind=kind, find_similar=similar, exact_match=exact),
    )


def refs(
    name: NameArgument,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="Show at most N references.")] = 50,
    possible: Annotated[
        bool,
        typer.Option(
            "--possible", help="Also calls of the name on receivers of unknown type (resolution ambiguous)."
        ),
    ] = False,
    repo: RepoOption = ".",
    store: StoreOption = None,
    fmt: FormatOption = None,
) -> None:
    """List every in-repo reference to a symbol.

    Each reference carries its resolution (resolved, inferred, ambiguous).

    \b
    Example:
      maguyva refs classify
    """
    _answer(
        repo,
        store,
        lambda api: api.find_references(name, limit=limit, include_possible=possible),
        fmt,
        "references",
        ("citation", "kind", "symbol", "resolution"),
    )


def deps(
    target: Annotated[str, typer.Argument(help="A repo path or a symbol.")],
    direction: Annotated[str, typer.Option("--direction", help="callers, callees, both or impact.")] = "both",
    depth: Annotated[int, typer.Option("--depth", min=1, max=6, help="How many hops to follow.")] = 2,
    ambiguous: Annotated[
        bool,
        typer.Option(
            "--ambiguous", help="Add possible callers and ambiguous callees (receiver type unknown)."
        ),
    ] = False,
    repo: RepoOption = ".",
    store: StoreOption = None,
    fmt: FormatOption = None,
) -> None:
    """Show callers, callees or blast radius of a path or symbol.

    \b
    Example:
      maguyva deps maguyva/api.py --direction impact
    """
    _answer(
        repo,
        store,
        lambda api: api.analyze_dependencies(
            target, direction=direction, depth=depth, include_ambiguous=ambiguous
        ),
        fmt,
        "entries",
        ("citation", "relation", "kind", "symbol"),
    )


def grep(
    pattern: Annotated[str, typer.Argument(help="Literal text, or a regex with --regex.")],
    regex: Annotated[bool, typer.Option("--regex", help="Read PATTERN as a regular expression.")] = False,
    case_sensitive: Annotated[bool, typer.Option("--case-sensitive", help="Match case exactly.")] = False,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="Show at most N matches.")] = 50,
    repo: RepoOption = ".",
    store: StoreOption = None,
    fmt: FormatOption = None,
) -> None:
    """Search the indexed text for a literal or a regex.

    \b
    Example:
      maguyva grep "no such table"
    """
    _answer(
        repo,
        store,
        lambda api: api.search_text(pattern, regex=regex, case_sensitive=case_sensitive, limit=limit),
        fmt,
        "results",
        fast=lambda api: api.search_text_json(
            pattern, regex=regex, case_sensitive=case_sensitive, limit=limit
        ),
    )


def structure(
    kind: Annotated[
        str | None, typer.Option("--kind", help="Only this kind (function, class, method, …).")
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="Name glob, e.g. 'test_*'.")] = None,
    signature: Annotated[str | None, typer.Option("--signature", help="Text in the signature.")] = None,
    repo: RepoOption = ".",
    store: StoreOption = None,
    fmt: FormatOption = None,
) -> None:
    """List definitions by kind, name glob and signature text.

    \b
    Example:
      maguyva structure --kind class --name '*Error'
    """
    _answer(
        repo,
        store,
        lambda api: api.search_structure(kind=kind, name=name, signature_contains=signature),
        fmt,
        "results",
    )


def file(
    path: Annotated[str, typer.Argument(help="Repo-relative path.")],
    start: Annotated[int | None, typer.Option("--start", min=1, help="First line to show.")] = None,
    end: Annotated[int | None, typer.Option("--end", min=1, help="Last line to show.")] = None,
    metadata: Annotated[bool, typer.Option("--metadata", help="Add language, size and symbols.")] = False,
    repo: RepoOption = ".",
    store: StoreOption = None,
    fmt: FormatOption = None,
) -> None:
    """Print numbered lines of a file, confined to the repository.

    \b
    Example:
      maguyva file maguyva/api.py --start 1 --end 40
    """
    _answer(
        repo,
        store,
        lambda api: api.get_file(path, start_line=start, end_line=end, include_metadata=metadata),
        fmt,
    )


def context(
    task: Annotated[str, typer.Argument(help="The task, in plain words.")],
    budget: Annotated[int, typer.Option("--budget", min=300, max=25000, help="Token budget.")] = 4000,
    repo: RepoOption = ".",
    store: StoreOption = None,
    fmt: FormatOption = None,
) -> None:
    """Gather cited snippets for a task within a token budget.

    \b
    Example:
      maguyva context "add a retry to the voyage client" --budget 3000
    """
    _answer(
        repo,
        store,
        lambda api: api.gather_task_context(task, token_budget=budget),
        fmt,
        "snippets",
        ("citation", "kind", "symbol", "score"),
    )


def overview(repo: RepoOption = ".", store: StoreOption = None, fmt: FormatOption = None) -> None:
    """Summarise languages, layout, hubs and entry points.

    \b
    Example:
      maguyva overview --format json | jq '.hub_files[:5]'
    """
    _answer(repo, store, lambda api: api.repo_overview(), fmt)
