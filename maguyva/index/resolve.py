"""References → edges. Pure: every lookup goes through a ``Definitions`` view (memory or store).

Order for a non-import reference (first hit wins):
1. a definition in an enclosing scope of the same file, then a top-level one in the file;
2. a name bound by this file's imports (or a qualifier naming an imported module/class);
3. ``self``/``this``/``cls``/``super()`` → a member of the enclosing class or its in-repo bases;
4. a unique repository definition of that name (same directory preferred);
5. otherwise an ``external`` (no candidate) or ``ambiguous`` (k candidates) edge with a reason.

Calls in Python, JavaScript and TypeScript go through the type and value pass instead
(``maguyva.index.infer``): the callee is what the expression evaluates to, one edge per value.
A call on a receiver of unknown type never resolves to a module-level function; it resolves to
a method only when one definition in the repository has that name (``inferred``), otherwise it is
``ambiguous`` with its candidates. An edge never points at a variable or a field: it follows the
value, or says ``external``. Resolutions: ``resolved`` (the program text binds it: scopes,
imports, ``self``, constructors, annotations, assignments), ``inferred`` (a heuristic narrowed it:
a unique method name, a unique repository-wide name for an unbound name, same-file call
arguments), ``ambiguous``, ``external``.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from maguyva.index import values as V
from maguyva.index.extract import CLASS_LIKE, module_name
from maguyva.index.infer import CLASS_KINDS, FUNCTION_KINDS, Ctx, Inference, normalize
from maguyva.index.languages import hooks
from maguyva.index.transport import new_edge
from maguyva.models import EDGE_KIND, FACT_KINDS, Edge, FileExtraction, Reference, Symbol

SELF_QUALIFIERS = frozenset({"self", "this", "cls", "@", "$this", "Self"})
SUPER_QUALIFIERS = frozenset({"super", "super()", "base", "parent"})
CALLABLE = frozenset({"function", "class", "struct", "type", "constant", "variable"})
MEMBER = frozenset({"method", "function", "field", "constant", "variable", "class", "struct", "enum"})
TYPE_LIKE = CLASS_LIKE | {"type"}
ALLOWED = {"call": CALLABLE, "inherit": TYPE_LIKE | {"module"}, "type": TYPE_LIKE}  # module: Ruby mixins
_MAX_CHASE = 5
INFER_LANGUAGES = frozenset({"python", "javascript", "typescript", "tsx"})
LINKED = frozenset({"resolved", "inferred"})  # resolutions that carry a target
_FAMILY = {"javascript": "js", "typescript": "js", "tsx": "js"}
# Methods of the languages' builtin types: ``x.get()`` on a receiver of unknown type is as likely a
# dict's as the one repository method named ``get``, so such names never narrow to one definition.
_BUILTIN_METHODS = {
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


class Definitions(Protocol):
    """What resolution needs to know about the whole repository."""

    def known_paths(self) -> Iterable[str]: ...
    def language(self, path: str) -> str | None: ...
    def named(self, name: str) -> Sequence[Symbol]: ...
    def in_file(self, path: str) -> Sequence[Symbol]: ...
    def qualified(self, qualified_name: str) -> Sequence[Symbol]: ...
    def references(self, path: str) -> Sequence[Reference]: ...


@dataclass(frozen=True, slots=True)
class Target:
    """What an import binds a local name to: a file, or a definition in it."""

    path: str
    symbol: Symbol | None = None


class MemoryDefinitions:
    """A ``Definitions`` view over extractions held in memory (clean indexes, fixtures)."""

    def __init__(self, extractions: Iterable[FileExtraction]):
        self._files = {e.path: e for e in extractions}
        self._named: dict[str, list[Symbol]] = {}
        self._qualified: dict[str, list[Symbol]] = {}
        for extraction in self._files.values():
            for symbol in extraction.symbols:
                self._named.setdefault(symbol.name, []).append(symbol)
                self._qualified.setdefault(symbol.qualified_name, []).append(symbol)

    def known_paths(self):
        return self._files.keys()

    def language(self, path):
        return self._files[path].language if path in self._files else None

    def named(self, name):
        return self._named.get(name, ())

    def in_file(self, path):
        return self._files[path].symbols if path in self._files else ()

    def qualified(self, qualified_name):
        return self._qualified.get(qualified_name, ())

    def references(self, path):
        return self._files[path].references if path in self._files else ()


def resolve_all(extractions: Sequence[FileExtraction]) -> list[Edge]:
    """Resolve every reference of every file against the same set of files."""
    resolver = Resolver(MemoryDefinitions(extractions))
    return [edge for extraction in extractions for edge in resolver.resolve_file(extraction.path)]


def is_fact(ref: Reference) -> bool:
    return ref.kind in FACT_KINDS


class Resolver:
    """Resolves one file's references at a time; caches import bindings and class bases."""

    def __init__(self, definitions: Definitions):
        self.defs = definitions
        self._paths = definitions.known_paths()
        self._bindings: dict[str, dict[str, Target]] = {}
        self._external: dict[str, set[str]] = {}  # path → local names bound to out-of-repo imports
        self._packages: dict[str, list[str]] = {}
        self._modules: dict[tuple[str, str], str | None] = {}
        self._locals: dict[str, dict[tuple[str | None, str], list[Symbol]]] = {}
        self._base_cache: dict[str, list[Symbol]] = {}
        self._candidate_cache: dict[tuple[str, frozenset], _Candidates] = {}
        self._split: dict[str, tuple[list[Reference], list[Reference]]] = {}
        self._inherits: dict[str, dict[str | None, list[Reference]]] = {}  # path → scope → inherit refs
        self._overrides: dict[tuple, list[Symbol]] = {}  # (family, name, classes) → subclass methods
        self._stars: dict[str, list[str]] = {}
        self._parents: dict[str, set] = {}
        self._external_roots: dict[str, set[str]] = {}
        self._chains: dict[tuple[str, str | None], list[str | None]] = {}
        self._families: dict[str, str | None] = {}  # path → language family
        self.infer = Inference(self)

    def resolve_file(self, path: str) -> list[Edge]:
        """The edges of every reference in ``path`` (one each; a call with several values, one per
        value), in the order the references are listed. Facts give none."""
        edges = [edge for ref in self._references(path) for edge in self.resolve_edges(ref)]
        return edges + [
            edge for ref in self.facts(path) if ref.kind == "iterate" for edge in self._iteration_edges(ref)
        ]

    def resolve_reference(self, ref: Reference) -> Edge:
        """The (first) edge for one reference (not a fact: facts give no edge)."""
        edges = self.resolve_edges(ref)
        if not edges:
            raise ValueError(f"{ref.path}:{ref.line}: a {ref.kind} fact has no edge")
        return edges[0]

    def resolve_edges(self, ref: Reference) -> list[Edge]:
        """Every edge for one reference; none for a fact."""
        if ref.kind == "iterate":
            return self._iteration_edges(ref)
        if ref.kind in FACT_KINDS:
            return []
        if ref.kind == "import":
            return [self._import_edge(ref)]
        if (
            ref.kind == "call"
            and self.defs.language(ref.path) in INFER_LANGUAGES
            and ref.qualifier not in SUPER_QUALIFIERS
        ):
            return self._call_edges(ref)
        return [self._edge(ref)]

    # ---- facts, as the type and value pass reads them ----
    def _references(self, path: str) -> list[Reference]:
        return self._parts(path)[0]

    def facts(self, path: str) -> list[Reference]:
        return self._parts(path)[1]

    def _parts(self, path: str) -> tuple[list[Reference], list[Reference]]:
        found = self._split.get(path)
        if found is None:
            refs, facts = [], []
            for ref in self.defs.references(path):
                (facts if ref.kind in FACT_KINDS else refs).append(ref)
            found = self._split[path] = (refs, facts)
        return found

    def scope_chain(self, path: str, scope: str | None) -> list[str | None]:
        key = (path, scope)
        found = self._chains.get(key)
        if found is None:
            found = self._chains[key] = self._scopes(
                Reference(path=path, name="", kind="call", line=0, scope=scope)
            )
        return found

    def is_class(self, path: str, scope: str) -> bool:
        symbol = self._symbol(scope, path)
        return symbol is not None and symbol.kind in CLASS_LIKE

    def local(self, path: str, parent: str | None, name: str) -> list[Symbol]:
        return self._local(path, parent, name)

    def has_members(self, symbol: Symbol) -> bool:
        parents = self._parents.get(symbol.path)
        if parents is None:
            parents = self._parents[symbol.path] = {s.parent for s in self.defs.in_file(symbol.path)}
        return symbol.qualified_name in parents

    def symbol(self, qualified_name: str | None, path: str) -> Symbol | None:
        return self._symbol(qualified_name, path) if qualified_name else None

    def exported(self, path: str, name: str) -> Symbol | None:
        return self._exported(path, name, 0)

    def external_names(self, path: str) -> set[str]:
        """Names ``path``'s imports bind outside the repository (``import a.b`` binds ``a`` too)."""
        found = self._external_roots.get(path)
        if found is None:
            self.bindings(path)
            names = self._external.get(path, set())
            found = self._external_roots[path] = names | {n.split(".", 1)[0] for n in names}
        return found

    def star_modules(self, path: str) -> list[str]:
        """In-repository modules ``path`` imports with ``*``."""
        found = self._stars.get(path)
        if found is None:
            found = self._stars[path] = [
                target
                for ref in self._references(path)
                if ref.kind == "import" and ref.name == "*"
                for target in [self.module_path(ref.module, ref.path)]
                if target
            ]
        return found

    def direct_bases(self, cls: Symbol) -> list[Symbol]:
        inherits = self._inherits.get(cls.path)
        if inherits is None:  # one pass over the file's references, not one per class
            inherits = self._inherits[cls.path] = {}
            for ref in self._references(cls.path):
                if ref.kind == "inherit":
                    inherits.setdefault(ref.scope, []).append(ref)
        bases: list[Symbol] = []
        for ref in inherits.get(cls.qualified_name, ()):
            edge = self._edge(ref)
            if edge.dst_symbol and edge.dst_symbol != cls.qualified_name:
                base = self._symbol(edge.dst_symbol, edge.dst_path)
                if base is not None and base not in bases:
                    bases.append(base)
        return bases

    def all_bases(self, cls: Symbol) -> list[Symbol]:
        return self._bases(cls, set())

    # ---- calls through the type and value pass ----
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
                if key not in targets or _place(symbol) > _place(targets[key]):
                    targets[key] = symbol
        if targets:
            resolution = "inferred" if infer.inferred else "resolved"
            return [_to_symbol(ref, symbol, resolution) for _, symbol in sorted(targets.items())]
        if found == {("ext", ref.name)} and not qualifier:  # a builtin such as print
            return [_unresolved(ref, "external", f"no definition of {ref.name!r} in the repository")]
        if found:
            return [
                _unresolved(ref, "external", f"{ref.name!r} is a builtin, external or non-callable value")
            ]
        if not ref.name:
            return [_unresolved(ref, "external", f"the value of {ref.qualifier!r} is not known")]
        if not qualifier:
            if infer.local_binding(ref.name, ctx) or infer.facts(ref.path).binds.get((None, ref.name)):
                return [
                    _unresolved(
                        ref, "external", f"the value of {ref.name!r} (a parameter or variable) is not known"
                    )
                ]
            return [self._unbound_name(ref)]
        classes = sorted(
            (r[1] for r in receivers or () if r[0] in ("inst", "def") and r[1].kind in CLASS_LIKE), key=_place
        )
        if classes:  # the member may be a subclass's (the receiver's static type is a base)
            return [self._subclass_member(ref, classes)]
        if receivers:
            return [
                _unresolved(
                    ref,
                    "external",
                    f"{qualifier!r} is a builtin, external or module value without "
                    f"{ref.name!r} in the repository",
                )
            ]
        if self._names_external_module(ref):
            return [_unresolved(ref, "external", f"{qualifier!r} names a module outside the repository")]
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
            return _to_symbol(ref, found[0], "inferred")
        if found:
            return _unresolved(ref, "ambiguous", _Candidates(tuple(found)).reason())
        cls = classes[0]
        return _unresolved(ref, "external", f"no member {ref.name!r} on {cls.name} or its in-repo bases")

    def _iteration_edges(self, ref: Reference) -> list[Edge]:
        """``for x in value``: calls of the ``__iter__`` / ``__next__`` of the repository classes the
        value is an instance of (nothing when its type is not known: no guessing for implicit calls)."""
        ctx = Ctx(ref.path, ref.path, ref.scope, ref.line)
        edges = []
        values = self.infer.evaluate(V.parse(ref.qualifier), ctx, 0)
        for value in sorted((v for v in values if v[0] == "inst"), key=lambda v: _place(v[1])):
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
                edges.append(_to_symbol(call, method))
        return edges

    def _unbound_name(self, ref: Reference) -> Edge:
        """A name no scope, import or builtin binds: a unique repository function or class of that
        name (nearest directory breaks ties) is a guess, so ``inferred``."""
        family = self._same_family(ref, self._candidates(ref.name, FUNCTION_KINDS - {"method"} | CLASS_KINDS))
        candidates = family.symbols
        if not candidates:
            return _unresolved(ref, "external", f"no definition of {ref.name!r} in the repository")
        if len(candidates) == 1:
            return _to_symbol(ref, candidates[0], "inferred")
        near = [s for s in candidates if _dirname(s.path) == _dirname(ref.path)]
        if len(near) == 1:
            return _to_symbol(ref, near[0], "inferred")
        return _unresolved(ref, "ambiguous", family.reason())

    def _unknown_receiver(self, ref: Reference) -> Edge:
        """``x.m()`` with ``x`` of unknown type: only a method can be meant, and only a unique one."""
        family = self._same_family(ref, self._candidates(ref.name, frozenset({"method"})))
        candidates = family.symbols
        if not candidates:
            return _unresolved(ref, "external", f"no method {ref.name!r} in the repository")
        language = self.defs.language(ref.path) or ""
        builtin = ref.name in _BUILTIN_METHODS.get(_FAMILY.get(language, language), ())
        if len(candidates) == 1 and not builtin:
            return _to_symbol(ref, candidates[0], "inferred")
        reason = family.reason()
        return _unresolved(ref, "ambiguous", reason + ("; also a method of builtin types" if builtin else ""))

    def _same_family(self, ref: Reference, candidates: _Candidates) -> _Candidates:
        """``candidates`` in ``ref``'s language family (JavaScript and TypeScript are one)."""
        return candidates.of_family(self._family_of(ref.path), self._family_of)

    def _family_of(self, path: str) -> str | None:
        if path not in self._families:
            language = self.defs.language(path)
            self._families[path] = _FAMILY.get(language, language)
        return self._families[path]

    # ---- imports ----
    def module_path(self, module: str, from_path: str) -> str | None:
        key = (module, from_path)
        if key not in self._modules:
            hook = hooks(self.defs.language(from_path) or "")
            if hook is not None and hasattr(hook, "resolve_import"):
                self._modules[key] = hook.resolve_import(module, from_path, self._paths)
            else:
                self._modules[key] = default_resolve_import(module, from_path, self._paths)
        return self._modules[key]

    def bindings(self, path: str) -> dict[str, Target]:
        """Local names bound by ``path``'s imports: alias / imported name / module text → target."""
        if path not in self._bindings:
            self._bindings[path] = {}  # guards import cycles while chasing re-exports
            bound: dict[str, Target] = {}
            for ref in self._references(path):
                if ref.kind == "import":
                    target = self._import_target(ref, 0)
                    local = ref.alias or (ref.name if ref.name != ref.module else self._module_alias(ref))
                    if target is not None:
                        bound[local] = target
                    else:
                        self._external.setdefault(path, set()).add(local)
            self._bindings[path] = bound
        return self._bindings[path]

    def _module_alias(self, ref: Reference) -> str:
        """The local name a whole-module import binds: the hook's ``import_alias`` or the module text."""
        hook = hooks(self.defs.language(ref.path) or "")
        if hook is not None and hasattr(hook, "import_alias"):
            return hook.import_alias(ref.module)
        return ref.module

    def _names_external_module(self, ref: Reference) -> bool:
        """Whether ``ref``'s qualifier (or its first segment) is bound to an import outside the repo."""
        self.bindings(ref.path)
        external = self._external.get(ref.path, ())
        return ref.qualifier in external or ref.qualifier.split(".", 1)[0] in external

    def _import_target(self, ref: Reference, depth: int) -> Target | None:
        target_path = self.module_path(ref.module, ref.path)
        if ref.name == ref.module or ref.name in ("", "*"):  # the module itself ("*": a namespace import)
            if target_path and ref.alias and ref.name == ref.module:
                default = getattr(hooks(self.defs.language(ref.path) or ""), "default_import", None)
                symbol = default(ref.alias, self.defs.in_file(target_path)) if default else None
                if symbol is not None:
                    return Target(symbol.path, symbol)
            return Target(target_path) if target_path else None
        if target_path is not None:
            symbol = self._exported(target_path, ref.name, depth)
            if symbol is not None:
                return Target(symbol.path, symbol)
        hook = hooks(self.defs.language(ref.path) or "")
        if hook is not None and hasattr(hook, "submodule"):
            sub_path = self.module_path(hook.submodule(ref.module, ref.name), ref.path)
            if sub_path is not None:  # a module, or (hook FILE_PER_TYPE) the file of class C: a/b/C.java
                named = getattr(hook, "FILE_PER_TYPE", False) and sub_path != target_path
                symbol = self._exported(sub_path, ref.name, depth) if named else None
                return Target(sub_path, symbol) if symbol is not None else Target(sub_path)
        return Target(target_path) if target_path else None

    def _package(self, path: str) -> list[str]:
        """``path`` first, then the other files of its package when the language says a package
        spans files (hook ``package_files(path, known_paths)``)."""
        hook = hooks(self.defs.language(path) or "")
        if not hasattr(hook, "package_files"):
            return [path]
        directory = posixpath.dirname(path)  # packages are folders: one listing per folder
        if directory not in self._packages:
            self._packages[directory] = hook.package_files(path, self._paths)
        return [path, *(p for p in self._packages[directory] if p != path)]

    def _local(self, path: str, parent: str | None, name: str) -> list[Symbol]:
        """Definitions of ``name`` directly inside ``parent`` (None: top level) in ``path``."""
        table = self._locals.get(path)
        if table is None:
            table = self._locals[path] = {}
            for symbol in self.defs.in_file(path):
                table.setdefault((symbol.parent, symbol.name), []).append(symbol)
        return table.get((parent, name), [])

    def _exported(self, path: str, name: str, depth: int) -> Symbol | None:
        """A top-level definition ``name`` of ``path`` (or of its package's other files, hook
        ``package_files``: Go, Kotlin, Scala), following re-exports a few levels."""
        for file in self._package(path):
            for symbol in self._local(file, None, name):
                return symbol
        if depth < _MAX_CHASE:
            for ref in self._references(path):
                if (
                    ref.kind == "import"
                    and (ref.alias or ref.name) == name
                    and ref.name not in (ref.module, "*")
                ):
                    target = self._import_target(ref, depth + 1)
                    if target is not None and target.symbol is not None:
                        return target.symbol
        return None

    def _import_edge(self, ref: Reference) -> Edge:
        target = self._import_target(ref, 0)
        if target is None:
            return _unresolved(ref, "external", f"module {ref.module!r} is not in the repository")
        if target.symbol is not None:
            return _to_symbol(ref, target.symbol)
        language = self.defs.language(target.path) or ""
        return _edge(ref, target.path, 1, module_name(target.path, language))

    # ---- calls, inheritance, type uses ----
    def _edge(self, ref: Reference) -> Edge:
        allowed = ALLOWED.get(ref.kind, CALLABLE)
        if ref.qualifier:
            return self._qualified_edge(ref)
        for scope in self._scopes(ref):
            for symbol in self._local(ref.path, scope, ref.name):
                if symbol.kind in allowed:
                    return _to_symbol(ref, symbol)
        member = self._implicit_member(ref)
        if member is not None:
            return _to_symbol(ref, member)
        target = self.bindings(ref.path).get(ref.name)
        if target is not None and target.symbol is not None:
            return _to_symbol(ref, target.symbol)
        if ref.kind == "call" and self._implicit_receiver(ref):  # e.g. a mixin calling its host's method
            allowed = allowed | {"method"}
        return self._unique(ref, allowed)

    def _implicit_receiver(self, ref: Reference) -> bool:
        return bool(getattr(hooks(self.defs.language(ref.path) or ""), "IMPLICIT_RECEIVER", False))

    def _implicit_member(self, ref: Reference) -> Symbol | None:
        """A bare call inside a class of a language with an implicit receiver (hook
        ``IMPLICIT_RECEIVER = True``: Java, C#, C++, Kotlin, Ruby) → a member of the class or its bases."""
        if ref.kind != "call" or not self._implicit_receiver(ref):
            return None
        cls = self._enclosing_class(ref)
        return self._member([cls, *self._bases(cls, set())], ref.name) if cls is not None else None

    def _qualified_edge(self, ref: Reference) -> Edge:
        qualifier = ref.qualifier
        if qualifier in SELF_QUALIFIERS or qualifier in SUPER_QUALIFIERS:
            cls = self._enclosing_class(ref)
            if cls is None:
                for member in self._owner_members(ref) if qualifier not in SUPER_QUALIFIERS else ():
                    return _to_symbol(ref, member)
                return _unresolved(ref, "external", f"{qualifier!r} outside a class")
            classes = (
                self._bases(cls, set()) if qualifier in SUPER_QUALIFIERS else [cls, *self._bases(cls, set())]
            )
            member = self._member(classes, ref.name)
            if member is not None:
                return _to_symbol(ref, member)
            return _unresolved(ref, "external", f"no member {ref.name!r} on {cls.name} or its in-repo bases")
        target = self.bindings(ref.path).get(qualifier)
        if target is None and self._names_external_module(ref):
            return _unresolved(ref, "external", f"{qualifier!r} names a module outside the repository")
        if target is not None:
            if target.symbol is None:
                symbol = self._exported(target.path, ref.name, 0)
                if symbol is not None:
                    return _to_symbol(ref, symbol)
                return _unresolved(ref, "external", f"{ref.name!r} is not defined in {target.path}")
            member = self._member([target.symbol, *self._bases(target.symbol, set())], ref.name)
            if member is not None:
                return _to_symbol(ref, member)
        cls = self._class_named(ref, qualifier.rsplit(".", 1)[-1])
        if cls is not None:
            member = self._member([cls, *self._bases(cls, set())], ref.name)
            if member is not None:
                return _to_symbol(ref, member)
        return self._unique(ref, MEMBER - {"class"} if ref.kind == "call" else ALLOWED.get(ref.kind, MEMBER))

    def _unique(self, ref: Reference, allowed: frozenset) -> Edge:
        candidates = self._candidates(ref.name, allowed)
        if not candidates.symbols:
            return _unresolved(ref, "external", f"no definition of {ref.name!r} in the repository")
        if len(candidates.symbols) == 1:
            return _to_symbol(ref, candidates.symbols[0])
        near = candidates.near(_dirname(ref.path))
        if len(near) == 1:
            return _to_symbol(ref, near[0])
        return _unresolved(ref, "ambiguous", candidates.reason())

    def _candidates(self, name: str, allowed: frozenset) -> _Candidates:
        """Repository definitions of ``name`` of an allowed kind; looked up once per run and kind set."""
        found = self._candidate_cache.get((name, allowed))
        if found is None:
            found = _Candidates(tuple(s for s in self.defs.named(name) if s.kind in allowed))
            self._candidate_cache[(name, allowed)] = found
        return found

    # ---- scopes and classes ----
    def _symbol(self, qualified_name: str, path: str) -> Symbol | None:
        for symbol in self.defs.qualified(qualified_name):
            if symbol.path == path:
                return symbol
        return None

    def _scopes(self, ref: Reference) -> list[str | None]:
        """Enclosing scopes, innermost first, ending with the file's top level (None)."""
        scopes: list[str | None] = []
        current = ref.scope
        while current is not None:
            scopes.append(current)
            symbol = self._symbol(current, ref.path)
            current = symbol.parent if symbol is not None else None
        return [*scopes, None]

    def _enclosing_class(self, ref: Reference) -> Symbol | None:
        scopes = self._scopes(ref)[:-1]
        if ref.kind == "inherit":  # a base list is evaluated outside the class it defines
            scopes = scopes[1:]
        for scope in scopes:
            symbol = self._symbol(scope, ref.path)
            if symbol is not None and symbol.kind in CLASS_LIKE:
                return symbol
        return None

    def _owner_members(self, ref: Reference) -> list[Symbol]:
        """``this.name`` inside a function assigned to an object (JavaScript's ``res.send = function …``,
        ``View.prototype.lookup = …``): the definitions of ``name`` assigned to the same object."""
        if _FAMILY.get(self.defs.language(ref.path)) != "js":
            return []
        for scope in self._scopes(ref)[:-1]:
            symbol = self._symbol(scope, ref.path)
            if symbol is not None and symbol.parent and symbol.kind in ("function", "method"):
                return self._local(ref.path, symbol.parent, ref.name)
        return []

    def _class_named(self, ref: Reference, name: str) -> Symbol | None:
        target = self.bindings(ref.path).get(name)
        if target is not None and target.symbol is not None and target.symbol.kind in CLASS_LIKE:
            return target.symbol
        local = [s for s in self._local(ref.path, None, name) if s.kind in CLASS_LIKE]
        if local:
            return local[0]
        found = self._candidates(name, CLASS_LIKE).symbols
        return found[0] if len(found) == 1 else None

    def _member(self, classes: list[Symbol], name: str) -> Symbol | None:
        for cls in classes:
            for symbol in self._local(cls.path, cls.qualified_name, name):
                return symbol
        return None

    def _bases(self, cls: Symbol, seen: set[str] | None = None) -> list[Symbol]:
        """In-repo base classes of ``cls``, nearest first (depth-first, cycle-safe).

        Each class's list is its own: it never depends on which class asked first. (A ``seen`` set
        shared across siblings used to cut ``SiteDir(Fixtures)``'s base when ``DistInfoPkg(OnSysPath,
        SiteDir)`` was resolved first, so an incremental run could differ from a clean one.)"""
        key = f"{cls.path}\0{cls.qualified_name}"
        if key in self._base_cache:
            return self._base_cache[key]
        self._base_cache[key] = []  # cycle guard: a base list that refers back to its own class
        bases: list[Symbol] = []
        for base in self.direct_bases(cls):
            for found in (base, *self._bases(base)):
                if found != cls and found not in bases:
                    bases.append(found)
        self._base_cache[key] = bases
        return bases


class _Candidates:
    """Definitions one name may refer to, with the per-directory narrowing and the ambiguity
    reason computed once (common names such as ``get`` have hundreds of candidates)."""

    __slots__ = ("_families", "_near", "_reason", "symbols")

    def __init__(self, symbols: tuple[Symbol, ...]):
        self.symbols = symbols
        self._near: dict[str, list[Symbol]] = {}
        self._families: dict[str | None, _Candidates] = {}
        self._reason = ""

    def of_family(self, family: str | None, family_of) -> _Candidates:
        """The candidates whose file is of language ``family`` (``family_of(path)``), in order."""
        found = self._families.get(family)
        if found is None:
            found = self._families[family] = _Candidates(
                tuple(s for s in self.symbols if family_of(s.path) == family)
            )
        return found

    def near(self, directory: str) -> list[Symbol]:
        if directory not in self._near:
            self._near[directory] = [s for s in self.symbols if _dirname(s.path) == directory]
        return self._near[directory]

    def reason(self) -> str:
        if not self._reason:
            where = ", ".join(sorted({f"{s.path}:{s.line}" for s in self.symbols})[:5])
            self._reason = f"{len(self.symbols)} candidates: {where}"
        return self._reason


@lru_cache(maxsize=65536)
def _dirname(path: str) -> str:
    return posixpath.dirname(path)


def default_resolve_import(module: str, from_path: str, known_paths) -> str | None:
    """Relative paths (``./x``, ``../x``) and dotted/slashed names → a known file, same extension first."""
    if module.startswith("."):
        stem = posixpath.normpath(posixpath.join(posixpath.dirname(from_path), module))
    else:
        stem = module.replace(".", "/") if "/" not in module else module
    ext = posixpath.splitext(from_path)[1]
    for path in (stem, f"{stem}{ext}", f"{stem}/index{ext}", f"{stem}/mod{ext}"):
        if path in known_paths:
            return path
    return None


def _to_symbol(ref: Reference, symbol: Symbol, resolution: str = "resolved") -> Edge:
    return _edge(ref, symbol.path, symbol.line, symbol.qualified_name, resolution)


def _edge(
    ref: Reference, dst_path: str, dst_line: int, dst_symbol: str, resolution: str = "resolved"
) -> Edge:
    # Edge's fields in order: kind, src_path, src_line, src_symbol, dst_path, dst_line, dst_symbol,
    # name, resolution, reason, src_col (built through its slots: ~360k edges on the stdlib)
    return new_edge(
        (
            EDGE_KIND[ref.kind],
            ref.path,
            ref.line,
            ref.scope,
            dst_path,
            dst_line,
            dst_symbol,
            ref.name,
            resolution,
            "",
            ref.col,
        )
    )


def _unresolved(ref: Reference, resolution: str, reason: str) -> Edge:
    return new_edge(
        (
            EDGE_KIND[ref.kind],
            ref.path,
            ref.line,
            ref.scope,
            None,
            None,
            None,
            ref.name,
            resolution,
            reason,
            ref.col,
        )
    )


def _place(symbol: Symbol) -> tuple:
    """Where a definition is, as a sort key. Sets of values order by hash, and on Python 3.11 a value
    holding None hashes by an address that changes from one process to the next: every choice among
    such values goes by this key instead, so a clean run and an incremental one pick alike."""
    return (symbol.path, symbol.line, symbol.col, symbol.qualified_name, symbol.kind)
