"""The 11 client-facing tools: small typed adapters over ``maguyva.api`` (names as agents see them).

Descriptions are written for the model and kept short: all schemas together, input and output,
stay under ~2,500 tokens (tested, and snapshotted in tests/snapshots/mcp_tool_schemas.json).
Each tool's ``outputSchema`` is its answer model's (``maguyva.answers``); the answer is sent once,
as structured content, with a one-line summary as the text content. Errors the model can fix are
raised, never returned as strings.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any, Literal

from mcp.types import CallToolResult, TextContent
from pydantic import Field

from maguyva.answers import (
    DEFAULT_TOKENS,
    Answer,
    ContextAnswer,
    DependenciesAnswer,
    FileAnswer,
    OverviewAnswer,
    ReferencesAnswer,
    RefreshAnswer,
    SearchAnswer,
    StatusAnswer,
    StructureAnswer,
    SymbolAnswer,
    TextAnswer,
)
from maguyva.api import Maguyva
from maguyva.errors import MaguyvaError
from maguyva.server.schemas import publish

Limit = Annotated[int, Field(ge=1, le=200, description="Max results.")]
Tokens = Annotated[int, Field(ge=200, le=25_000, description="Answer size cap in tokens.")]
PathPrefix = Annotated[str | None, Field(description="Only paths starting with this.")]


def sent(answer: Answer) -> CallToolResult:
    """The answer as structured content (validated against the tool's outputSchema), and a one-line summary."""
    return CallToolResult(
        content=[TextContent(type="text", text=answer.summary())], structured_content=answer.dump()
    )


@contextmanager
def fixable() -> Iterator[None]:
    """Turn a Maguyva error (bad path, unknown target, no index) into a message the model reads."""
    from mcp.server.mcpserver.exceptions import ToolError

    try:
        yield
    except MaguyvaError as exc:
        raise ToolError(str(exc)) from exc


def register(server: Any, api: Callable[[], Maguyva]) -> None:
    """Attach every tool to ``server``; ``api()`` returns the repository's Maguyva for this thread."""

    @server.tool()
    def intelligent_search(
        query: Annotated[str, Field(description="A question, identifier, quoted literal or error text.")],
        limit: Limit = 10,
        preset: Annotated[
            Literal["quick", "default", "thorough"], Field(description="Retrieval depth.")
        ] = "default",
        modalities: Annotated[
            list[Literal["semantic", "text", "structure", "graph"]] | None,
            Field(description="Run exactly these retrievers."),
        ] = None,
        path_prefix: PathPrefix = None,
        max_tokens: Tokens = DEFAULT_TOKENS,
    ) -> Annotated[CallToolResult, SearchAnswer]:
        """Search the repo: routes by intent, fuses semantic/text/AST/graph results, cites path:line."""
        with fixable():
            return sent(
                api().intelligent_search(
                    query,
                    limit=limit,
                    preset=preset,
                    modalities=modalities,
                    path_prefix=path_prefix,
                    max_tokens=max_tokens,
                )
            )

    @server.tool()
    def find_symbol(
        symbol_name: Annotated[str, Field(description="Name or qualified name (pkg.mod.Class.method).")],
        kind: Annotated[str | None, Field(description="function, method, class...")] = None,
        find_similar: Annotated[
            bool, Field(description="Opt in to fuzzy matches when none is exact.")
        ] = False,
        exact_match: Annotated[bool, Field(description="Strict: no fallbacks at all.")] = False,
        limit: Limit = 20,
    ) -> Annotated[CallToolResult, SymbolAnswer]:
        """Definitions of a symbol. Exact by default: an unknown name returns an empty list."""
        with fixable():
            return sent(
                api().find_symbol(
                    symbol_name, kind=kind, find_similar=find_similar, exact_match=exact_match, limit=limit
                )
            )

    @server.tool()
    def find_references(
        symbol_name: Annotated[str, Field(description="Name or qualified name.")],
        limit: Limit = 50,
        include_possible: Annotated[
            bool, Field(description="Also calls on receivers of unknown type (marked possible).")
        ] = False,
        max_tokens: Tokens = DEFAULT_TOKENS,
    ) -> Annotated[CallToolResult, ReferencesAnswer]:
        """Every in-repo use of a symbol (calls, imports, inheritance, type uses) at the use site, with its
        resolution."""
        with fixable():
            return sent(
                api().find_references(
                    symbol_name, limit=limit, include_possible=include_possible, max_tokens=max_tokens
                )
            )

    @server.tool()
    def analyze_dependencies(
        target: Annotated[str, Field(description="A repo path or a symbol name.")],
        direction: Annotated[
            Literal["callers", "callees", "both", "impact"],
            Field(description="impact = blast radius to depth."),
        ] = "both",
        depth: Annotated[int, Field(ge=1, le=6, description="Impact depth.")] = 2,
        limit: Limit = 100,
        include_ambiguous: Annotated[
            bool, Field(description="Add possible callers and ambiguous callees (receiver type unknown).")
        ] = False,
        max_tokens: Tokens = DEFAULT_TOKENS,
    ) -> Annotated[CallToolResult, DependenciesAnswer]:
        """Callers, callees, or everything affected by changing a file or symbol; edges carry their resolution."""
        with fixable():
            return sent(
                api().analyze_dependencies(
                    target,
                    direction=direction,
                    depth=depth,
                    limit=limit,
                    include_ambiguous=include_ambiguous,
                    max_tokens=max_tokens,
                )
            )

    @server.tool()
    def get_file(
        path: Annotated[str, Field(description="Repo-relative path.")],
        start_line: Annotated[int | None, Field(ge=1)] = None,
        end_line: Annotated[int | None, Field(ge=1)] = None,
        include_metadata: Annotated[bool, Field(description="Add language, flags, symbols.")] = False,
        max_tokens: Tokens = DEFAULT_TOKENS,
    ) -> Annotated[CallToolResult, FileAnswer]:
        """Numbered lines of a repository file (a range is cheaper than the whole file)."""
        with fixable():
            return sent(
                api().get_file(
                    path,
                    start_line=start_line,
                    end_line=end_line,
                    include_metadata=include_metadata,
                    max_tokens=max_tokens,
                )
            )

    @server.tool()
    def search_text(
        pattern: Annotated[str, Field(description="Literal text, or a regex with regex=true.")],
        regex: bool = False,
        case_sensitive: bool = False,
        path_prefix: PathPrefix = None,
        limit: Limit = 50,
        max_tokens: Tokens = DEFAULT_TOKENS,
    ) -> Annotated[CallToolResult, TextAnswer]:
        """Exact text search (trigram index): literals, error strings, identifiers; one hit per line."""
        with fixable():
            return sent(
                api().search_text(
                    pattern,
                    regex=regex,
                    case_sensitive=case_sensitive,
                    path_prefix=path_prefix,
                    limit=limit,
                    max_tokens=max_tokens,
                )
            )

    @server.tool()
    def search_structure(
        kind: Annotated[str | None, Field(description="function, class, method, interface...")] = None,
        name: Annotated[str | None, Field(description="Name glob, e.g. parse_*.")] = None,
        signature_contains: Annotated[str | None, Field(description="Text in the signature.")] = None,
        path_prefix: PathPrefix = None,
        limit: Limit = 50,
    ) -> Annotated[CallToolResult, StructureAnswer]:
        """Definitions filtered by kind, name glob and signature text (the AST index)."""
        with fixable():
            return sent(
                api().search_structure(
                    kind=kind,
                    name=name,
                    signature_contains=signature_contains,
                    path_prefix=path_prefix,
                    limit=limit,
                )
            )

    @server.tool()
    def repo_overview() -> Annotated[CallToolResult, OverviewAnswer]:
        """Languages, layout, central files and symbols, entry points, index snapshot."""
        with fixable():
            return sent(api().repo_overview())

    @server.tool()
    def gather_task_context(
        task: Annotated[str, Field(description="What you are about to do, in plain words.")],
        token_budget: Annotated[int, Field(ge=300, le=25_000)] = 4_000,
    ) -> Annotated[CallToolResult, ContextAnswer]:
        """Ranked, cited code snippets for a task, within a token budget."""
        with fixable():
            return sent(api().gather_task_context(task, token_budget=token_budget))

    @server.tool()
    def index_status() -> Annotated[CallToolResult, StatusAnswer]:
        """Index snapshot, counts per language, files changed since (not in the map)."""
        with fixable():
            return sent(api().index_status())

    @server.tool()
    def refresh_index() -> Annotated[CallToolResult, RefreshAnswer]:
        """Re-index changed files incrementally; returns the counts."""
        with fixable():
            return sent(api().refresh_index())

    publish(server)
