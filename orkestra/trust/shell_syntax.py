"""The shell syntax tree the shell audit walks: the tree-sitter bash grammar shipped with the project's
``tree-sitter-language-pack``, parsed under a byte cap and a time budget, and the words it holds.

A ``Word`` is a word's value as the shell sees it (quotes removed, escapes applied, ``$'…'`` decoded)
that still carries the command substitutions (``$(…)``, backticks, ``<(…)``) it was built from and
whether it is made only of expansions (``"$cmd"``, ``$(…)``): its text is the value, with each
substitution and unknown expansion written as in the script. ``assemble`` builds words from a node's
parts, ``literal`` reads the value of ``name=VALUE`` when it is a literal; ``conditional``,
``heredoc_error`` and ``opened_heredocs`` answer questions about the tree, ``notation`` prepares usage
notation (``{bash|zsh}``) before parsing.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from functools import lru_cache

MAX_SCRIPT_BYTES = 2_000_000  # larger scripts are reported as not reviewable instead of parsed
PARSE_BUDGET_MS = 2_000  # a parse that runs longer is cancelled (tree-sitter's progress callback)
MAX_DEPTH = 8  # shell code nested in shell code (bash -c, eval, heredocs) beyond this is not reviewed

# Nodes that hold one word of a command (an argument, a command name, a redirect target).
WORD_NODES = {
    "word",
    "number",
    "string",
    "raw_string",
    "ansi_c_string",
    "translated_string",
    "concatenation",
    "simple_expansion",
    "expansion",
    "command_substitution",
    "process_substitution",
    "arithmetic_expansion",
    "brace_expression",
}
SUBSTITUTIONS = {"command_substitution", "process_substitution"}
_ESCAPED = re.compile(r"\\(.)", re.S)
_ESCAPED_IN_QUOTES = re.compile(r"\\([\\$`\"\n])")


@dataclass
class Subst:
    """What a command substitution produces: remote content, secrets, decoded bytes."""

    text: str  # the script inside: ``curl -s URL`` of ``$(curl -s URL)``
    source: str = ""  # as written: ``$(curl -s URL)``
    fetches: bool = False
    secret: bool = False
    decodes: bool = False


class Word(str):
    """A word's value with the substitutions in it and whether it is built only of expansions."""

    substs: tuple[Subst, ...]
    dynamic: bool

    def __new__(cls, value: str, substs: tuple[Subst, ...] = (), dynamic: bool = False) -> Word:
        word = super().__new__(cls, value)
        word.substs, word.dynamic = substs, dynamic
        return word


def substs_of(word: str) -> tuple[Subst, ...]:
    """The substitutions a word was built from (none for a plain string, e.g. a Python argv literal)."""
    return getattr(word, "substs", ())


@dataclass
class Parsed:
    """A parsed script: its bytes, the root node, and why it could not be parsed ("" when it was)."""

    source: bytes
    root: object = None
    error: str = ""
    lines: list[str] = field(default_factory=list)

    def text(self, node) -> str:
        return self.source[node.start_byte : node.end_byte].decode("utf-8", errors="replace")


@lru_cache(maxsize=8)
def parse(text: str) -> Parsed:
    """``text`` parsed with the bash grammar, or the reason it was not (too large, too slow)."""
    source = text.encode("utf-8", errors="replace")
    if len(source) > MAX_SCRIPT_BYTES:
        return Parsed(source, error=f"{len(source)} bytes of shell code: too large to review")
    from maguyva.errors import ParseError
    from maguyva.index.parse import parse_source

    try:
        tree = parse_source("<shell>", "bash", source, budget_ms=PARSE_BUDGET_MS)
    except ParseError:
        return Parsed(source, error=f"shell code took over {PARSE_BUDGET_MS} ms to parse: not reviewable")
    return Parsed(source, tree.root_node, lines=text.split("\n"))


def unescape(text: str, quoted: bool) -> str:
    """A word part's value: backslash escapes applied as bash applies them outside or inside ``"…"``."""
    if "\\" not in text:
        return text
    text = text.replace("\\\n", "")
    return (_ESCAPED_IN_QUOTES if quoted else _ESCAPED).sub(r"\1", text)


def ansi_c(text: str) -> str:
    """The value of ``$'…'`` (``$'\\x63url'`` is ``curl``)."""
    body = text[2:-1] if text.startswith("$'") and text.endswith("'") else text
    try:
        return codecs.decode(body.encode("latin-1", errors="backslashreplace"), "unicode_escape")
    except (UnicodeDecodeError, ValueError):
        return body


def unbacktick(text: str) -> str:
    """The script inside a backtick substitution: ``\\```, ``\\\\`` and ``\\$`` unescaped, as bash reads it."""
    return re.sub(r"\\([\\`$])", r"\1", text)


def descendants(node, stop: set[str] = frozenset()):
    """Every node below ``node`` (depth first, iteratively); nodes of a ``stop`` type are yielded but
    not entered."""
    stack = list(reversed(node.children))
    while stack:
        current = stack.pop()
        yield current
        if current.type not in stop:
            stack.extend(reversed(current.children))


def inside(source: str) -> str:
    """The script inside ``$(…)``, ```…```, ``<(…)`` or ``>(…)``."""
    if source.startswith(("$(", "<(", ">(")):
        return source[2:-1] if source.endswith(")") else source[2:]
    if source.startswith("`"):
        return source[1:-1] if source.endswith("`") and len(source) > 1 else source[1:]
    return source


def assemble(parts: list[tuple]) -> list[Word]:
    """Words from a node's parts: literal text, unknown expansions, substitutions, and literal values of
    unquoted variables, which split at spaces."""
    words: list[Word] = []
    text: list[str] = []
    substs: list[Subst] = []
    dynamic: list[bool] = []

    def flush() -> None:
        if text or dynamic:
            words.append(Word("".join(text), tuple(substs), bool(dynamic) and all(dynamic)))
        text.clear(), substs.clear(), dynamic.clear()

    for part in parts:
        kind = part[0]
        if kind == "split":
            pieces = part[1].split()
            if part[1][:1].isspace():
                flush()
            for index, piece in enumerate(pieces):
                if index:
                    flush()
                text.append(piece)
                dynamic.append(False)
            if part[1][-1:].isspace():
                flush()
            continue
        text.append(part[1])
        if kind == "subst":
            substs.append(part[2])
        if kind != "lit" or part[1]:
            dynamic.append(kind in {"var", "subst"})
    flush()
    return words


def literal(parsed: Parsed, value) -> str | None:
    """The value of ``name=VALUE`` when it is a literal: a bare word, ``'…'``, or ``"…"`` without
    expansions, substitutions or escapes."""
    text = parsed.text(value)
    if value.type in {"word", "number"}:
        return None if re.search(r"[\s'\"$`;|&<>()\\]", text) else text
    if value.type == "raw_string":
        return text[1:-1]
    plain = value.type == "string" and all(c.type == "string_content" for c in value.named_children)
    return text[1:-1] if plain and not re.search(r"[$`\\]", text[1:-1]) else None


BRANCHES = {
    "case_item",
    "if_statement",
    "elif_clause",
    "else_clause",
    "while_statement",
    "for_statement",
    "c_style_for_statement",
    "do_group",
    "function_definition",
    "list",
}


def conditional(node) -> bool:
    """Whether a statement runs only on some paths: in a branch, a loop, a function or after ``&&``/``||``."""
    parent = node.parent
    while parent is not None:
        if parent.type in BRANCHES:
            return True
        parent = parent.parent
    return False


def heredoc_error(node) -> bool:
    """A heredoc line the grammar could not attach (no body follows): ``cat <<EOF | sh``."""
    return node.type == "ERROR" and bool(node.children) and node.children[0].type in {"<<", "<<-"}


_CHOICES = re.compile(r"\{[\w@.-]+(?:\|[\w@.-]+)+\}")  # usage notation: `tool completion {bash|zsh}`


def notation(text: str) -> str:
    """``tool completion {bash|zsh}`` is usage notation, not a pipe: the choice is read as one word."""
    return _CHOICES.sub(lambda m: "CHOICE".ljust(len(m.group(0))), text) if "|" in text else text


def opened_heredocs(parsed: Parsed) -> list[str]:
    """The delimiters of heredocs a one-line text opens (``cat <<'EOF' > f``)."""
    return [parsed.text(n).strip("'\"") for n in descendants(parsed.root) if n.type == "heredoc_start"]
