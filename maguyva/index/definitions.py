"""The ``Definitions`` views resolution reads the repository through: ``MemoryDefinitions`` over the
extractions of a clean run (or a fixture), ``StoreDefinitions`` over the store for an incremental
run, each lookup cached for the run."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from maguyva.models import FileExtraction, Reference, Symbol
    from maguyva.store.base import Store


class Definitions(Protocol):
    """What resolution needs to know about the whole repository."""

    def known_paths(self) -> Iterable[str]: ...
    def language(self, path: str) -> str | None: ...
    def named(self, name: str) -> Sequence[Symbol]: ...
    def in_file(self, path: str) -> Sequence[Symbol]: ...
    def qualified(self, qualified_name: str) -> Sequence[Symbol]: ...
    def references(self, path: str) -> Sequence[Reference]: ...


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


class StoreDefinitions:
    """A ``Definitions`` view over the store (an incremental run), each lookup cached for the run."""

    def __init__(self, store: Store, languages: dict[str, str | None] | None = None):
        self.store = store
        self._paths = store.known_paths() if languages is None else languages
        self._cache: dict[tuple[str, str], object] = {}

    def _get(self, kind: str, key: str, load):
        if (kind, key) not in self._cache:
            self._cache[(kind, key)] = load(key)
        return self._cache[(kind, key)]

    def known_paths(self):
        return self._paths

    def language(self, path):
        return self._paths.get(path)

    def named(self, name):
        return self._get("named", name, self.store.symbols_named)

    def in_file(self, path):
        return self._get("file", path, self.store.symbols_in)

    def qualified(self, qualified_name):
        return self._get("qualified", qualified_name, self.store.symbols_qualified)

    def references(self, path):
        return self._get("refs", path, self.store.references_in)
