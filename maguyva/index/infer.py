"""The type and value pass: what a name, attribute or call evaluates to, from a file's facts. Pure.

Flow-insensitive points-to over the facts a language hook extracted (``maguyva.models.FACT_KINDS``;
value grammar in ``maguyva.index.values``), with no execution:

* assignments (tuple unpacking, ``for`` targets, ``with … as``), ``self.attr`` in any method and
  ``Cls.attr = value`` anywhere in the class's file;
* a call of a class gives an instance; a call of a function gives what it returns (its return
  annotation, then its ``return`` values); parameter and variable annotations give instances;
* attributes through modules (imports), classes and instances, members found along the C3 MRO;
* decorators that return their argument (or a ``functools.wraps`` wrapper) keep the function, a
  decorator returning another function gives that function;
* parameter values: defaults, annotations, ``self``/``cls``, and the arguments of same-file calls.

Parameters and locals shadow module names. Facts of another file are read only when the home
file imports it directly, so an incremental re-index that re-resolves a changed file's importers
equals a clean one. Values: ``("def", Symbol)`` a function or class, ``("inst", Symbol)`` an
instance, ``("mod", path)``, ``("ext", name)`` a builtin or external value, ``("cont", items,
path, scope)`` a container literal.

``Inference`` is this module's expressions, names and attributes, plus ``infer_calls.CallValues``
(decorators, calls, returns, iteration, parameters); what it reads is ``maguyva.index.facts``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from maguyva.index import values as V
from maguyva.index.facts import BUILTINS, CLASS_KINDS, EXTERNAL, FUNCTION_KINDS, VALUE_KINDS, Ctx, FileFacts
from maguyva.index.infer_calls import CallValues

if TYPE_CHECKING:
    from maguyva.models import Symbol

MAX_DEPTH = 12
MAX_STACK = 48  # evaluations in progress at once (keeps far below Python's recursion limit)
MAX_VALUES = 16
_LITERAL_TYPES = frozenset({"str", "bytes", "int", "float", "bool", "list", "dict", "set", "builtin"})


class Inference(CallValues):
    """Evaluates expressions for one resolver (``maguyva.index.resolve.Resolver``): its import
    bindings, local definitions and class bases are the symbol tables."""

    def __init__(self, resolver):
        self.r = resolver
        self._facts: dict[str, FileFacts] = {}
        self._active: set = set()
        self._home: str | None = None
        self._memo: dict = {}
        self._imported: dict[str, set[str]] = {}
        self._mro: dict[str, list[Symbol]] = {}
        self.inferred = False  # set when the last evaluation leaned on a heuristic

    # ---- facts ----
    def facts(self, path: str) -> FileFacts:
        found = self._facts.get(path)
        if found is None:
            found = self._facts[path] = FileFacts.of(self.r.facts(path))
        return found

    def readable(self, ctx: Ctx, path: str) -> bool:
        """Facts of ``path`` may be read for ``ctx.home``: the same file or one it imports directly."""
        if path == ctx.home:
            return True
        imported = self._imported.get(ctx.home)
        if imported is None:
            imported = self._imported[ctx.home] = {t.path for t in self.r.bindings(ctx.home).values()}
        return path in imported

    # ---- expressions ----
    def evaluate_text(self, text: str, ctx: Ctx) -> frozenset:
        return self.evaluate(V.parse(text), ctx, 0)

    def evaluate(self, expr, ctx: Ctx, depth: int) -> frozenset:
        """What ``expr`` may evaluate to at ``ctx`` (empty: not known). Memoised per home file, so a
        file's edges depend on the order of its own references only (incremental = clean)."""
        if ctx.home != self._home:
            self._home, self._memo = ctx.home, {}
        # keyed by identity: nested tuples re-hash on every lookup; the memo keeps ``expr`` alive,
        # so its id cannot be reused while the entry exists
        key = (id(expr), ctx.path, ctx.scope, ctx.line)
        hit = self._memo.get(key)
        if hit is not None:
            return hit[1]
        if depth > MAX_DEPTH or key in self._active or len(self._active) > MAX_STACK:
            return frozenset()  # a cycle, or a chain (x2 = x1; x3 = x2; …) deeper than worth following
        self._active.add(key)
        try:
            found = self._evaluate(expr, ctx, depth)
        finally:
            self._active.discard(key)
        found = (
            frozenset(sorted(found, key=repr)[:MAX_VALUES]) if len(found) > MAX_VALUES else frozenset(found)
        )
        self._memo[key] = (
            expr,
            found,
        )  # even one a cycle guard cut short: the home's reference order decides
        return found

    def _evaluate(self, expr, ctx: Ctx, depth: int) -> set:
        tag = expr[0]
        if tag == V.NAME:
            return self.lookup(expr[1], ctx, depth)
        if tag == V.ATTR:
            dotted = _dotted(expr)
            if dotted is not None:  # ``import a.b`` binds the text ``a.b``
                target = self.r.bindings(ctx.path).get(dotted)
                if target is not None:
                    return {self._target_value(target)}
            found = set()
            for base in self.evaluate(expr[1], ctx, depth + 1):
                found |= self.attribute(base, expr[2], ctx, depth + 1)
            return found
        if tag == V.CALL:
            found = set()
            for callee in self.evaluate(expr[1], ctx, depth + 1):
                found |= self.call_result(callee, ctx, depth + 1)
            return found
        if tag == V.INDEX:
            key = expr[2]
            found = set()
            for base in self.evaluate(expr[1], ctx, depth + 1):
                if base[0] == "cont":
                    items = [e for k, e in base[1] if key in ("*", k) or not k] or [e for _, e in base[1]]
                    if key.isdigit() and all(not k for k, _ in base[1]) and int(key) < len(base[1]):
                        items = [base[1][int(key)][1]]
                    inner = Ctx(ctx.home, base[2], base[3], 0)
                    for item in items:
                        found |= self.evaluate(item, inner, depth + 1)
                elif base[0] in ("ext", "lit"):
                    found.add(EXTERNAL)
                elif base[0] == "gen" and key == "*":
                    found |= self.generated(base[1], ctx, depth + 1)
                elif base[0] == "inst" and key == "*":  # iteration: __iter__() then its __next__()
                    found |= self.iterated(base[1], ctx, depth + 1)
            return found
        if tag == V.CONTAINER:
            return {("cont", expr[1], ctx.path, ctx.scope)}
        if tag == V.LITERAL:
            return {("ext", expr[1])}
        if tag == V.UNION:
            found = set()
            for option in expr[1]:
                found |= self.evaluate(option, ctx, depth + 1)
            return found
        return set()

    # ---- names ----
    def local_binding(self, name: str, ctx: Ctx) -> bool:
        """Whether a parameter or local of a function around ``ctx`` binds ``name`` (so it shadows
        module names even when its value is not known)."""
        facts = self.facts(ctx.path)
        for scope in self.r.scope_chain(ctx.path, ctx.scope):
            if scope is None:
                return False
            if (scope, name) in facts.binds or name in facts.params.get(scope, ()):
                return True
        return False

    def lookup(self, name: str, ctx: Ctx, depth: int) -> set:
        """What ``name`` means at ``ctx``: locals and parameters (innermost scope first; class bodies
        only for code directly in them), then the file's top level, imports and builtins."""
        facts = self.facts(ctx.path) if self.readable(ctx, ctx.path) else FileFacts()
        for scope in self.r.scope_chain(ctx.path, ctx.scope):
            if scope is not None and scope != ctx.scope and self.r.is_class(ctx.path, scope):
                continue
            found, bound = self._in_scope(name, scope, facts, ctx, depth)
            if bound and (found or scope is not None or name not in self.r.bindings(ctx.path)):
                return found  # (a top-level ``const x = require(…)`` is the import's binding)
        target = self.r.bindings(ctx.path).get(name)
        if target is not None:
            return {self._target_value(target)}
        if name in self.r.external_names(ctx.path):
            return {("ext", name)}
        for module in self.r.star_modules(ctx.path):
            symbol = self.r.exported(module, name)
            if symbol is not None:
                return self._symbol_value(symbol, ctx, depth)
        if name == "this":  # JavaScript/TypeScript: an instance of the enclosing class
            for scope in self.r.scope_chain(ctx.path, ctx.scope):
                if scope is not None and self.r.is_class(ctx.path, scope):
                    return {("inst", self.r.symbol(scope, ctx.path))}
            return set()
        if name in BUILTINS and name not in ("self", "cls"):
            return {("ext", name)}
        return set()

    def _in_scope(self, name: str, scope, facts: FileFacts, ctx: Ctx, depth: int) -> tuple[set, bool]:
        found: set = set()
        bound = False
        for symbol in self.r.local(ctx.path, scope, name):
            if symbol.kind in VALUE_KINDS:
                if self.r.has_members(symbol):  # an object literal's methods (JavaScript)
                    bound = True
                    found.add(("obj", symbol))
                continue
            bound = True
            found |= self.decorated(symbol, scope, ctx, depth)
        binds = facts.binds.get((scope, name))
        if binds:
            bound = True
            if scope == ctx.scope and ctx.line:
                before = [b for b in binds if b[0] <= ctx.line]
                if before:
                    last = max(b[0] for b in before)
                    binds = [b for b in before if b[0] == last]
            inner = Ctx(ctx.home, ctx.path, scope, 0)
            for _, value, annotation in binds:
                typed = self.annotated(annotation, inner, depth) if annotation else None
                found |= typed or (self.evaluate_text(value, inner) if value != "?" else set())
        params = facts.params.get(scope)
        if params and name in params:
            bound = True
            found |= self.parameter(scope, name, params[name], ctx, depth)
        elif name in ("self", "cls") and scope is not None and not found:  # implied: the method's class
            method = self.r.symbol(scope, ctx.path)
            owner = (
                self.r.symbol(method.parent, ctx.path)
                if method is not None and method.kind == "method" and method.parent
                else None
            )
            if owner is not None and owner.kind in CLASS_KINDS:
                return ({("inst", owner)} if name == "self" else {("def", owner)}), True
        return found, bound

    def _target_value(self, target) -> tuple:
        if target.symbol is None:
            return ("mod", target.path)
        symbol = target.symbol
        if symbol.kind in CLASS_KINDS or symbol.kind in FUNCTION_KINDS:
            return ("def", symbol)
        return ("var", symbol)

    def _symbol_value(self, symbol: Symbol, ctx: Ctx, depth: int) -> set:
        if symbol.kind in VALUE_KINDS:
            return self.variable(symbol, ctx, depth)
        return {("def", symbol)}

    def variable(self, symbol: Symbol, ctx: Ctx, depth: int) -> set:
        """A module- or class-level variable: the values assigned to it (facts permitting)."""
        if not self.readable(ctx, symbol.path):
            return set()
        facts = self.facts(symbol.path)
        found = set()
        inner = Ctx(ctx.home, symbol.path, symbol.parent, 0)
        for _, value, annotation in facts.binds.get((symbol.parent, symbol.name), ()):
            typed = self.annotated(annotation, inner, depth) if annotation else None
            found |= typed or (self.evaluate_text(value, inner) if value != "?" else set())
        return found

    def resolve_var(self, found: set, ctx: Ctx, depth: int) -> set:
        """Replace ``("var", symbol)`` values (an imported variable) by what they hold."""
        for value in found:
            if value[0] == "var":
                break
        else:
            return found
        out = set()
        for value in found:
            out |= (
                self.variable(value[1], ctx, depth + 1) or {("obj", value[1])}
                if value[0] == "var"
                else {value}
            )
        return out

    # ---- attributes ----
    def attribute(self, base, name: str, ctx: Ctx, depth: int) -> set:
        kind = base[0]
        if kind == "mod":
            path = base[1]
            symbol = self.r.exported(path, name)
            if symbol is not None:
                return self._symbol_value(symbol, ctx, depth) or (
                    {("var", symbol)} if symbol.kind in VALUE_KINDS else set()
                )
            if self.readable(ctx, path):
                return self.lookup(name, Ctx(ctx.home, path, None, 0), depth + 1) - {("ext", name)}
            return set()
        if kind == "def" and base[1].kind in CLASS_KINDS:
            return self.class_attribute(base[1], name, ctx, depth, instance=False)
        if kind == "inst":
            return self.class_attribute(base[1], name, ctx, depth, instance=True)
        if kind in ("var", "obj"):
            symbol = base[1]
            if kind == "var":
                held = self.variable(symbol, ctx, depth)
                if held:
                    found = set()
                    for value in held:
                        found |= self.attribute(value, name, ctx, depth + 1)
                    return found
            members = [s for s in self.r.local(symbol.path, symbol.qualified_name, name)]
            return {("def", s) for s in members if s.kind not in VALUE_KINDS}
        if kind == "ext" and base[1] in _LITERAL_TYPES:
            return {("ext", "~" + base[1])}
        if kind == "cont":
            return {("ext", "~cont")}
        if kind == "ext":
            return {EXTERNAL}
        return set()

    def class_attribute(self, cls: Symbol, name: str, ctx: Ctx, depth: int, *, instance: bool) -> set:
        for owner in self.mro(cls):
            members = self.r.local(owner.path, owner.qualified_name, name)
            if any(s.kind not in VALUE_KINDS for s in members):  # a callable member
                found = set()
                for member in members:
                    if member.kind not in VALUE_KINDS:
                        found |= self.decorated(member, owner.qualified_name, ctx, depth)
                return found
            found = set()
            if self.readable(ctx, owner.path):
                facts = self.facts(owner.path)
                for scope, base, value in facts.attr_binds.get(name, ()):
                    method = self.r.symbol(scope, owner.path) if scope else None
                    if (
                        base in ("self", "this")
                        and instance
                        and method is not None
                        and method.parent == owner.qualified_name
                    ) or base == owner.name:
                        found |= self.evaluate_text(value, Ctx(ctx.home, owner.path, scope, 0))
                for member in members:
                    found |= self.variable(member, ctx, depth)
            if found:
                return found
            if members:
                return set()
        return set()

    def member(self, cls: Symbol, name: str) -> Symbol | None:
        for owner in self.mro(cls):
            for symbol in self.r.local(owner.path, owner.qualified_name, name):
                if symbol.kind in FUNCTION_KINDS:
                    return symbol
        return None

    def mro(self, cls: Symbol) -> list[Symbol]:
        """C3 linearisation over in-repository bases (depth-first when C3 fails)."""
        key = f"{cls.path}\0{cls.qualified_name}"
        if key in self._mro:
            return self._mro[key]
        self._mro[key] = [cls]  # cycle guard
        direct = self.r.direct_bases(cls)
        lists = [self.mro(base) for base in direct] + [list(direct)]
        result = [cls]
        lists = [list(items) for items in lists if items]
        while lists:
            for items in lists:
                head = items[0]
                if not any(head in other[1:] for other in lists):
                    break
            else:
                result += [b for b in self.r.all_bases(cls) if b not in result]
                break
            result.append(head)
            lists = [[b for b in items if b != head] for items in lists]
            lists = [items for items in lists if items]
        self._mro[key] = result
        return result


def _dotted(expr) -> str | None:
    parts = []
    while expr[0] == V.ATTR:
        parts.append(expr[2])
        expr = expr[1]
    if expr[0] != V.NAME:
        return None
    return ".".join([expr[1], *reversed(parts)])
