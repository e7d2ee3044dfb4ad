"""What calling a value gives, the part of ``maguyva.index.infer.Inference`` that reads definitions:
a function or class as its decorators leave it, a call's result (an instance, what a function
returns or its annotation says, an external value), a generator's items, iteration through
``__iter__``/``__next__``, and a parameter's values (defaults, annotations, ``self``/``cls``, the
arguments of same-file calls). A mixin: ``Inference`` holds the memo and the evaluation."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from maguyva.index import values as V
from maguyva.index.facts import BUILTINS, CLASS_KINDS, EXTERNAL, FUNCTION_KINDS, VALUE_KINDS, Ctx, FileFacts

if TYPE_CHECKING:
    from maguyva.models import Symbol

MAX_ARG_SITES = 64
_ANNOTATION_NAME = re.compile(r"[A-Za-z_][\w.]*")
_ANNOTATION_SKIP = frozenset(
    {
        "Optional",
        "Union",
        "None",
        "typing.Optional",
        "typing.Union",
        "Final",
        "ClassVar",
        "Annotated",
        "type",
        "Type",
        "typing.Type",
    }
)


class CallValues:
    """The definitions half of ``Inference`` (its memo and caches are set up by ``Inference.__init__``)."""

    r: object  # the resolver: its bindings, local definitions and class bases are the symbol tables
    _home: str | None
    _memo: dict
    _active: set
    inferred: bool

    def decorated(self, symbol: Symbol, scope, ctx: Ctx, depth: int) -> set:
        """A function or class as its decorators leave it."""
        facts = self.facts(symbol.path) if self.readable(ctx, symbol.path) else FileFacts()
        decorators = facts.decorates.get((scope, symbol.name))
        current = {("def", symbol)}
        if not decorators or symbol.kind not in FUNCTION_KINDS:
            return current
        inner = Ctx(ctx.home, symbol.path, scope, 0)
        for _, text in sorted(decorators, reverse=True):  # the innermost decorator applies first
            result = set()
            for decorator in self.evaluate_text(text, inner):
                result |= self.apply_decorator(decorator, current, ctx, depth + 1)
            current = result or current
        return current

    def apply_decorator(self, decorator, current: set, ctx: Ctx, depth: int) -> set:
        if decorator[0] != "def" or decorator[1].kind not in FUNCTION_KINDS:
            return current  # external decorators (property, lru_cache, …) keep the function
        function = decorator[1]
        if not self.readable(ctx, function.path):
            return current
        facts = self.facts(function.path)
        params = facts.params.get(function.qualified_name, {})
        first = next((n for n, (slot, _, _) in params.items() if slot == "0"), None)
        found = set()
        for text in facts.returns.get(function.qualified_name, ()):
            if text == first:
                found |= current
                continue
            for value in self.evaluate_text(text, Ctx(ctx.home, function.path, function.qualified_name, 0)):
                if value[0] == "def" and self._wraps(value[1]):
                    found |= current
                elif value[0] == "def":
                    found.add(value)
        return found or current

    def _wraps(self, symbol: Symbol) -> bool:
        facts = self.facts(symbol.path)
        return any(
            text.split("(")[0].rsplit(".", 1)[-1] == "wraps"
            for _, text in facts.decorates.get((symbol.parent, symbol.name), ())
        )

    def call_result(self, callee, ctx: Ctx, depth: int) -> set:
        kind = callee[0]
        if kind == "def":
            symbol = callee[1]
            if symbol.kind in CLASS_KINDS:
                return {("inst", symbol)}
            if symbol.kind in FUNCTION_KINDS:
                return self.returns(symbol, ctx, depth)
            return set()
        if kind == "inst":
            call = self.member(callee[1], "__call__")
            return self.returns(call, ctx, depth) if call is not None else set()
        if kind == "ext":
            name = callee[1]
            if name == "~cont" or name in BUILTINS:
                return set()  # a container's get(), sorted(…), list(…): may hold repository objects
            if name.startswith("~"):  # a method of a str, int, … literal
                return {("ext", "builtin")}
            return {EXTERNAL}  # what an outside module's function returns is outside code too
        return set()

    def generated(self, function: Symbol, ctx: Ctx, depth: int) -> set:
        """The items a generator function yields."""
        found = set()
        inner = Ctx(ctx.home, function.path, function.qualified_name, 0)
        for text in self.facts(function.path).yields.get(function.qualified_name, ()):
            found |= self.evaluate_text(text, inner)
        return found

    def iterators(self, cls: Symbol, ctx: Ctx, depth: int) -> list[Symbol]:
        """``__iter__`` of ``cls`` and the ``__next__`` of what it returns (methods of the repository)."""
        methods = []
        start = self.member(cls, "__iter__")
        if start is not None:
            methods.append(start)
            for value in self.returns(start, ctx, depth + 1):
                if value[0] == "inst":
                    step = self.member(value[1], "__next__")
                    if step is not None and step not in methods:
                        methods.append(step)
        return methods

    def iterated(self, cls: Symbol, ctx: Ctx, depth: int) -> set:
        found = set()
        for method in self.iterators(cls, ctx, depth):
            if method.name == "__next__":
                found |= self.returns(method, ctx, depth + 1)
        return found

    def returns(self, function: Symbol, ctx: Ctx, depth: int) -> set:
        if not self.readable(ctx, function.path):
            return set()
        facts = self.facts(function.path)
        if function.qualified_name in facts.yields:
            return {("gen", function)}
        inner = Ctx(ctx.home, function.path, function.qualified_name, 0)
        annotation = facts.return_types.get(function.qualified_name)
        if annotation:
            found = self.annotated(annotation, inner, depth)
            if found:
                return found
        found = set()
        for text in facts.returns.get(function.qualified_name, ()):
            found |= self.evaluate_text(text, inner)
        return found

    def annotated(self, annotation: str, ctx: Ctx, depth: int) -> set:
        """Instances of the repository classes an annotation names (``Optional[A]``, ``"A"``, ``A | None``)."""
        found = set()
        for name in _ANNOTATION_NAME.findall(annotation.strip("'\"")):
            if name in _ANNOTATION_SKIP:
                continue
            for value in self.evaluate(V.parse(name), ctx, depth + 1):
                if value[0] == "def" and value[1].kind in CLASS_KINDS:
                    found.add(("inst", value[1]))
                elif value[0] == "def" and value[1].kind in FUNCTION_KINDS:
                    found.add(value)
            if found:
                break
        return found

    def parameter(self, scope: str, name: str, param: tuple, ctx: Ctx, depth: int) -> set:
        if ctx.home != self._home:
            self._home, self._memo = ctx.home, {}
        key = ("param", ctx.path, scope, name)
        found = self._memo.get(key)
        if found is None:
            if key in self._active:
                return set()
            self._active.add(key)
            try:
                found = self._parameter(scope, name, param, ctx, depth)
            finally:
                self._active.discard(key)
            self._memo[key] = found
        if found[1]:
            self.inferred = True
        return set(found[0])

    def _parameter(self, scope: str, name: str, param: tuple, ctx: Ctx, depth: int) -> tuple[frozenset, bool]:
        slot, default, annotation = param
        path = ctx.path
        function = self.r.symbol(scope, path)
        found: set = set()
        if function is not None and slot == "0" and function.kind == "method" and name in ("self", "cls"):
            owner = self.r.symbol(function.parent, path) if function.parent else None
            if owner is not None and owner.kind in CLASS_KINDS:
                return frozenset({("inst", owner)} if name == "self" else {("def", owner)}), False
        outer = Ctx(ctx.home, path, function.parent if function is not None else None, 0)
        if default:
            found |= self.evaluate_text(default, outer)
        if annotation:
            found |= self.annotated(annotation, Ctx(ctx.home, path, scope, 0), depth)
        passed = (
            self._arguments(function, name, slot, ctx, depth)
            if function is not None and slot not in ("*", "**")
            else set()
        )
        return frozenset(found | passed), bool(passed)  # flow-insensitive arguments: inferred

    def _arguments(self, function: Symbol, name: str, slot: str, ctx: Ctx, depth: int) -> set:
        """Values passed for a parameter by calls in the same file (and decorator applications)."""
        facts = self.facts(function.path)
        found = set()
        owner = self.r.symbol(function.parent, function.path) if function.name == "__init__" else None
        named = [function.name] + ([owner.name] if owner is not None else [])
        sites = [site for n in named for site in facts.args.get(n, ())]
        if any(n in facts.value_names for n in named):  # it is passed around: calls through variables count
            if facts.indirect is None:
                facts.indirect = [
                    site
                    for n, listed in facts.args.items()
                    if not self.r.local(function.path, None, n)
                    for site in listed
                ]
            sites += [site for site in facts.indirect if site[1].rsplit(".", 1)[-1] not in named]
        for scope, callee, arg_slot, value in sites[:MAX_ARG_SITES]:
            position = arg_slot
            if (
                arg_slot.isdigit()
                and function.kind == "method"
                and ("." in callee or (owner is not None and callee.rsplit(".", 1)[-1] == owner.name))
            ):
                position = str(
                    int(arg_slot) + 1
                )  # a bound method or a constructor: the receiver is parameter 0
            if owner is not None and callee.rsplit(".", 1)[-1] == owner.name:
                site = Ctx(ctx.home, function.path, scope, 0)
                if (position == slot or arg_slot == name) and ("def", owner) in self.evaluate_text(
                    callee, site
                ):
                    found |= self.evaluate_text(value, site)
                continue
            if position != slot and arg_slot != name:
                continue
            site = Ctx(ctx.home, function.path, scope, 0)
            if ("def", function) in self.evaluate_text(callee, site):
                found |= self.evaluate_text(value, site)
        if slot == "0":
            for (scope, decorated), decorators in facts.decorates.items():
                for position, text in decorators:
                    site = Ctx(ctx.home, function.path, scope, 0)
                    if ("def", function) not in self.evaluate_text(text, site):
                        continue
                    target = [
                        s for s in self.r.local(function.path, scope, decorated) if s.kind not in VALUE_KINDS
                    ]
                    for symbol in target:
                        found |= self._decorated_until(symbol, scope, decorators, position, site, depth)
        return found

    def _decorated_until(self, symbol: Symbol, scope, decorators, position: int, ctx: Ctx, depth: int) -> set:
        current = {("def", symbol)}
        for slot, text in sorted(decorators, reverse=True):
            if slot <= position:
                break
            result = set()
            for decorator in self.evaluate_text(text, ctx):
                result |= self.apply_decorator(decorator, current, ctx, depth + 1)
            current = result or current
        return current
