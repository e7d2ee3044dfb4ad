"""The one YAML reader of both packages: capped, checked, and every refusal located.

A cloned repository writes the YAML we read (registries, SKILL.md frontmatter, ``orkestra.yaml``,
ground truths, Maguyva's config section), so a document is refused, with the line, column and field
where it went wrong, when it is too large, nested too deep, an alias bomb, a recursive alias, holds a
duplicate key, or a scalar its tag cannot hold: ``!!int abc``, ``!!bool maybe``, ``!!float abc``,
``!!timestamp bad``, ``!!null x``, or a number of thousands of digits (Python refuses to convert
one over 4,300 digits, and a sexagesimal ``1:00:00:…`` costs quadratic time). Before, each of those
ended in a ``ValueError``/``KeyError``/``AttributeError`` traceback from PyYAML's constructors.

A file's text comes from ``maguyva.capped.read_text`` (a regular file only, capped before a byte is
read, UTF-8) for both, and a field's line and column from :func:`position` for both.

It lives in Maguyva, the lower package, so orkestra (``orkestra.workspace.source``) and Maguyva
(``maguyva.config_file``) share it without an import cycle; each turns :class:`YamlProblem` into
its own located error. Timestamps stay the strings written (one type for dates in the models).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import yaml
from yaml.constructor import ConstructorError

try:  # libyaml is ~10x faster; the pure-Python loader is the fallback
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover - depends on the PyYAML build
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]

MAX_NUMBER_CHARS = 100  # a number in a config or registry: far above any real one, far below int()'s limit

_STR, _MAP, _SEQ = "tag:yaml.org,2002:str", "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))


@dataclass(frozen=True, slots=True)
class Limits:
    """Caps for one kind of document (orkestra's registries allow more than Maguyva's config)."""

    max_chars: int = 16 << 20
    max_depth: int = 100
    max_nodes: int = 1_000_000


class YamlProblem(Exception):
    """A document refused: ``message``, and where (1-based ``line``/``col`` when known, ``field`` the
    dotted key path of the offending node when known, else "")."""

    def __init__(self, message: str, line: int | None = None, col: int | None = None, field: str = ""):
        super().__init__(message)
        self.message, self.line, self.col, self.field = message, line, col, field


class BadScalar(ConstructorError):
    """A scalar its (explicit or resolved) tag cannot hold."""


class _Refused(Exception):
    def __init__(self, message: str, mark: Any):
        super().__init__(message)
        self.message, self.mark = message, mark


class _Unsupported(Exception):
    """A node the direct conversion does not handle (merge keys, binary, sets, ...)."""


def _bad(node: yaml.Node, what: str) -> BadScalar:
    shown = node.value if len(node.value) <= 40 else node.value[:40] + f"… ({len(node.value):,} characters)"
    tag = node.tag.rsplit(":", 1)[-1]
    return BadScalar(None, None, f"!!{tag} {shown!r} is not {what}", node.start_mark)


def _number(loader: Any, node: yaml.Node, what: str, construct: Callable[[Any, yaml.Node], Any]) -> Any:
    """``construct``'s number for ``node``, once its text is no longer than ``MAX_NUMBER_CHARS``."""
    value = loader.construct_scalar(node)
    if not isinstance(value, str) or not value.strip("+-_"):
        raise _bad(node, what)
    if len(value) > MAX_NUMBER_CHARS:
        raise BadScalar(
            None,
            None,
            f"a number of {len(value):,} characters (the limit is {MAX_NUMBER_CHARS}); quote it if it is text",
            node.start_mark,
        )
    try:
        return construct(loader, node)
    except (ValueError, IndexError):
        raise _bad(node, what) from None


class CheckedLoader(_BaseLoader):  # type: ignore[misc, valid-type]
    """The safe loader with scalar constructors that refuse what their tag cannot hold (a
    :class:`BadScalar`, located at the node) and keep timestamps as the strings written."""

    def construct_checked_int(self, node: yaml.Node) -> int:
        return _number(self, node, "an integer", yaml.SafeLoader.construct_yaml_int)

    def construct_checked_float(self, node: yaml.Node) -> float:
        return _number(self, node, "a number", yaml.SafeLoader.construct_yaml_float)

    def construct_checked_bool(self, node: yaml.Node) -> bool:
        value = self.construct_scalar(node)
        if not isinstance(value, str) or value.lower() not in self.bool_values:
            raise _bad(node, "a boolean (true/false, yes/no, on/off)")
        return self.bool_values[value.lower()]

    def construct_checked_null(self, node: yaml.Node) -> None:
        if self.construct_scalar(node) not in _NULLS:
            raise _bad(node, "null (~, null or nothing)")
        return None

    def construct_checked_timestamp(self, node: yaml.Node) -> str:
        value = self.construct_scalar(node)
        if not isinstance(value, str) or not self.timestamp_regexp.match(value):
            raise _bad(node, "a date or timestamp (2026-01-31, 2026-01-31T12:00:00Z)")
        return value


for _tag, _constructor in (
    ("int", CheckedLoader.construct_checked_int),
    ("float", CheckedLoader.construct_checked_float),
    ("bool", CheckedLoader.construct_checked_bool),
    ("null", CheckedLoader.construct_checked_null),
    ("timestamp", CheckedLoader.construct_checked_timestamp),
):
    CheckedLoader.add_constructor(f"tag:yaml.org,2002:{_tag}", _constructor)

_SCALARS = {
    f"tag:yaml.org,2002:{t}": CheckedLoader.yaml_constructors[f"tag:yaml.org,2002:{t}"]
    for t in ("int", "float", "bool", "null", "timestamp")
}


def check_nodes(root: yaml.Node, limits: Limits = Limits()) -> None:
    """Refuse recursive aliases, nesting beyond ``max_depth``, more than ``max_nodes`` nodes once
    every alias is expanded (what the models and templates would walk), and duplicate mapping keys.

    Each distinct node is visited once (aliases share their node), so a bomb costs its size, not
    its expansion.
    """
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            children = _children(node)
            size[key] = 1 + sum(size[id(c)] for c in children)
            depth[key] = 1 + max((depth[id(c)] for c in children), default=0)
            if depth[key] > limits.max_depth:
                raise _Refused(
                    f"YAML nested more than {limits.max_depth} levels deep; refusing", node.start_mark
                )
            if size[key] > limits.max_nodes:
                raise _Refused(
                    f"YAML aliases expand to more than {limits.max_nodes:,} nodes (an alias bomb?); refusing",
                    node.start_mark,
                )
            continue
        if key in size:
            continue
        if key in on_path:
            raise _Refused("recursive YAML alias (a node that contains itself); refusing", node.start_mark)
        if isinstance(node, yaml.MappingNode):
            _check_duplicates(node)
        on_path.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in _children(node) if id(child) not in size)
        if len(on_path) > limits.max_depth:
            raise _Refused(f"YAML nested more than {limits.max_depth} levels deep; refusing", node.start_mark)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return node.value
    return []


def _check_duplicates(node: yaml.MappingNode) -> None:
    seen: dict[tuple[str, str], Any] = {}
    for key_node, _ in node.value:
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
            continue
        ident = (key_node.tag, key_node.value)
        if ident in seen:
            first = seen[ident]
            raise _Refused(
                f"duplicate key {key_node.value!r} (first defined on line {first.line + 1}); "
                "a second definition would silently replace the first",
                key_node.start_mark,
            )
        seen[ident] = key_node.start_mark


def _to_python(node: yaml.Node, loader: Any, memo: dict[int, Any], max_depth: int, depth: int = 0) -> Any:
    """Nodes → plain Python; an aliased node is converted once and shared (the bomb stays small).

    Without anchors in the text this is the only pass, so it also refuses duplicate keys and
    nesting beyond ``max_depth`` itself (documents with anchors went through ``check_nodes`` first).
    """
    tag = node.tag
    if tag == _STR:
        return node.value
    key = id(node)
    if key in memo:
        return memo[key]
    if depth > max_depth:
        raise _Refused(f"YAML nested more than {max_depth} levels deep; refusing", node.start_mark)
    if tag == _MAP:
        value: Any = {}
        memo[key] = value
        for k, v in node.value:
            name = _to_python(k, loader, memo, max_depth, depth + 1)
            if name in value:
                _check_duplicates(node)  # raises, located at the second key
            value[name] = _to_python(v, loader, memo, max_depth, depth + 1)
        return value
    if tag == _SEQ:
        items: list = []
        memo[key] = items
        items.extend(_to_python(v, loader, memo, max_depth, depth + 1) for v in node.value)
        return items
    construct = _SCALARS.get(tag)
    if construct is None:
        raise _Unsupported(tag)
    memo[key] = construct(loader, node)
    return memo[key]


def load(text: str, limits: Limits = Limits()) -> tuple[Any, yaml.Node | None]:
    """``(data, root node)`` of one YAML document, or :class:`YamlProblem` saying where it went wrong.

    Converts libyaml's composed nodes directly (about 1.5× faster than PyYAML's generic constructor);
    anything unusual (merge keys, sets, binary) goes through the checked loader's own constructor,
    after the same checks. Documents over ``max_chars`` are refused unread.
    """
    if len(text) > limits.max_chars:
        raise YamlProblem(
            f"YAML document too large ({len(text):,} characters; the limit is {limits.max_chars:,})"
        )
    loader = CheckedLoader(text)
    node = None
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None
        if "&" in text:  # anchors, so maybe aliases: check the shared graph before expanding anything
            check_nodes(node, limits)
        try:
            return _to_python(node, loader, {}, limits.max_depth), node
        except (_Unsupported, TypeError):
            check_nodes(node, limits)
            return loader.construct_document(node), node
    except _Refused as exc:
        raise _problem(exc.message, exc.mark, node) from None
    except RecursionError:
        raise YamlProblem("YAML nested too deeply; refusing", 1, 1) from None
    except BadScalar as exc:
        raise _problem(exc.problem, exc.problem_mark, node) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise _problem(
            f"YAML syntax error: {exc.problem or exc.context or 'invalid YAML'}", mark, None
        ) from None
    except yaml.YAMLError as exc:
        raise YamlProblem(f"YAML error: {exc}", 1, 1) from None
    finally:
        loader.dispose()


def _problem(message: str, mark: Any, root: yaml.Node | None) -> YamlProblem:
    if mark is None:
        return YamlProblem(message, 1, 1)
    return YamlProblem(
        message, mark.line + 1, mark.column + 1, field_at(root, mark) if root is not None else ""
    )


def field_at(root: yaml.Node, mark: Any) -> str:
    """The dotted key path (``agents.0.model``) of the node starting at ``mark`` below ``root``, or ""."""
    target = (mark.line, mark.column)
    stack: list[tuple[yaml.Node, tuple]] = [(root, ())]
    seen: set[int] = set()
    while stack:
        node, path = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if (node.start_mark.line, node.start_mark.column) == target and not isinstance(
            node, (yaml.MappingNode, yaml.SequenceNode)
        ):
            return ".".join(map(str, path))
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in reversed(node.value):  # popped in document order
                name = key_node.value if isinstance(key_node, yaml.ScalarNode) else "?"
                stack.append((value_node, (*path, name)))
                stack.append((key_node, (*path, name)))  # a bad or repeated key is named by itself
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((child, (*path, index)) for index, child in reversed(list(enumerate(node.value))))
    return ""


def position(root: yaml.Node | None, loc: Iterable[Any]) -> tuple[int, int] | None:
    """1-based (line, column) of the deepest node on the field path ``loc`` (``("agents", 0, "model")``)
    that exists below ``root``: a mapping entry by its key, a sequence item by itself (so a missing
    key points at its parent, where it must be added); None without a document."""
    if root is None:
        return None
    node, mark = root, root.start_mark
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            match = next(
                ((k, v) for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == str(part)),
                None,
            )
            if match is None:
                break
            mark, node = match[0].start_mark, match[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
            node = node.value[part]
            mark = node.start_mark
        else:
            break
    return mark.line + 1, mark.column + 1
