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

``Resolver`` is this module's scopes, classes and names, plus ``resolve_imports.ImportResolution``
(what imports bind) and ``resolve_calls.CallResolution`` (calls through the type and value pass);
edges and candidates are built by ``maguyva.index.edges``, the repository read through a
``maguyva.index.definitions`` view.
"""

from __future__ import annotations

from collections.abc import Sequence

from maguyva.index.definitions import Definitions, MemoryDefinitions
from maguyva.index.edges import (
    FAMILY,
    SELF_QUALIFIERS,
    SUPER_QUALIFIERS,
    Candidates,
    dirname,
    to_symbol,
    unresolved,
)
from maguyva.index.extract import CLASS_LIKE
from maguyva.index.infer import Inference
from maguyva.index.languages import hooks
from maguyva.index.resolve_calls import CallResolution
from maguyva.index.resolve_imports import ImportResolution, Target
from maguyva.models import FACT_KINDS, Edge, FileExtraction, Reference, Symbol

CALLABLE = frozenset({"function", "class", "struct", "type", "constant", "variable"})
MEMBER = frozenset({"method", "function", "field", "constant", "variable", "class", "struct", "enum"})
TYPE_LIKE = CLASS_LIKE | {"type"}
ALLOWED = {"call": CALLABLE, "inherit": TYPE_LIKE | {"module"}, "type": TYPE_LIKE}  # module: Ruby mixins
INFER_LANGUAGES = frozenset({"python", "javascript", "typescript", "tsx"})
LINKED = frozenset({"resolved", "inferred"})  # resolutions that carry a target


def resolve_all(extractions: Sequence[FileExtraction]) -> list[Edge]:
    """Resolve every reference of every file against the same set of files."""
    resolver = Resolver(MemoryDefinitions(extractions))
    return [edge for extraction in extractions for edge in resolver.resolve_file(extraction.path)]


def is_fact(ref: Reference) -> bool:
    return ref.kind in FACT_KINDS


class Resolver(ImportResolution, CallResolution):
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
        self._candidate_cache: dict[tuple[str, frozenset], Candidates] = {}
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

    def _local(self, path: str, parent: str | None, name: str) -> list[Symbol]:
        """Definitions of ``name`` directly inside ``parent`` (None: top level) in ``path``."""
        table = self._locals.get(path)
        if table is None:
            table = self._locals[path] = {}
            for symbol in self.defs.in_file(path):
                table.setdefault((symbol.parent, symbol.name), []).append(symbol)
        return table.get((parent, name), [])

    # ---- calls, inheritance, type uses ----
    def _edge(self, ref: Reference) -> Edge:
        allowed = ALLOWED.get(ref.kind, CALLABLE)
        if ref.qualifier:
            return self._qualified_edge(ref)
        for scope in self._scopes(ref):
            for symbol in self._local(ref.path, scope, ref.name):
                if symbol.kind in allowed:
                    return to_symbol(ref, symbol)
        member = self._implicit_member(ref)
        if member is not None:
            return to_symbol(ref, member)
        target = self.bindings(ref.path).get(ref.name)
        if target is not None and target.symbol is not None:
            return to_symbol(ref, target.symbol)
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
                    return to_symbol(ref, member)
                return unresolved(ref, "external", f"{qualifier!r} outside a class")
            classes = (
                self._bases(cls, set()) if qualifier in SUPER_QUALIFIERS else [cls, *self._bases(cls, set())]
            )
            member = self._member(classes, ref.name)
            if member is not None:
                return to_symbol(ref, member)
            return unresolved(ref, "external", f"no member {ref.name!r} on {cls.name} or its in-repo bases")
        target = self.bindings(ref.path).get(qualifier)
        if target is None and self._names_external_module(ref):
            return unresolved(ref, "external", f"{qualifier!r} names a module outside the repository")
        if target is not None:
            if target.symbol is None:
                symbol = self._exported(target.path, ref.name, 0)
                if symbol is not None:
                    return to_symbol(ref, symbol)
                return unresolved(ref, "external", f"{ref.name!r} is not defined in {target.path}")
            member = self._member([target.symbol, *self._bases(target.symbol, set())], ref.name)
            if member is not None:
                return to_symbol(ref, member)
        cls = self._class_named(ref, qualifier.rsplit(".", 1)[-1])
        if cls is not None:
            member = self._member([cls, *self._bases(cls, set())], ref.name)
            if member is not None:
                return to_symbol(ref, member)
        return self._unique(ref, MEMBER - {"class"} if ref.kind == "call" else ALLOWED.get(ref.kind, MEMBER))

    def _unique(self, ref: Reference, allowed: frozenset) -> Edge:
        candidates = self._candidates(ref.name, allowed)
        if not candidates.symbols:
            return unresolved(ref, "external", f"no definition of {ref.name!r} in the repository")
        if len(candidates.symbols) == 1:
            return to_symbol(ref, candidates.symbols[0])
        near = candidates.near(dirname(ref.path))
        if len(near) == 1:
            return to_symbol(ref, near[0])
        return unresolved(ref, "ambiguous", candidates.reason())

    def _candidates(self, name: str, allowed: frozenset) -> Candidates:
        """Repository definitions of ``name`` of an allowed kind; looked up once per run and kind set."""
        found = self._candidate_cache.get((name, allowed))
        if found is None:
            found = Candidates(tuple(s for s in self.defs.named(name) if s.kind in allowed))
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
        if FAMILY.get(self.defs.language(ref.path)) != "js":
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
