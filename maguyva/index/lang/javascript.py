"""JavaScript hooks: module specifiers → files; a default import binds to the same-named definition."""

from __future__ import annotations

import posixpath

from maguyva.index.nodes import dotted_name, node_text
from maguyva.index.values import UNKNOWN, capped, join

EXTENSIONS = (".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".d.ts")


def resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """``./util`` → ``dir/util.js`` (or ``.ts``, ``/index.js`` …); bare names are not in the repo."""
    if not module.startswith((".", "/")):
        return None
    stem = posixpath.normpath(posixpath.join(posixpath.dirname(from_path), module)).lstrip("/")
    if stem in known_paths:
        return stem
    base, ext = posixpath.splitext(stem)
    if ext in (".js", ".jsx", ".mjs", ".cjs"):  # TypeScript sources imported with their output extension
        for candidate in (".ts", ".tsx", ".mts", ".cts"):
            if base + candidate in known_paths:
                return base + candidate
    for candidate in (*(stem + e for e in EXTENSIONS), *(f"{stem}/index{e}" for e in EXTENSIONS)):
        if candidate in known_paths:
            return candidate
    return None


def default_import(alias: str, target_symbols) -> object | None:
    """``import Service from "./service"``: the target's top-level definition named like the binding.

    Nothing records which definition is ``export default``, so the conventional same name is used;
    otherwise the import binds to the module file.
    """
    for symbol in target_symbols:
        if symbol.parent is None and symbol.name == alias:
            return symbol
    return None


def owner(def_node) -> str | None:
    """The object a member function is assigned to: ``View.prototype.lookup = …`` → ``View``,
    ``res.send = …`` → ``res``, ``defineGetter(req, 'fresh', …)`` → ``req``; CommonJS exports
    (``exports.f``, ``module.exports.f``) belong to the module itself."""
    if def_node.type == "assignment_expression":
        target = def_node.child_by_field_name("left")
        receiver = target.child_by_field_name("object") if target is not None else None
    elif def_node.type == "call_expression":
        arguments = def_node.child_by_field_name("arguments")
        receiver = arguments.named_children[0] if arguments is not None and arguments.named_children else None
    else:
        return None
    if receiver is None or receiver.end_byte - receiver.start_byte > 200:
        return None
    written = receiver.text.decode("utf-8", errors="replace")
    if written.endswith(".prototype"):
        written = written[: -len(".prototype")]
    if written in ("exports", "module.exports", "module", "this") or not written:
        return None
    return written


# ---- facts for the type and value pass (maguyva.index.infer); rows as in lang/python.py ``facts`` ----
_LITERALS = {
    "string": "str",
    "template_string": "str",
    "number": "int",
    "true": "bool",
    "false": "bool",
    "regex": "builtin",
    "null": "None",
    "undefined": "None",
}
_INNER = (
    "parenthesized_expression",
    "await_expression",
    "as_expression",
    "non_null_expression",
    "satisfies_expression",
    "type_assertion",
)
_FUNCTIONS = (
    "function_declaration",
    "generator_function_declaration",
    "method_definition",
    "function_expression",
    "function",
    "arrow_function",
    "generator_function",
)
_KEY = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")


def summarize(node, source: bytes, depth: int = 0) -> str:
    """The value expression (``maguyva.index.values``) of a JavaScript/TypeScript expression."""
    if node is None or depth > 6:
        return UNKNOWN
    kind = node.type
    if kind == "identifier":
        return node_text(node, source)
    if kind == "this":
        return "this"
    if kind == "member_expression":
        base = summarize(node.child_by_field_name("object"), source, depth + 1)
        name = node.child_by_field_name("property")
        return (
            capped(f"{base}.{node_text(name, source)}") if base != UNKNOWN and name is not None else UNKNOWN
        )
    if kind in ("call_expression", "new_expression"):
        function = node.child_by_field_name("function" if kind == "call_expression" else "constructor")
        base = summarize(function, source, depth + 1)
        return capped(base + "()") if base != UNKNOWN else UNKNOWN
    if kind in _LITERALS:
        return "'" + _LITERALS[kind]
    if kind in _INNER:
        inner = [c for c in node.named_children if c.type != "comment"]
        return summarize(inner[0], source, depth + 1) if inner else UNKNOWN
    if kind == "subscript_expression":
        base = summarize(node.child_by_field_name("object"), source, depth + 1)
        return (
            capped(f"{base}[{_key(node.child_by_field_name('index'), source)}]")
            if base != UNKNOWN
            else UNKNOWN
        )
    if kind == "array":
        return capped(
            join([summarize(c, source, depth + 1) for c in node.named_children[:16] if c.type != "comment"])
        )
    if kind == "object":
        items = []
        for child in node.named_children[:16]:
            if child.type == "pair":
                items.append(
                    f"{_key(child.child_by_field_name('key'), source)}:"
                    f"{summarize(child.child_by_field_name('value'), source, depth + 1)}"
                )
            elif child.type == "shorthand_property_identifier":
                text = node_text(child, source)
                items.append(f"'{text}:{text}" if set(text) <= _KEY else "?")
        return capped(join(items))
    if kind == "binary_expression":
        operator = node.child_by_field_name("operator")
        op = node_text(operator, source) if operator is not None else ""
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if op in ("||", "??"):
            parts = [summarize(left, source, depth + 1), summarize(right, source, depth + 1)]
            return UNKNOWN if UNKNOWN in parts else capped("|".join(parts))
        return (
            "'str"
            if op == "+" and left is not None and left.type in ("string", "template_string")
            else UNKNOWN
        )
    if kind == "ternary_expression":
        parts = [
            summarize(node.child_by_field_name(f), source, depth + 1) for f in ("consequence", "alternative")
        ]
        return UNKNOWN if UNKNOWN in parts else capped("|".join(parts))
    return UNKNOWN


def _key(node, source: bytes) -> str:
    if node is None:
        return "*"
    text = node_text(node, source)
    if node.type == "number" and text.isdigit():
        return text
    if node.type in ("property_identifier", "string"):
        text = text.strip("'\"`")
        return "'" + text if text and set(text) <= _KEY else "*"
    return "*"


def _target(node, source: bytes) -> str | None:
    """``x`` / ``this.x`` / ``obj.a.b`` as an assignment target or callee; None for anything else."""
    return dotted_name(node, source, ("identifier", "this"), "member_expression", "property")


def facts(kind: str, node, source: bytes, defined: frozenset) -> list[tuple]:
    """(name, qualifier, module, alias, anchor) rows for one fact node (see lang/python.py ``facts``)."""
    if kind == "bind":
        if node.type == "variable_declarator":
            left, right = node.child_by_field_name("name"), node.child_by_field_name("value")
            annotation = node.child_by_field_name("type")
        elif node.type in ("public_field_definition", "field_definition"):
            left = node.child_by_field_name("name") or node.child_by_field_name("property")
            right, annotation = node.child_by_field_name("value"), node.child_by_field_name("type")
        else:
            left, right, annotation = (
                node.child_by_field_name("left"),
                node.child_by_field_name("right"),
                None,
            )
        alias = _annotation(annotation, source)
        if right is not None and right.type in ("as_expression", "satisfies_expression") and not alias:
            typed = [c for c in right.named_children if c.type != "comment"]
            if len(typed) == 2:  # x = y as T: the cast is the type
                alias = node_text(typed[1], source)
        if left is None or (right is None and not alias):
            return []
        if right is not None and right.type in _FUNCTIONS:
            return []  # a function value is its own definition (def.function on the declarator)
        value = summarize(right, source) if right is not None else "?"
        if left.type == "array_pattern":
            return [
                (node_text(t, source), f"{value}[{i}]" if value != "?" else "?", "", "", t)
                for i, t in enumerate(left.named_children)
                if t.type == "identifier"
            ]
        if left.type == "subscript_expression":
            target = _target(left.child_by_field_name("object"), source)
            key = _key(left.child_by_field_name("index"), source)
            return [(target, capped(join([f"{key}:{value}"])), "", "", left)] if target else []
        if left.type == "property_identifier":  # a class field
            return [(node_text(left, source), value, "", alias, left)]
        target = _target(left, source)
        return [(target, value, "", alias, left)] if target else []
    if kind == "return":
        value = [c for c in node.named_children if c.type != "comment"]
        return [("return", summarize(value[0], source) if value else "'None", "", "", node)]
    if kind == "param":
        return _params(node, source)
    if kind == "arg":
        return _args(node, source, defined)
    return []


def _annotation(node, source: bytes) -> str:
    if node is None:
        return ""
    return node_text(node, source).lstrip(":").strip()


def _params(node, source: bytes) -> list[tuple]:
    rows = []
    parameters = node.child_by_field_name("parameters") or node.child_by_field_name("parameter")
    children = (
        parameters.named_children
        if parameters is not None and parameters.type == "formal_parameters"
        else [parameters]
        if parameters is not None
        else []
    )
    position = 0
    for child in children:
        name, default, annotation, field = child, None, "", False
        if child.type in ("required_parameter", "optional_parameter"):
            name, default = child.child_by_field_name("pattern"), child.child_by_field_name("value")
            annotation = _annotation(child.child_by_field_name("type"), source)
            field = any(c.type == "accessibility_modifier" or c.type == "readonly" for c in child.children)
        if name is not None and name.type == "assignment_pattern":
            name, default = name.child_by_field_name("left"), name.child_by_field_name("right")
        slot = str(position)
        if name is not None and name.type == "rest_pattern":
            slot = "*"
            name = name.named_children[0] if name.named_children else None
        position += 1
        if name is None or name.type != "identifier":
            continue
        text = node_text(name, source)
        rows.append((text, summarize(default, source) if default is not None else "", slot, annotation, name))
        if field:  # constructor(private repo: Repo): this.repo is the parameter
            rows.append(("this." + text, text, "", "", name))
    returns = node.child_by_field_name("return_type")
    if returns is not None:
        rows.append(("return", "", "", _annotation(returns, source), returns))
    return rows


def _args(node, source: bytes, defined: frozenset) -> list[tuple]:
    function = node.child_by_field_name("function") or node.child_by_field_name("constructor")
    callee = _target(function, source) if function is not None else None
    if not callee:
        return []
    last = callee.rsplit(".", 1)[-1]
    if "." in callee and (last not in defined or callee.count(".") > 1):
        return []
    arguments = node.child_by_field_name("arguments")
    rows = []
    for position, child in enumerate(
        c for c in (arguments.named_children if arguments is not None else ()) if c.type != "comment"
    ):
        if child.type in ("identifier", "member_expression"):
            text = summarize(child, source)
            root, _, rest = text.partition(".")
            if root in defined or (root == "this" and rest.rsplit(".", 1)[-1] in defined):
                rows.append((last, callee, str(position), text, child))
    return rows
