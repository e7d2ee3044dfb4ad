"""Value expressions: the compact text a language hook writes for the right-hand side of a fact.

Extraction cannot keep syntax trees, so an assignment, a default, a returned value or a call
argument is summarised as a short expression the type and value pass (``maguyva.index.infer``)
parses back. Pure. Grammar (``|`` is a union: ``a if c else b``, ``a or b``)::

    expr    := postfix ("|" postfix)*
    postfix := atom ( "." NAME | "()" | "[" key "]" )*
    atom    := NAME | "'" TYPE | "?" | "[" items "]"
    items   := (item ("," item)*)?        item := (key ":")? expr
    key     := "*" | "'" TEXT | DIGITS

``'str`` is a literal of a builtin type (its methods are never repository code), ``?`` is a value
the summary does not follow, ``[…]`` is a container (list, tuple, set or dict; keys kept when
literal). ``C()`` is a call, so ``x = C()`` binds an instance and ``f = g`` binds the function.
"""

from __future__ import annotations

import re
from functools import lru_cache

MAX_TEXT = 240
UNKNOWN = "?"


# Nodes are plain tuples (hashed in C: the value pass memoises on them), tagged by their first item.
NAME, LITERAL, UNKNOWN_NODE, ATTR, CALL, INDEX, CONTAINER, UNION = (
    "name",
    "lit",
    "unknown",
    "attr",
    "call",
    "index",
    "cont",
    "union",
)


_INTERNED: dict[tuple, tuple] = {}  # equal nodes are one object: the value pass memoises on identity


def _intern(node: tuple) -> tuple:
    return _INTERNED.setdefault(node, node)


def Name(name: str) -> tuple:
    return _intern((NAME, name))


def Literal(type_: str) -> tuple:
    return _intern((LITERAL, type_))  # str, int, list, dict, … : a builtin value


def Unknown() -> tuple:
    return _intern((UNKNOWN_NODE,))


def Attr(base: tuple, name: str) -> tuple:
    return _intern((ATTR, base, name))


def Call(callee: tuple) -> tuple:
    return _intern((CALL, callee))


def Index(base: tuple, key: str) -> tuple:
    return _intern((INDEX, base, key))  # key "*" when not a literal


def Container(items: tuple) -> tuple:
    return _intern((CONTAINER, items))  # ((key or "", expr), …)


def Union(options: tuple) -> tuple:
    return _intern((UNION, options))


_TOKEN = re.compile(
    r"\s*(?:(?P<name>[^\W\d]\w*)|(?P<lit>'[^\s,\]\[|:().]*)|(?P<num>\d+)|(?P<op>\(\)|[.\[\],:|?*]))"
)


@lru_cache(maxsize=65536)
def parse(text: str) -> object:
    """The expression tree of ``text``; ``Unknown()`` for anything malformed."""
    if not text or len(text) > 2 * MAX_TEXT:  # summaries and receivers are capped; a longer text is not one
        return Unknown()
    tokens = _tokens(text)
    if tokens is None:
        return Unknown()
    parser = _Parser(tokens)
    try:
        expr = parser.expr()
    except (IndexError, ValueError):
        return Unknown()
    return expr if parser.at_end() else Unknown()


def _tokens(text: str) -> list[tuple[str, str]] | None:
    found, position = [], 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None:
            return None
        position = match.end()
        kind = match.lastgroup
        found.append((kind, match.group(kind)))
        if position < len(text) and not text[position:].strip():
            break
    return found


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]):
        self.tokens = tokens
        self.at = 0

    def at_end(self) -> bool:
        return self.at >= len(self.tokens)

    def peek(self) -> str | None:
        return self.tokens[self.at][1] if self.at < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def expr(self) -> object:
        options = [self.postfix()]
        while self.peek() == "|":
            self.take()
            options.append(self.postfix())
        return options[0] if len(options) == 1 else Union(tuple(options))

    def postfix(self) -> object:
        value = self.atom()
        while True:
            token = self.peek()
            if token == ".":
                self.take()
                kind, name = self.take()
                if kind != "name":
                    raise ValueError(name)
                value = Attr(value, name)
            elif token == "()":
                self.take()
                value = Call(value)
            elif token == "[":
                self.take()
                key = self.key()
                if self.take()[1] != "]":
                    raise ValueError("]")
                value = Index(value, key)
            else:
                return value

    def key(self) -> str:
        kind, text = self.take()
        if kind == "lit":  # a string key keeps its quote: d["1"] is not d[1]
            return text
        if kind == "num" or text == "*":
            return text
        raise ValueError(text)

    def atom(self) -> object:
        kind, text = self.take()
        if kind == "name":
            return Name(text)
        if kind == "lit":
            return Literal(text[1:])
        if text == "?":
            return Unknown()
        if text == "[":
            items = []
            while self.peek() != "]":
                key = ""
                if self.at + 1 < len(self.tokens) and self.tokens[self.at + 1][1] == ":":
                    key = self.key()
                    self.take()
                items.append((key, self.expr()))
                if self.peek() == ",":
                    self.take()
            self.take()
            return Container(tuple(items))
        raise ValueError(text)


def join(parts: list[str]) -> str:
    """A container of already summarised items (``key:expr`` or ``expr``)."""
    return "[" + ",".join(parts) + "]"


def capped(text: str) -> str:
    """``text``, or ``?`` when it is too long to be worth storing."""
    return text if len(text) <= MAX_TEXT else UNKNOWN
