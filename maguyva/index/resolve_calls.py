"""Call resolution, the part of ``maguyva.index.resolve.Resolver`` that resolves calls in Python,
JavaScript and TypeScript through the type and value pass (``maguyva.index.infer``): the callee is
what the expression evaluates to, one edge per value; a method found only on a subclass, a name
nothing binds and a receiver of unknown type are guesses (``inferred``) only when one definition
fits. A mixin: the resolver holds the caches and the ``Definitions`` view it reads."""

from __future__ import annotations

from typing import TYPE_CHECKING

from maguyva.index import values as V
from maguyva.index.edges import FAMILY, SELF_QUALIFIERS, Candidates, dirname, place, to_symbol, unresolved
from maguyva.index.extract import CLASS_LIKE
from maguyva.index.facts import CLASS_KINDS, FUNCTION_KINDS, Ctx, normalize
from maguyva.models import Reference

if TYPE_CHECKING:
    from maguyva.index.definitions import Definitions
    from maguyva.index.infer import Inference
    from maguyva.models import Edge, Symbol

# Methods of the languages' builtin types: ``x.get()`` on a receiver of unknown type is as likely a
# dict's as the one repository method named ``get``, so such names never narrow to one definition.
BUILTIN_METHODS = {
    "python": frozenset(
        name for t in (dict, list, str, bytes, set, int, float, tuple, object, frozenset) for name in dir(t)
    )
    | {
        "group",
        "groups",
        "match",
        "search",
        "sub",
        "read",
        "write",
        "close",
        "readline",
        "readlines",
        "flush",
        "seek",
        "tell",
    },
    "js": frozenset(
        {
            "get",
            "set",
            "has",
            "delete",
            "clear",
            "add",
            "push",
            "pop",
            "shift",
            "unshift",
            "slice",
            "splice",
            "map",
            "filter",
            "reduce",
            "forEach",
            "find",
            "findIndex",
            "some",
            "every",
            "includes",
            "indexOf",
            "join",
            "concat",
            "sort",
            "reverse",
            "keys",
            "values",
            "entries",
            "then",
            "catch",
            "finally",
            "toString",
            "valueOf",
            "split",
            "replace",
            "trim",
            "match",
            "startsWith",
            "endsWith",
            "toLowerCase",
            "toUpperCase",
            "call",
            "apply",
            "bind",
            "emit",
            "on",
            "off",
            "once",
            "send",
            "write",
            "end",
            "close",
            "resolve",
            "reject",
            "assign",
            "hasOwnProperty",
            "flat",
            "flatMap",
            "fill",
            "at",
            "padStart",
            "padEnd",
            "substring",
        }
    ),
}


class CallResolution:
    """The call half of ``Resolver`` (its caches are set up by ``Resolver.__init__``)."""

    defs: Definitions
    infer: Inference
    _overrides: dict[tuple, list[Symbol]]
    _families: dict[str, str | None]

    def _call_edges(self, ref: Reference) -> list[Edge]:
        infer = self.infer
        infer.inferred = False
        ctx = Ctx(ref.path, ref.path, ref.scope, ref.line)
        qualifier = ref.qualifier
        receivers: frozenset | None = None
        if not ref.name:  # the callee is itself an expression: f()(), d["k"]()
            found = set(infer.evaluate(V.parse(normalize(qualifier)), ctx, 0))
            qualifier = ""
        elif not qualifier:
            found = infer.lookup(ref.name, ctx, 0)
        else:
            found = set()
            if qualifier in SELF_QUALIFIERS and self.defs.language(ref.path) != "python":
                cls = self._enclosing_class(ref)
                receivers = frozenset({("inst", cls)}) if cls is not None else frozenset()
                if cls is None:  # ``this`` in ``res.send = function …``: the members assigned to ``res``
                    found |= {("def", member) for member in self._owner_members(ref)}
            else:
                receivers = infer.evaluate(V.parse(normalize(qualifier)), ctx, 0)
            for receiver in infer.resolve_var(set(receivers), ctx, 0):
                found |= infer.attribute(receiver, ref.name, ctx, 1)
        found = infer.resolve_var(set(found), ctx, 0)
        targets: dict[tuple[str, str], Symbol] = {}
        for value in found:
            symbol = (
                value[1]
                if value[0] == "def"
                else infer.member(value[1], "__call__")
                if value[0] == "inst"
                else None
            )
            if symbol is not None and (symbol.kind in FUNCTION_KINDS or symbol.kind in CLASS_KINDS):
                key = (symbol.path, symbol.qualified_name)
                # a name defined twice in one scope: the later definition (the one in force once the
                # module has run), whatever order the set of values comes in
                if key not in targets or place(symbol) > place(targets[key]):
                    targets[key] = symbol
        if targets:
            resolution = "inferred" if infer.inferred else "resolved"
            return [to_symbol(ref, symbol, resolution) for _, symbol in sorted(targets.items())]
        if found == {("ext", ref.name)} and not qualifier:  # a builtin such as print
            return [unresolved(ref, "external", f"no definition of {ref.name!r} in the repository")]
        if found:
            return [unresolved(ref, "external", f"{ref.name!r} is a builtin, external or non-callable value")]
        if not ref.name:
            return [unresolved(ref, "external", f"the value of {ref.qualifier!r} is not known")]
        if not qualifier:
            if infer.local_binding(ref.name, ctx) or infer.facts(ref.path).binds.get((None, ref.name)):
                return [
                    unresolved(
                        ref, "external", f"the value of {ref.name!r} (a parameter or variable) is not known"
                    )
                ]
            return [self._unbound_name(ref)]
        classes = sorted(
            (r[1] for r in receivers or () if r[0] in ("inst", "def") and r[1].kind in CLASS_LIKE), key=place
        )
        if classes:  # the member may be a subclass's (the receiver's static type is a base)
            return [self._subclass_member(ref, classes)]
        if receivers:
            return [
                unresolved(
                    ref,
                    "external",
                    f"{qualifier!r} is a builtin, external or module value without "
                    f"{ref.name!r} in the repository",
                )
            ]
        if self._names_external_module(ref):
            return [unresolved(ref, "external", f"{qualifier!r} names a module outside the repository")]
        return [self._unknown_receiver(ref)]

    def _subclass_member(self, ref: Reference, classes: list[Symbol]) -> Edge:
        """``x.m()`` where ``x`` is typed as classes without ``m``: a unique override in a subclass."""
        key = (self._family_of(ref.path), ref.name, tuple(classes))
        found = self._overrides.get(key)  # the stdlib: 17.7k such calls, 3k distinct questions
        if found is None:
            found = self._overrides[key] = [
                method
                for method in self._same_family(
                    ref, self._candidates(ref.name, frozenset({"method"}))
                ).symbols
                for owner in [self._symbol(method.parent, method.path) if method.parent else None]
                if owner is not None and any(cls in self.infer.mro(owner) for cls in classes)
            ]
        if len(found) == 1:
            return to_symbol(ref, found[0], "inferred")
        if found:
            return unresolved(ref, "ambiguous", Candidates(tuple(found)).reason())
        cls = classes[0]
        return unresolved(ref, "external", f"no member {ref.name!r} on {cls.name} or its in-repo bases")

    def _iteration_edges(self, ref: Reference) -> list[Edge]:
        """``for x in value``: calls of the ``__iter__`` / ``__next__`` of the repository classes the
        value is an instance of (nothing when its type is not known: no guessing for implicit calls)."""
        ctx = Ctx(ref.path, ref.path, ref.scope, ref.line)
        edges = []
        values = self.infer.evaluate(V.parse(ref.qualifier), ctx, 0)
        for value in sorted((v for v in values if v[0] == "inst"), key=lambda v: place(v[1])):
            for method in self.infer.iterators(value[1], ctx, 0):
                call = Reference(
                    path=ref.path,
                    name=method.name,
                    kind="call",
                    line=ref.line,
                    col=ref.col,
                    qualifier=ref.qualifier,
                    scope=ref.scope,
                )
                edges.append(to_symbol(call, method))
        return edges

    def _unbound_name(self, ref: Reference) -> Edge:
        """A name no scope, import or builtin binds: a unique repository function or class of that
        name (nearest directory breaks ties) is a guess, so ``inferred``."""
        family = self._same_family(ref, self._candidates(ref.name, FUNCTION_KINDS - {"method"} | CLASS_KINDS))
        candidates = family.symbols
        if not candidates:
            return unresolved(ref, "external", f"no definition of {ref.name!r} in the repository")
        if len(candidates) == 1:
            return to_symbol(ref, candidates[0], "inferred")
        near = [s for s in candidates if dirname(s.path) == dirname(ref.path)]
        if len(near) == 1:
            return to_symbol(ref, near[0], "inferred")
        return unresolved(ref, "ambiguous", family.reason())

    def _unknown_receiver(self, ref: Reference) -> Edge:
        """``x.m()`` with ``x`` of unknown type: only a method can be meant, and only a unique one."""
        family = self._same_family(ref, self._candidates(ref.name, frozenset({"method"})))
        candidates = family.symbols
        if not candidates:
            return unresolved(ref, "external", f"no method {ref.name!r} in the repository")
        language = self.defs.language(ref.path) or ""
        builtin = ref.name in BUILTIN_METHODS.get(FAMILY.get(language, language), ())
        if len(candidates) == 1 and not builtin:
            return to_symbol(ref, candidates[0], "inferred")
        reason = family.reason()
        return unresolved(ref, "ambiguous", reason + ("; also a method of builtin types" if builtin else ""))

    def _same_family(self, ref: Reference, candidates: Candidates) -> Candidates:
        """``candidates`` in ``ref``'s language family (JavaScript and TypeScript are one)."""
        return candidates.of_family(self._family_of(ref.path), self._family_of)

    def _family_of(self, path: str) -> str | None:
        if path not in self._families:
            language = self.defs.language(path)
            self._families[path] = FAMILY.get(language, language)
        return self._families[path]
