"""Python hooks: module names from package paths and import resolution (absolute and relative)."""

from __future__ import annotations

from maguyva.index.nodes import dotted_name, node_text
from maguyva.index.values import UNKNOWN, capped, join

SOURCE_ROOTS = ("", "src/", "lib/")


def module_name(path: str) -> str:
    """``pkg/mod.py`` → ``pkg.mod``; ``pkg/__init__.py`` → ``pkg``; a leading ``src/`` is dropped."""
    stem = path.rsplit(".", 1)[0]
    if stem.endswith("/__init__") or stem == "__init__":
        stem = stem[: -len("__init__")].rstrip("/")
    for root in SOURCE_ROOTS[1:]:
        if stem.startswith(root):
            stem = stem[len(root) :]
            break
    return stem.replace("/", ".")


def resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """The repository file ``module`` names, seen from ``from_path``; None when not in the repo."""
    dots = len(module) - len(module.lstrip("."))
    rest = module[dots:].replace(".", "/")
    if dots:
        base = from_path.rsplit("/", 1)[0] if "/" in from_path else ""
        for _ in range(dots - 1):
            base = base.rsplit("/", 1)[0] if "/" in base else ""
        candidates = [f"{base}/{rest}".strip("/")] if rest else [base]
    else:
        candidates = [root + rest for root in SOURCE_ROOTS]
        package = from_path.rsplit("/", 1)[0] if "/" in from_path else ""
        if package:  # implicit sibling import, as scripts run from their own directory do
            candidates.append(f"{package}/{rest}")
    for stem in candidates:
        for path in (f"{stem}.py", f"{stem}.pyi", f"{stem}/__init__.py".lstrip("/")):
            if path in known_paths:
                return path
    return None


def submodule(module: str, name: str) -> str:
    """The module named by ``from module import name`` when ``name`` is itself a module."""
    return f"{module}{name}" if module.endswith(".") else f"{module}.{name}"


# ---- facts for the type and value pass (maguyva.index.infer); value grammar: maguyva.index.values ----
_LITERALS = {
    "string": "str",
    "concatenated_string": "str",
    "integer": "int",
    "float": "float",
    "true": "bool",
    "false": "bool",
    "none": "None",
    "list_comprehension": "list",
    "dictionary_comprehension": "dict",
    "set_comprehension": "set",
    "generator_expression": "generator",
    "comparison_operator": "bool",
    "not_operator": "bool",
}
_CONTAINERS = {
    "list",
    "tuple",
    "set",
    "expression_list",
    "dictionary",
    "pattern_list",
    "tuple_pattern",
    "list_pattern",
}
_KEY = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_SELF = ("self", "cls")


def summarize(node, source: bytes, depth: int = 0) -> str:
    """The value expression (``maguyva.index.values``) of an expression node."""
    if node is None or depth > 6:
        return UNKNOWN
    kind = node.type
    if kind == "identifier":
        return node_text(node, source)
    if kind == "attribute":
        base = summarize(node.child_by_field_name("object"), source, depth + 1)
        name = node.child_by_field_name("attribute")
        return (
            capped(f"{base}.{node_text(name, source)}") if base != UNKNOWN and name is not None else UNKNOWN
        )
    if kind == "call":
        function = node.child_by_field_name("function")
        base = summarize(function, source, depth + 1)
        return capped(base + "()") if base != UNKNOWN else UNKNOWN
    if kind in _LITERALS:
        return "'" + _LITERALS[kind]
    if kind == "binary_operator":
        left = summarize(node.child_by_field_name("left"), source, depth + 1)
        return left if left.startswith("'") else UNKNOWN
    if kind in ("parenthesized_expression", "await"):
        inner = node.named_children
        return summarize(inner[0], source, depth + 1) if inner else UNKNOWN
    if kind == "subscript":
        base = summarize(node.child_by_field_name("value"), source, depth + 1)
        key = node.child_by_field_name("subscript")
        return capped(f"{base}[{_key(key, source)}]") if base != UNKNOWN else UNKNOWN
    if kind in _CONTAINERS:
        items = []
        for child in node.named_children[:16]:
            if child.type == "pair":
                items.append(
                    f"{_key(child.child_by_field_name('key'), source)}:"
                    f"{summarize(child.child_by_field_name('value'), source, depth + 1)}"
                )
            elif child.type != "comment":
                items.append(summarize(child, source, depth + 1))
        return capped(join(items))
    if kind in ("conditional_expression", "boolean_operator"):
        values = [c for c in node.named_children if c.type != "comment"]
        options = (
            [values[0], values[2]] if kind == "conditional_expression" and len(values) == 3 else values[:2]
        )
        parts = [summarize(o, source, depth + 1) for o in options]
        return UNKNOWN if UNKNOWN in parts else capped("|".join(parts))
    return UNKNOWN


def _key(node, source: bytes) -> str:
    if node is None:
        return "*"
    if node.type == "integer":
        return node_text(node, source)
    if node.type == "string":
        content = node_text(node, source).strip("'\"bru")
        return "'" + content if content and set(content) <= _KEY else "*"
    return "*"


def _target(node, source: bytes) -> str | None:
    """``x`` / ``self.x`` / ``Cls.attr`` as an assignment target; None for anything else."""
    return dotted_name(node, source, ("identifier",), "attribute", "attribute")


def facts(kind: str, node, source: bytes, defined: frozenset) -> list[tuple]:
    """(name, qualifier, module, alias, anchor) rows for one matched fact node (contract: extract.py).

    ``bind``: name = target, qualifier = value, alias = annotation. ``param``: name, qualifier =
    default, module = position (``*``/``**`` for splats), alias = annotation. ``return``: qualifier
    = value, alias = return annotation. ``decorate``: name = decorated definition, qualifier =
    decorator, module = position (0 outermost). ``arg``: name = callee's last name, qualifier =
    callee, alias = argument, module = position or keyword — only for callees defined in the file.
    """
    if kind == "bind":  # the kinds by frequency (the stdlib: 140k, 68k, 59k, 23k, 10k, 6k nodes)
        return _binds(node, source)
    if kind == "arg":
        return _args(node, source, defined)
    if kind == "param":
        return _params(node, source)
    if kind == "return":  # module "yield": a generator's item
        value = [c for c in node.named_children if c.type != "comment"]
        text = summarize(value[0], source) if value else "'None"
        return [("return", text, "yield" if node.type == "yield" else "", "", node)]
    if kind == "iterate":  # for x in value: value.__iter__() and its __next__() run implicitly
        value = summarize(node.child_by_field_name("right"), source)
        return [("", value, "", "", node)] if value not in ("?",) and not value.startswith("'") else []
    if kind == "decorate":
        definition = node.child_by_field_name("definition")
        name = definition.child_by_field_name("name") if definition is not None else None
        if name is None:
            return []
        decorators = [c for c in node.named_children if c.type == "decorator"]
        return [
            (
                node_text(name, source),
                summarize(d.named_children[0] if d.named_children else None, source),
                str(i),
                "",
                d,
            )
            for i, d in enumerate(decorators)
        ]
    return []


def _binds(node, source: bytes) -> list[tuple]:
    kind = node.type
    if kind == "for_statement":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        value = summarize(right, source)
        return _unpack(left, f"{value}[*]" if value != "?" else "?", source, None)
    if kind == "as_pattern":  # with A() as a
        alias = node.child_by_field_name("alias")
        target = alias.named_children[0] if alias is not None and alias.named_children else None
        values = [c for c in node.named_children if c.type != "as_pattern_target"]
        return (
            _unpack(target, summarize(values[0], source) if values else "?", source, None) if target else []
        )
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    while right is not None and right.type == "assignment":  # a = b = value
        right = right.child_by_field_name("right")
    annotation = node.child_by_field_name("type")
    alias = node_text(annotation, source) if annotation is not None else ""
    if right is None and not alias:
        return []
    return _unpack(left, summarize(right, source) if right is not None else "?", source, right, alias)


def _unpack(left, value: str, source: bytes, right, alias: str = "") -> list[tuple]:
    if left is None:
        return []
    if left.type in ("pattern_list", "tuple_pattern", "list_pattern"):
        targets = [c for c in left.named_children if c.type != "comment"]
        items = (
            [c for c in right.named_children if c.type != "comment"]
            if right is not None and right.type in ("expression_list", "tuple", "list")
            else None
        )
        rows = []
        splat = next((i for i, t in enumerate(targets) if t.type == "list_splat_pattern"), None)
        for i, target in enumerate(targets):
            if items is not None and splat is not None and len(items) >= len(targets) - 1:
                tail = len(targets) - 1 - i  # a, *b, c = f, g, h, k: b holds the middle items
                if i == splat:
                    middle = items[splat : len(items) - (len(targets) - 1 - splat)]
                    inner = target.named_children[0] if target.named_children else None
                    rows += (
                        _unpack(inner, capped(join([summarize(m, source) for m in middle])), source, None)
                        if inner is not None
                        else []
                    )
                    continue
                item_node = items[i] if i < splat else items[len(items) - 1 - tail]
                rows += _unpack(target, summarize(item_node, source), source, item_node)
                continue
            if target.type == "list_splat_pattern":
                continue
            item = (
                summarize(items[i], source)
                if items is not None and len(items) == len(targets)
                else (f"{value}[{i}]" if value != "?" else "?")
            )
            rows += _unpack(
                target, item, source, items[i] if items is not None and len(items) == len(targets) else None
            )
        return rows
    if left.type == "subscript":  # d["k"] = v: d now holds v under "k" (the latest assignment wins)
        target = _target(left.child_by_field_name("value"), source)
        key = _key(left.child_by_field_name("subscript"), source)
        return [(target, capped(join([f"{key}:{value}"])), "", "", left)] if target else []
    target = _target(left, source)
    if target and "." in target and value == "?" and not alias:
        return []  # self.x = <unknown>: no better than no fact
    return [(target, value, "", alias, left)] if target else []


def _params(node, source: bytes) -> list[tuple]:
    rows = []
    parameters = node.child_by_field_name("parameters")
    position = 0
    for child in parameters.named_children if parameters is not None else ():
        kind, default, annotation, name = child.type, None, "", child
        if kind in ("default_parameter", "typed_default_parameter"):
            name, default = child.child_by_field_name("name"), child.child_by_field_name("value")
        if kind in ("typed_parameter", "typed_default_parameter"):
            found = child.child_by_field_name("type")
            annotation = node_text(found, source) if found is not None else ""
            if kind == "typed_parameter":
                name = child.named_children[0] if child.named_children else None
        slot = str(position)
        if name is not None and name.type in ("list_splat_pattern", "dictionary_splat_pattern"):
            slot = "*" if name.type == "list_splat_pattern" else "**"
            name = name.named_children[0] if name.named_children else None
        if name is None or name.type != "identifier":
            continue
        rows.append(
            (
                node_text(name, source),
                summarize(default, source) if default is not None else "",
                slot,
                annotation,
                name,
            )
        )
        position += 1
    returns = node.child_by_field_name("return_type")
    if returns is not None:
        rows.append(("return", "", "", node_text(returns, source), returns))
    return rows


def _args(node, source: bytes, defined: frozenset) -> list[tuple]:
    function = node.child_by_field_name("function")
    callee = _target(function, source) if function is not None else None
    if not callee:
        return []
    last = callee.rsplit(".", 1)[-1]
    if "." in callee and (last not in defined or callee.count(".") > 1):
        return []  # a bare name may hold any function; a method only one of this file's
    arguments = node.child_by_field_name("arguments")
    rows, position = [], 0
    for child in arguments.named_children if arguments is not None else ():
        if child.type == "keyword_argument":
            key, value = child.child_by_field_name("name"), child.child_by_field_name("value")
            slot = node_text(key, source) if key is not None else "?"
        elif child.type in ("list_splat", "dictionary_splat", "comment"):
            continue
        else:
            slot, value = str(position), child
            position += 1
        if value is not None and value.type in ("identifier", "attribute"):
            text = summarize(value, source)
            if _names_definition(text, defined):
                rows.append((last, callee, slot, text, value))
    return rows


def _names_definition(text: str, defined: frozenset) -> bool:
    """Whether an argument may carry one of this file's definitions (``f``, ``self.m``, ``C.m``)."""
    root, _, rest = text.partition(".")
    return root in defined or (root in _SELF and rest.rsplit(".", 1)[-1] in defined)
