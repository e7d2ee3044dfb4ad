"""What the type and value pass reads: one file's facts indexed for lookup (``FileFacts``), the place
an expression is evaluated at (``Ctx``), a call's receiver normalised to a value expression, and
the vocabulary of kinds and values the pass tells apart (see ``maguyva.index.infer``)."""

from __future__ import annotations

import builtins
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from maguyva.models import Reference

FUNCTION_KINDS = frozenset({"function", "method"})
CLASS_KINDS = frozenset({"class", "interface", "struct"})
VALUE_KINDS = frozenset({"variable", "constant", "field"})
BUILTINS = frozenset(dir(builtins))
EXTERNAL = ("ext", "")
_NAMES = re.compile(r"[^\W\d]\w*")
_CALL_ARGS = re.compile(r"\([^()]*\)")
_SUBSCRIPT = re.compile(r"(?<=[\w)\]])\[([^\[\]]*)\]")  # not a list literal: [f, g][0]
_STRING = re.compile(r"""^[rRbBuUfF]*(?:'[^']*'|"[^"]*")""")


@dataclass
class FileFacts:
    """One file's facts, indexed for lookup."""

    binds: dict = field(default_factory=dict)  # (scope, name) → [(line, value, annotation)]
    attr_binds: dict = field(default_factory=dict)  # attribute → [(scope, base text, value)]
    params: dict = field(default_factory=dict)  # scope → {name: (slot, default, annotation)}
    returns: dict = field(default_factory=dict)  # scope → [value]
    yields: dict = field(default_factory=dict)  # scope → [value] (a generator's items)
    return_types: dict = field(default_factory=dict)  # scope → annotation
    decorates: dict = field(default_factory=dict)  # (scope, name) → [(slot, decorator)]
    args: dict = field(default_factory=dict)  # callee's last name → [(scope, callee, slot, value)]
    values: list = field(default_factory=list)  # every value text (assigned, passed, returned, defaulted)
    _value_names: set | None = None
    indirect: list | None = None  # call sites whose callee is no top-level definition's name

    @classmethod
    def of(cls, facts: list[Reference]) -> FileFacts:
        found = cls()
        for fact in facts:
            kind = fact.kind
            if kind == "bind" or (kind == "param" and "." in fact.name):  # TS: constructor(private x)
                if "." in fact.name:
                    base, _, attr = fact.name.rpartition(".")
                    found.attr_binds.setdefault(attr, []).append((fact.scope, base, fact.qualifier))
                else:
                    found.binds.setdefault((fact.scope, fact.name), []).append(
                        (fact.line, fact.qualifier, fact.alias)
                    )
            elif kind == "param":
                if fact.name == "return" and not fact.module:
                    found.return_types[fact.scope] = fact.alias
                else:
                    found.params.setdefault(fact.scope, {})[fact.name] = (
                        fact.module,
                        fact.qualifier,
                        fact.alias,
                    )
            elif kind == "return":
                (found.yields if fact.module == "yield" else found.returns).setdefault(fact.scope, []).append(
                    fact.qualifier
                )
            elif kind == "decorate":
                found.decorates.setdefault((fact.scope, fact.name), []).append(
                    (int(fact.module or 0), fact.qualifier)
                )
            elif kind == "arg":
                found.args.setdefault(fact.name, []).append(
                    (fact.scope, fact.qualifier, fact.module, fact.alias)
                )
            value = fact.alias if kind == "arg" else fact.qualifier
            if value:
                found.values.append(value)
        return found

    @property
    def value_names(self) -> set:
        """Every name used as a value in the file (computed on first use)."""
        if self._value_names is None:
            self._value_names = set(_NAMES.findall(" ".join(self.values)))
        return self._value_names


@dataclass
class Ctx:
    home: str  # the file whose reference is being resolved
    path: str  # the file the expression is written in
    scope: str | None
    line: int = 0


@lru_cache(maxsize=65536)
def normalize(text: str) -> str:
    """A call's receiver as written (``foo(a, b).bar``, ``d["k"]``, ``'{}'``) → a value expression
    (pure, cached: the same receivers recur; the stdlib's 225k calls have ~12.5k distinct ones)."""
    if not text:
        return ""
    if _STRING.match(text):
        rest = _STRING.sub("", text, count=1)
        text = "'str" + rest if not rest or rest[0] in ".[" else "?"
    previous = None
    while previous != text:
        previous = text
        text = _CALL_ARGS.sub("()", text)
    text = _SUBSCRIPT.sub(lambda m: "[" + _subscript_key(m.group(1)) + "]", text)
    text = text.replace("?.", ".").replace("!.", ".")
    return text


def _subscript_key(text: str) -> str:
    text = text.strip()
    if text.isdigit():
        return text
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"" and re.fullmatch(r"\w+", text[1:-1]):
        return "'" + text[1:-1]
    return "*"
