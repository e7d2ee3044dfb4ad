"""The eleven tools' contract, declared once: each tool's parameters with their types, defaults, bounds
and descriptions, and how the command line spells them.

The MCP server (``maguyva.server.tools``) and the CLI (``maguyva.cli.query``) are generated from
``TOOLS``: the server publishes each tool's parameter model (``maguyva.tools.params``, built from the
declaration), the CLI builds one Typer command per tool that has a ``Command``. Both retrievals, one
repository's ``Maguyva`` and a scope's ``ScopedMaguyva``, answer ``maguyva.tools.protocol.Retrieval``;
their methods' keyword defaults are the declared ones (tests/test_architecture.py checks all three).

This module is stdlib only: ``maguyva grep`` and ``maguyva symbol`` read it without importing pydantic
(and its records are named tuples, which cost a fraction of a dataclass to define at start-up).
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

from maguyva.answer_json import DEFAULT_TOKENS, MAX_TOKENS

REQUIRED: Any = ...  # a parameter without a default
MAX_LIMIT = 200  # every tool's ``limit`` (MCP and CLI): a longer list is paged by narrowing, not asked for


class Cli(NamedTuple):
    """A parameter on the command line: a positional argument when ``flags`` is empty, else an option.

    ``name`` is the command function's parameter (an argument's help shows it as ``{name}``)."""

    name: str
    help: str
    flags: tuple[str, ...] = ()


class Param(NamedTuple):
    """One tool parameter; ``cli`` None keeps it off the command line (the declared default applies)."""

    name: str
    type: Any
    default: Any = REQUIRED
    description: str | None = None
    ge: int | None = None
    le: int | None = None
    cli: Cli | None = None

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


class Command(NamedTuple):
    """The tool's CLI twin: ``maguyva <name>``, with its help (the first line is the summary)."""

    name: str
    help: str


class Tool(NamedTuple):
    """One tool: its name as agents see it, the description they read, its parameters and answer model."""

    name: str
    description: str
    answer: str  # the answer model's name in ``maguyva.answers``
    params: tuple[Param, ...] = ()
    command: Command | None = None


def limit(default: int, cli_help: str | None = None) -> Param:
    """A tool's ``limit``: 1 to ``MAX_LIMIT``, its own default; ``--limit/-n`` on the command line when
    ``cli_help`` says what it counts there."""
    return Param(
        "limit",
        int,
        default,
        "Max results.",
        ge=1,
        le=MAX_LIMIT,
        cli=Cli("limit", cli_help, ("--limit", "-n")) if cli_help else None,
    )


MAX_TOKENS_PARAM = Param(
    "max_tokens", int, DEFAULT_TOKENS, "Answer size cap in tokens.", ge=200, le=MAX_TOKENS
)
PATH_PREFIX = "Only paths starting with this."
KIND_HELP = "Only this kind (function, class, method, …)."
SYMBOL_HELP = "Symbol name or qualified name."
Modality = Literal["semantic", "text", "structure", "graph"]

TOOLS: tuple[Tool, ...] = (
    Tool(
        "intelligent_search",
        "Search the repo: routes by intent, fuses semantic/text/AST/graph results, cites path:line.",
        "SearchAnswer",
        (
            Param(
                "query",
                str,
                description="A question, identifier, quoted literal or error text.",
                cli=Cli("query", "A question, identifier, quoted literal or error text."),
            ),
            limit(10, "Show at most N hits."),
            Param(
                "preset",
                Literal["quick", "default", "thorough"],
                "default",
                "Retrieval depth.",
                cli=Cli("preset", "quick, default or thorough.", ("--preset",)),
            ),
            Param(
                "modalities",
                list[Modality] | None,
                None,
                "Run exactly these retrievers.",
                cli=Cli(
                    "modality",
                    "Only these retrievers (repeatable): semantic, text, structure, graph.",
                    ("--modality",),
                ),
            ),
            Param(
                "path_prefix",
                str | None,
                None,
                PATH_PREFIX,
                cli=Cli("path_prefix", "Only hits under this path.", ("--path",)),
            ),
            MAX_TOKENS_PARAM,
        ),
        Command(
            "search",
            """Search the code by intent, with ranked path:line citations.

    Routes the query by kind (identifier, question, literal, error text) and fuses the
    retrievers' hits (the intelligent_search tool).

    \b
    Example:
      maguyva search "who calls plan_route" --limit 5
    """,
        ),
    ),
    Tool(
        "find_symbol",
        "Definitions of a symbol. Exact by default: an unknown name returns an empty list.",
        "SymbolAnswer",
        (
            Param(
                "symbol_name",
                str,
                description="Name or qualified name (pkg.mod.Class.method).",
                cli=Cli("name", SYMBOL_HELP),
            ),
            Param(
                "kind",
                str | None,
                None,
                "function, method, class...",
                cli=Cli("kind", KIND_HELP, ("--kind",)),
            ),
            Param(
                "find_similar",
                bool,
                False,
                "Opt in to fuzzy matches when none is exact.",
                cli=Cli("similar", "Opt in to fuzzy matches.", ("--similar",)),
            ),
            Param(
                "exact_match",
                bool,
                False,
                "Strict: no fallbacks at all.",
                cli=Cli("exact", "Strict matching, no fallbacks.", ("--exact",)),
            ),
            limit(20),
        ),
        Command(
            "symbol",
            """Find where a symbol is defined (exact by default).

    \b
    Example:
      maguyva symbol Workspace.load
    """,
        ),
    ),
    Tool(
        "find_references",
        "Every in-repo use of a symbol (calls, imports, inheritance, type uses) at the use site, with its "
        "resolution.",
        "ReferencesAnswer",
        (
            Param("symbol_name", str, description="Name or qualified name.", cli=Cli("name", SYMBOL_HELP)),
            limit(50, "Show at most N references."),
            Param(
                "include_possible",
                bool,
                False,
                "Also calls on receivers of unknown type (marked possible).",
                cli=Cli(
                    "possible",
                    "Also calls of the name on receivers of unknown type (resolution ambiguous).",
                    ("--possible",),
                ),
            ),
            MAX_TOKENS_PARAM,
        ),
        Command(
            "refs",
            """List every in-repo reference to a symbol.

    Each reference carries its resolution (resolved, inferred, ambiguous).

    \b
    Example:
      maguyva refs classify
    """,
        ),
    ),
    Tool(
        "analyze_dependencies",
        "Callers, callees, or everything affected by changing a file or symbol; edges carry their resolution.",
        "DependenciesAnswer",
        (
            Param(
                "target",
                str,
                description="A repo path or a symbol name.",
                cli=Cli("target", "A repo path or a symbol."),
            ),
            Param(
                "direction",
                Literal["callers", "callees", "both", "impact"],
                "both",
                "impact = blast radius to depth.",
                cli=Cli("direction", "callers, callees, both or impact.", ("--direction",)),
            ),
            Param(
                "depth",
                int,
                2,
                "Impact depth.",
                ge=1,
                le=6,
                cli=Cli("depth", "How many hops to follow.", ("--depth",)),
            ),
            limit(100),
            Param(
                "include_ambiguous",
                bool,
                False,
                "Add possible callers and ambiguous callees (receiver type unknown).",
                cli=Cli(
                    "ambiguous",
                    "Add possible callers and ambiguous callees (receiver type unknown).",
                    ("--ambiguous",),
                ),
            ),
            MAX_TOKENS_PARAM,
        ),
        Command(
            "deps",
            """Show callers, callees or blast radius of a path or symbol.

    \b
    Example:
      maguyva deps maguyva/api.py --direction impact
    """,
        ),
    ),
    Tool(
        "get_file",
        "Numbered lines of a repository file (a range is cheaper than the whole file).",
        "FileAnswer",
        (
            Param("path", str, description="Repo-relative path.", cli=Cli("path", "Repo-relative path.")),
            Param(
                "start_line", int | None, None, ge=1, cli=Cli("start", "First line to show.", ("--start",))
            ),
            Param("end_line", int | None, None, ge=1, cli=Cli("end", "Last line to show.", ("--end",))),
            Param(
                "include_metadata",
                bool,
                False,
                "Add language, flags, symbols.",
                cli=Cli("metadata", "Add language, size and symbols.", ("--metadata",)),
            ),
            MAX_TOKENS_PARAM,
        ),
        Command(
            "file",
            """Print numbered lines of a file, confined to the repository.

    \b
    Example:
      maguyva file maguyva/api.py --start 1 --end 40
    """,
        ),
    ),
    Tool(
        "search_text",
        "Exact text search (trigram index): literals, error strings, identifiers; one hit per line.",
        "TextAnswer",
        (
            Param(
                "pattern",
                str,
                description="Literal text, or a regex with regex=true.",
                cli=Cli("pattern", "Literal text, or a regex with --regex."),
            ),
            Param(
                "regex", bool, False, cli=Cli("regex", "Read PATTERN as a regular expression.", ("--regex",))
            ),
            Param(
                "case_sensitive",
                bool,
                False,
                cli=Cli("case_sensitive", "Match case exactly.", ("--case-sensitive",)),
            ),
            Param("path_prefix", str | None, None, PATH_PREFIX),
            limit(50, "Show at most N matches."),
            MAX_TOKENS_PARAM,
        ),
        Command(
            "grep",
            """Search the indexed text for a literal or a regex.

    \b
    Example:
      maguyva grep "no such table"
    """,
        ),
    ),
    Tool(
        "search_structure",
        "Definitions filtered by kind, name glob and signature text (the AST index).",
        "StructureAnswer",
        (
            Param(
                "kind",
                str | None,
                None,
                "function, class, method, interface...",
                cli=Cli("kind", KIND_HELP, ("--kind",)),
            ),
            Param(
                "name",
                str | None,
                None,
                "Name glob, e.g. parse_*.",
                cli=Cli("name", "Name glob, e.g. 'test_*'.", ("--name",)),
            ),
            Param(
                "signature_contains",
                str | None,
                None,
                "Text in the signature.",
                cli=Cli("signature", "Text in the signature.", ("--signature",)),
            ),
            Param("path_prefix", str | None, None, PATH_PREFIX),
            limit(50),
        ),
        Command(
            "structure",
            """List definitions by kind, name glob and signature text.

    \b
    Example:
      maguyva structure --kind class --name '*Error'
    """,
        ),
    ),
    Tool(
        "repo_overview",
        "Languages, layout, central files and symbols, entry points, index snapshot.",
        "OverviewAnswer",
        (),
        Command(
            "overview",
            """Summarise languages, layout, hubs and entry points.

    \b
    Example:
      maguyva overview --format json | jq '.hub_files[:5]'
    """,
        ),
    ),
    Tool(
        "gather_task_context",
        "Ranked, cited code snippets for a task, within a token budget.",
        "ContextAnswer",
        (
            Param(
                "task",
                str,
                description="What you are about to do, in plain words.",
                cli=Cli("task", "The task, in plain words."),
            ),
            Param(
                "token_budget",
                int,
                4_000,
                ge=300,
                le=MAX_TOKENS,
                cli=Cli("budget", "Token budget.", ("--budget",)),
            ),
        ),
        Command(
            "context",
            """Gather cited snippets for a task within a token budget.

    \b
    Example:
      maguyva context "add a retry to the voyage client" --budget 3000
    """,
        ),
    ),
    Tool(
        "index_status",
        "Index snapshot, counts per language, files changed since (not in the map).",
        "StatusAnswer",
    ),
    Tool("refresh_index", "Re-index changed files incrementally; returns the counts.", "RefreshAnswer"),
)

BY_NAME = {tool.name: tool for tool in TOOLS}
BY_COMMAND = {tool.command.name: tool for tool in TOOLS if tool.command is not None}


def defaults(tool: str) -> dict[str, Any]:
    """The declared default of every optional parameter of ``tool``."""
    return {p.name: p.default for p in BY_NAME[tool].params if not p.required}
