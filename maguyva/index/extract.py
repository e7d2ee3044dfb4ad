"""The generic extraction engine: a parsed tree + our query → symbols, references, chunks. Pure.

Query capture contract (one ``queries/<language>.scm`` per language):

* ``@def.<kind>`` on a definition node with ``@name`` on its name; optional ``@doc``.
  The same definition node matched by several patterns is merged (first kind wins, any doc kept).
* ``@ref.<kind>`` on a reference node with ``@name``; optional ``@qualifier``; imports carry
  ``@module`` and optionally ``@name`` / ``@alias``.

Per-language behaviour lives in optional hooks, ``maguyva.index.lang.<language>``:
``module_name(path)``, ``is_method(def_node)``, ``owner(def_node)``, ``clean_module(text)``,
``keep_reference(ref_node, captures) -> bool``.

Facts for the type and value pass: ``@fact.<kind>`` (``maguyva.models.FACT_KINDS``) on a node
the hook ``facts(kind, node, source, defined_names)`` turns into ``(name, qualifier, module, alias,
anchor_node)`` rows; each becomes a ``Reference`` of that kind, scoped like any reference.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from operator import attrgetter
from sys import intern

from maguyva.errors import ParseError
from maguyva.index.chunk import chunk_code, chunk_text
from maguyva.index.facts import normalize
from maguyva.index.languages import compiled_query, has_query, hooks
from maguyva.index.nodes import node_text
from maguyva.index.parse import DEFAULT_BUDGET_MS, parse_source
from maguyva.index.transport import new_reference, new_symbol
from maguyva.index.values import MAX_TEXT, UNKNOWN
from maguyva.models import DEF_KINDS, FACT_KINDS, REF_KINDS, FileExtraction, Reference, Symbol

CLASS_LIKE = frozenset({"class", "interface", "struct", "trait", "enum"})
_VALUE_KINDS = frozenset(
    {"variable", "constant", "field"}
)  # definitions that are no scope of their own value
SIGNATURE_MAX = 200
_WORD = re.compile(r"[^\W\d][\w$]*")
_MAX_SYNTAX_ERRORS = 3
# No match starts deeper in the tree: a query's time grows with depth × matches, so a chain
# ``x.f().f()…`` of 8,000 calls took 2.2 s in tree-sitter alone (20,000: 14 s), and 1,024 levels are
# more than any file of the stdlib or svelte reaches with a match (bench: every match kept)
MAX_MATCH_DEPTH = 1024
MAX_RECEIVER_SPAN = 4096  # source bytes: longer than any receiver of the stdlib or svelte (2.1 / 2.5 KB)


@dataclass(slots=True)
class _Def:
    node: object
    name_node: object
    kind: str
    doc_nodes: list
    pattern: int  # a lower pattern index wins when two patterns capture the same definition


def default_module_name(path: str) -> str:
    """``pkg/sub/file.ext`` → ``pkg.sub.file``."""
    stem = path.rsplit(".", 1)[0] if "." in path.rsplit("/", 1)[-1] else path
    return stem.replace("/", ".")


def module_name(path: str, language: str) -> str:
    """The module prefix of qualified names in ``path``."""
    hook = hooks(language)
    if hook is not None and hasattr(hook, "module_name"):
        return hook.module_name(path)
    return default_module_name(path)


def extract_file(path: str, language: str, source: bytes, tree) -> FileExtraction:
    """Run ``language``'s query over ``tree`` and build the file's symbols, references and chunks."""
    from tree_sitter import QueryCursor

    defs: dict[tuple[int, int, int], _Def] = {}
    raw_refs: dict[
        tuple[str, int, int, int], tuple
    ] = {}  # key → (kind, captures count, node, name, captures)
    keep = getattr(hooks(language), "keep_reference", None)  # e.g. Ruby: a bare local is no call
    fact_nodes: dict[tuple[str, int, int], object] = {}
    query = compiled_query(language)
    mains = _pattern_mains(language, query.pattern_count)
    cursor = QueryCursor(query)
    cursor.set_max_start_depth(MAX_MATCH_DEPTH)
    for pattern, captures in cursor.matches(tree.root_node):
        main = mains[pattern]
        if main is None or main[0] not in captures:
            main = mains[pattern] = _main_capture(captures)
            if main is None:
                continue
        capture, family, sub = main
        node = captures[capture][0]
        if family == "fact":
            fact_nodes.setdefault((sub, node.start_byte, node.end_byte), node)
        elif family == "def":
            name_node = captures["name"][0]
            key = (node.start_byte, node.end_byte, name_node.start_byte)
            found = defs.get(key)
            docs = list(captures.get("doc", ()))
            if found is None or pattern < found.pattern:
                defs[key] = _Def(node, name_node, sub, docs or (found.doc_nodes if found else []), pattern)
            elif docs and not found.doc_nodes:
                found.doc_nodes = docs
        elif keep is None or keep(node, captures):
            size = len(captures)
            start, end = node.start_byte, node.end_byte
            for name_node in captures.get("name") or [None]:
                # a bare ``import a, b, c`` matches once per module: each is its own reference
                anchor = name_node if name_node is not None else (captures.get("module") or [node])[0]
                key = (sub, anchor.start_byte, start, end)
                known = raw_refs.get(key)
                if known is None or size > known[1]:  # keep the richest match
                    raw_refs[key] = (sub, size, node, name_node, captures)
    symbols, spans = _build_symbols(path, language, source, sorted(defs.values(), key=_order))
    ordered = sorted(raw_refs.items(), key=_by_start)
    found = [item for _, item in ordered]
    scopes = _innermost_scopes(spans, [(key[2], key[3]) for key, _ in ordered])
    written: list[str] = []  # receivers stored in normal form, as written (their words are uses: _facts)
    references = [
        _build_reference(path, sub, node, name_node, caps, scope, source, written)
        for (sub, _, node, name_node, caps), scope in zip(found, scopes)
    ]
    if fact_nodes:
        defined = {s.name for s in symbols}
        # a call's arguments matter only for our callees
        for (sub, _, node, _, _), ref in zip(found, references):
            bare = not ref.qualifier
            if (
                sub == "call"
                and ref.name in defined
                and ref.qualifier != UNKNOWN
                and ref.qualifier.count(".") < 1 + bare
            ):
                fact_nodes.setdefault(("arg", node.start_byte, node.end_byte), node)
        references += _facts(path, language, source, fact_nodes, spans, symbols, references, written)
    references = tuple(sorted(references, key=_reference_order))
    text = source.decode("utf-8", errors="replace")
    return FileExtraction(
        path=path,
        language=language,
        symbols=symbols,
        references=references,
        chunks=chunk_code(path, text, symbols),
        errors=_syntax_errors(path, tree),
    )


_MAIN_CAPTURES = (
    {f"def.{kind}" for kind in DEF_KINDS}
    | {f"ref.{kind}" for kind in REF_KINDS}
    | {f"fact.{kind}" for kind in FACT_KINDS}
)


def _facts(
    path: str, language: str, source: bytes, nodes: dict, spans, symbols, refs, written: list[str]
) -> list[Reference]:
    """The hook's fact rows for every ``@fact`` node, scoped by the node's innermost definition.

    Locals and parameters that cannot change an edge are dropped (most are such): one nothing in
    the file reads; one whose value is not known or a literal, unless it shadows a top-level name or
    is called by name; a parameter without default or annotation, likewise, unless this file passes
    its function an argument. ``self``/``cls`` of a method are implied."""
    hook = getattr(hooks(language), "facts", None)
    if hook is None:
        return []
    ordered = sorted(nodes.items(), key=lambda item: (item[0][1], -item[0][2]))
    scoping = [span for span, symbol in zip(spans, symbols) if symbol.kind not in _VALUE_KINDS]
    scopes = _innermost_scopes(scoping, [(start, end) for (_, start, end), _ in ordered])
    defined = frozenset(s.name for s in symbols)
    rows = [
        (kind, scope, row)
        for ((kind, _, _), node), scope in zip(ordered, scopes)
        for row in hook(kind, node, source, defined)
    ]
    calls = [r for r in refs if r.kind == "call"]
    bare = {r.name for r in calls if not r.qualifier}
    used = set(bare)
    used.update(_WORD.findall(" ".join([r.qualifier for r in calls] + written)))
    used.update(_WORD.findall(" ".join([f"{row[1]} {row[3]}" for _, _, row in rows])))
    kinds = {s.qualified_name: s.kind for s in symbols}
    called = bare
    called.update(s.name for s in symbols if s.parent is None)
    called.update(r.alias or r.name.split(".", 1)[0] for r in refs if r.kind == "import")
    passed = {row[0] for kind, _, row in rows if kind == "arg"}
    found: list[Reference] = []
    for kind, scope, (name, qualifier, module, alias, anchor) in rows:
        if kind == "iterate" and qualifier.startswith("["):
            continue  # a literal container's iteration calls no repository code
        if (
            kind in ("bind", "param")
            and "." not in name
            and scope is not None
            and kinds.get(scope) not in CLASS_LIKE
        ):
            if name not in used:
                continue
            if kind == "param" and name in ("self", "cls") and module == "0" and kinds.get(scope) == "method":
                continue
            weak = not alias and (not qualifier or qualifier == "?" or qualifier.startswith("'"))
            if weak and name not in called and (kind == "bind" or scope.rsplit(".", 1)[-1] not in passed):
                continue
        line, col = anchor.start_point
        found.append(
            new_reference(
                (
                    path,
                    intern(name),
                    kind,
                    line + 1,
                    col,
                    intern(qualifier),
                    scope,
                    intern(module),
                    intern(alias),
                )
            )
        )
    return found


def _main_capture(captures: dict) -> tuple[str, str, str] | None:
    """(capture, family, kind) of a match's ``@def.*`` / ``@ref.*`` / ``@fact.*`` capture."""
    for name in captures:
        if name in _MAIN_CAPTURES:
            family, _, sub = name.partition(".")
            return name, family, intern(sub)
    return None


_MAINS: dict[str, list] = {}


def _pattern_mains(language: str, patterns: int) -> list:
    """Per query pattern, its main capture as ``_main_capture`` found it in the pattern's first match
    (each of our patterns has exactly one; a match without it is looked at again)."""
    found = _MAINS.get(language)
    if found is None or len(found) != patterns:
        found = _MAINS[language] = [None] * patterns
    return found


def _by_start(item) -> int:
    return item[0][2]


_reference_order = attrgetter("line", "col", "kind", "name")


def _order(found: _Def) -> tuple[int, int]:
    return found.node.start_byte, -found.node.end_byte


def _build_symbols(path: str, language: str, source: bytes, defs: list[_Def]):
    """Nest definitions by byte containment; return symbols and (start, end, qualified) spans."""
    prefix = module_name(path, language)
    is_method = getattr(hooks(language), "is_method", None)
    stack: list[tuple[int, int, str, str]] = []  # (start, end, qualified name, kind)
    symbols: list[Symbol] = []
    spans: list[tuple[int, int, str]] = []
    for found in defs:
        node = found.node
        while stack and not (stack[-1][0] <= node.start_byte and node.end_byte <= stack[-1][1]):
            stack.pop()
        parent = stack[-1] if stack else None
        kind = found.kind
        if kind == "function" and (
            is_method(node) if is_method else parent is not None and parent[3] in CLASS_LIKE
        ):
            kind = "method"
        name = node_text(found.name_node, source).strip()
        outer = parent[2] if parent else _owner(hooks(language), node, prefix)
        qualified = f"{outer or prefix}.{name}" if (outer or prefix) else name
        (row, col), (end_row, end_col) = node.start_point, node.end_point
        end_line = end_row if end_col == 0 and end_row > row else end_row + 1  # a span ending at column 0
        symbols.append(
            new_symbol(
                (
                    path,
                    name,
                    qualified,
                    kind,
                    row + 1,
                    end_line,
                    col,
                    _signature(node, source),
                    _doc(found.doc_nodes, source),
                    outer,
                )
            )
        )
        stack.append((node.start_byte, node.end_byte, qualified, kind))
        spans.append((node.start_byte, node.end_byte, qualified))
    return tuple(symbols), spans


def _owner(hook, node, prefix: str) -> str | None:
    """The type a top-level definition belongs to outside any definition (a Rust ``impl``, a Go
    receiver), from the hook ``owner(def_node) -> type name | None``, module-qualified."""
    if hook is None or not hasattr(hook, "owner"):
        return None
    owner = hook.owner(node)
    return (f"{prefix}.{owner}" if prefix else owner) if owner else None


def _build_reference(
    path: str,
    kind: str,
    node,
    name_node,
    captures: dict,
    scope: str | None,
    source: bytes,
    written: list[str],
) -> Reference:
    modules = captures.get("module")  # several nodes (Scala's a . b . c path) → the span they cover
    module = (
        _clean_module(source[modules[0].start_byte : modules[-1].end_byte].decode("utf-8", errors="replace"))
        if modules
        else ""
    )
    name = node_text(name_node, source).strip() if name_node is not None else module
    qualifiers = captures.get("qualifier")
    qualifier = _qualifier(qualifiers[0], source, written if kind == "call" else []) if qualifiers else ""
    aliases = captures.get("alias")
    alias = node_text(aliases[0], source).strip() if aliases else ""
    line, col = (name_node if name_node is not None and kind != "import" else node).start_point
    # interned, as ``transport.pack`` sends them: each distinct string crosses once per batch
    return new_reference(
        (path, intern(name), kind, line + 1, col, intern(qualifier), scope, intern(module), intern(alias))
    )


def _qualifier(node, source: bytes, written: list[str]) -> str:
    """A call's receiver as written, without whitespace (= re's ``\\s``); a long one in its normal form
    (``infer.normalize``: ``f(<callback>).g``→``f().g``), and ``?`` (not followed) past ``values.MAX_TEXT``.

    A chain ``x.f().f()…`` of n calls has n receivers, each the chain so far: kept whole they cost
    O(n²) bytes and the value pass O(n³) time (a 26 KB file took minutes and gigabytes). A receiver
    spanning more than :data:`MAX_RECEIVER_SPAN` bytes is not even read. A receiver stored otherwise
    than as written is added to ``written``: the words of its callbacks still count as uses."""
    if node.end_byte - node.start_byte > MAX_RECEIVER_SPAN:
        return UNKNOWN
    text = "".join(node_text(node, source).split())
    if len(text) <= MAX_TEXT:
        return text
    written.append(text)
    text = normalize(text)
    return text if len(text) <= MAX_TEXT else UNKNOWN


def _innermost_scopes(spans: list[tuple[int, int, str]], ranges: list[tuple[int, int]]) -> list[str | None]:
    """For each [start, end) (sorted by start), the innermost definition span containing it.

    ``spans`` are sorted by start (outer first) and properly nested; one sweep with a stack.
    """
    scopes: list[str | None] = []
    stack: list[tuple[int, int, str]] = []
    next_span = 0
    for start, end in ranges:
        while next_span < len(spans) and spans[next_span][0] <= start:
            span = spans[next_span]
            while stack and stack[-1][1] <= span[0]:
                stack.pop()
            stack.append(span)
            next_span += 1
        while stack and stack[-1][1] < end:
            stack.pop()
        scopes.append(stack[-1][2] if stack else None)
    return scopes


def _clean_module(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'`":
        return text[1:-1]
    return text.strip("<>")


def _signature(node, source: bytes) -> str:
    body = node.child_by_field_name("body")
    end = body.start_byte if body is not None and body.start_byte > node.start_byte else node.end_byte
    text = source[node.start_byte : end].decode("utf-8", errors="replace")
    if body is None:
        text = text.split("\n", 1)[0]
    return " ".join(text.split()).rstrip("{").strip()[:SIGNATURE_MAX]  # whitespace runs → one space


_DOC_MARKERS = re.compile(r"^\s*(?:/\*\*?|\*/|\*|///?|#+|--)\s?")


def _doc(nodes: list, source: bytes) -> str:
    """First paragraph of a docstring or leading comment, markers and quotes removed."""
    if not nodes:
        return ""
    text = "\n".join(node_text(n, source) for n in nodes).strip()
    text = re.sub(r'^[rRbBuUfF]*("""|\'\'\'|"|\')', "", text)
    text = re.sub(r'("""|\'\'\'|"|\')$', "", text).rstrip("*/ \n")
    lines = [_DOC_MARKERS.sub("", line).strip() for line in text.splitlines()]
    paragraph: list[str] = []
    for line in lines:
        if not line and paragraph:
            break
        if line:
            paragraph.append(line)
    return " ".join(paragraph)


def _syntax_errors(path: str, tree) -> tuple[str, ...]:
    if not tree.root_node.has_error:
        return ()
    found: list[str] = []
    cursor = [tree.root_node]
    while cursor and len(found) < _MAX_SYNTAX_ERRORS:
        node = cursor.pop()
        if node.is_error or node.is_missing:
            found.append(f"{path}:{node.start_point[0] + 1}:{node.start_point[1]}: syntax error")
        elif node.has_error:
            cursor.extend(reversed(node.children))
    return tuple(found)


def extract_source(
    path: str, language: str | None, source: bytes, budget_ms: int = DEFAULT_BUDGET_MS
) -> FileExtraction:
    """Parse and extract a file with a query; chunk any other text file. Never raises on bad input."""
    if not has_query(language):
        text = source.decode("utf-8", errors="replace")
        return FileExtraction(path=path, language=language, chunks=chunk_text(path, text))
    try:
        tree = parse_source(path, language, source, budget_ms)
    except ParseError as exc:
        text = source.decode("utf-8", errors="replace")
        return FileExtraction(path=path, language=language, chunks=chunk_text(path, text), errors=(str(exc),))
    return extract_file(path, language, source, tree)
