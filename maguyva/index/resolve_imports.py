"""Import resolution, the part of ``maguyva.index.resolve.Resolver`` that reads a file's imports: the
file a module names (a language hook's ``resolve_import`` or ``default_resolve_import``), the local
names a file's imports bind (``Target``), re-exports followed a few levels, packages spanning
files (Go, Kotlin, Scala), and the edge of an import reference. A mixin: the resolver holds the
caches and the ``Definitions`` view it reads."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import TYPE_CHECKING

from maguyva.index.edges import edge_to, to_symbol, unresolved
from maguyva.index.extract import module_name
from maguyva.index.languages import hooks

if TYPE_CHECKING:
    from maguyva.index.definitions import Definitions
    from maguyva.models import Edge, Reference, Symbol

_MAX_CHASE = 5


@dataclass(frozen=True, slots=True)
class Target:
    """What an import binds a local name to: a file, or a definition in it."""

    path: str
    symbol: Symbol | None = None


class ImportResolution:
    """The import half of ``Resolver`` (its caches are set up by ``Resolver.__init__``)."""

    defs: Definitions
    _paths: object
    _bindings: dict[str, dict[str, Target]]
    _external: dict[str, set[str]]
    _packages: dict[str, list[str]]
    _modules: dict[tuple[str, str], str | None]
    _stars: dict[str, list[str]]
    _external_roots: dict[str, set[str]]

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
            return unresolved(ref, "external", f"module {ref.module!r} is not in the repository")
        if target.symbol is not None:
            return to_symbol(ref, target.symbol)
        language = self.defs.language(target.path) or ""
        return edge_to(ref, target.path, 1, module_name(target.path, language))


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
