"""``maguyva search|symbol|refs|deps|grep|structure|file|context|overview``: the CLI twins of the
MCP tools, generated from the same declarations (``maguyva.tools.contract``) and calling the same
library methods (``maguyva.opening.open_api``), one answer per command.

A tool's parameters that have a ``Cli`` spelling become the command's argument and options (with
the declared bounds); the others keep their declared defaults. What is particular to the command
line is here: how each answer prints (``VIEWS``). A choice (``Literal``) is a plain string on the
command line: the library names the choices when it refuses one.

``grep`` and ``symbol`` on one repository's index print the answer's JSON straight from the
library (``search_text_json`` / ``find_symbol_json``: the same dict the answer model dumps) and
so never import pydantic or the ranking code; they start about as fast as typer itself."""

from __future__ import annotations

import functools
import inspect
import operator
import types
from collections.abc import Callable
from typing import Annotated, Any, Literal, NamedTuple, Union, get_args, get_origin

import typer

from maguyva.cli.options import FormatOption, RepoOption, StoreOption
from maguyva.cli.output import run, show, show_search
from maguyva.tools.contract import BY_COMMAND, Param

HIT_COLUMNS = ("citation", "kind", "symbol", "snippet")


class View(NamedTuple):
    """How a command prints its answer: a table of ``columns`` from the list under ``rows`` (or
    ``printer``); ``fast`` names the ``Maguyva`` method that returns the answer's JSON directly."""

    rows: str | None = None
    columns: tuple[str, ...] = HIT_COLUMNS
    fast: str | None = None
    printer: Callable[[Any, Any], None] | None = None


VIEWS = {
    "search": View("results", printer=show_search),
    "symbol": View("symbols", fast="find_symbol_json"),
    "refs": View("references", ("citation", "kind", "symbol", "resolution")),
    "deps": View("entries", ("citation", "relation", "kind", "symbol")),
    "grep": View("results", fast="search_text_json"),
    "structure": View("results"),
    "file": View(),
    "context": View("snippets", ("citation", "kind", "symbol", "score")),
    "overview": View(),
}


def _answer(repo: str, store: str | None, tool: str, arguments: dict[str, Any], fmt, view: View) -> None:
    """Open the index, call the library's ``tool`` with ``arguments``, print the answer; the ``fast``
    method instead when the retrieval is one repository's ``Maguyva`` (the answer's JSON, no model)."""

    def action() -> None:
        from maguyva.api import Maguyva
        from maguyva.opening import open_api

        api = open_api(repo, store)
        method = view.fast if view.fast is not None and isinstance(api, Maguyva) else tool
        try:
            result = getattr(api, method)(**arguments)
        finally:
            api.close()
        if view.printer is not None:
            view.printer(result, fmt)
        else:
            show(result, fmt, rows=view.rows, columns=view.columns)

    run(action)


def cli_type(kind: Any) -> Any:
    """``kind`` as the command line reads it: a choice (``Literal``) is a string."""
    origin = get_origin(kind)
    if origin is Literal:
        return str
    if origin in (Union, types.UnionType):
        return functools.reduce(operator.or_, (cli_type(arg) for arg in get_args(kind)))
    if origin is list:
        return list[cli_type(get_args(kind)[0])]
    return kind


def cli_parameter(param: Param) -> inspect.Parameter:
    """The Typer parameter of a declared tool parameter: an argument, or an option with its bounds."""
    spec = param.cli
    assert spec is not None
    if spec.flags:
        info = typer.Option(*spec.flags, min=param.ge, max=param.le, help=spec.help)
    else:
        info = typer.Argument(help=spec.help)
    default = inspect.Parameter.empty if param.required else param.default
    return inspect.Parameter(
        spec.name,
        inspect.Parameter.KEYWORD_ONLY,
        default=default,
        annotation=Annotated[cli_type(param.type), info],
    )


SHARED = (  # every query command's last options
    inspect.Parameter("repo", inspect.Parameter.KEYWORD_ONLY, default=".", annotation=RepoOption),
    inspect.Parameter("store", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=StoreOption),
    inspect.Parameter("fmt", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=FormatOption),
)


@functools.cache
def command(name: str) -> Callable[..., None]:
    """The Typer command function ``maguyva <name>``, built from its tool's declaration."""
    tool = BY_COMMAND[name]
    assert tool.command is not None
    exposed = [p for p in tool.params if p.cli is not None]

    def call(*, repo: str, store: str | None, fmt: Any, **given: Any) -> None:
        arguments = {p.name: given[p.cli.name] for p in exposed if p.cli is not None}
        for key, value in arguments.items():
            if isinstance(value, list):  # a repeatable option never given: the declared default (None)
                arguments[key] = value or None
        _answer(repo, store, tool.name, arguments, fmt, VIEWS[name])

    parameters = [cli_parameter(p) for p in exposed] + list(SHARED)
    call.__name__ = call.__qualname__ = name
    call.__doc__ = tool.command.help
    call.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    call.__annotations__ = {p.name: p.annotation for p in parameters}
    return call


def __getattr__(name: str) -> Callable[..., None]:
    """``search``, ``symbol``, …: what ``maguyva.cli.app.COMMANDS`` names, built on first use."""
    if name in BY_COMMAND:
        return command(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
