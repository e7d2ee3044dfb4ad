"""A store read through one batch: the symbols of a ranked answer's files, loaded in one round trip.

``best_places`` (``maguyva.retrieve.places``) asks ``symbols_in`` once per result file; handing
it a ``SymbolsOf`` view turns those calls into the one ``symbols_in_paths`` query made here.
Everything else is read from the store itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from maguyva.models import Symbol
    from maguyva.store.base import Store


class SymbolsOf:
    """``store`` with ``symbols_in`` answered from one batched read of ``paths``."""

    def __init__(self, store: Store, paths: Iterable[str]):
        self._store = store
        self._symbols = store.symbols_in_paths(paths)

    def symbols_in(self, path: str) -> Sequence[Symbol]:
        found = self._symbols.get(path)
        return found if found is not None else self._store.symbols_in(path)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)
