"""What answers the eleven tools: one repository's ``maguyva.api.Maguyva`` and a scope's
``maguyva.scope.ScopedMaguyva`` (a team workspace is one) both satisfy ``Retrieval``.

The defaults are written ``...`` here: they are declared once, in ``maguyva.tools.contract``, and
tests/test_architecture.py checks that every implementation's keyword defaults are the declared ones.
Beyond the tools, ``result_texts`` lets the one task-context packer (``maguyva.tools.context``) read
any retrieval's result files through a public method.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from maguyva import answers


@runtime_checkable
class Retrieval(Protocol):
    """The eleven tools over one repository or several (``repo:`` places), and what packs task context."""

    def intelligent_search(
        self,
        query: str,
        *,
        limit: int = ...,
        preset: str = ...,
        modalities: Sequence[str] | None = ...,
        path_prefix: str | None = ...,
        max_tokens: int = ...,
    ) -> answers.SearchAnswer: ...

    def find_symbol(
        self,
        symbol_name: str,
        *,
        kind: str | None = ...,
        find_similar: bool = ...,
        exact_match: bool = ...,
        limit: int = ...,
    ) -> answers.SymbolAnswer: ...

    def find_references(
        self, symbol_name: str, *, limit: int = ..., include_possible: bool = ..., max_tokens: int = ...
    ) -> answers.ReferencesAnswer: ...

    def analyze_dependencies(
        self,
        target: str,
        *,
        direction: str = ...,
        depth: int = ...,
        limit: int = ...,
        include_ambiguous: bool = ...,
        max_tokens: int = ...,
    ) -> answers.DependenciesAnswer: ...

    def get_file(
        self,
        path: str,
        *,
        start_line: int | None = ...,
        end_line: int | None = ...,
        include_metadata: bool = ...,
        max_tokens: int = ...,
    ) -> answers.FileAnswer: ...

    def search_text(
        self,
        pattern: str,
        *,
        regex: bool = ...,
        case_sensitive: bool = ...,
        path_prefix: str | None = ...,
        limit: int = ...,
        max_tokens: int = ...,
    ) -> answers.TextAnswer: ...

    def search_structure(
        self,
        *,
        kind: str | None = ...,
        name: str | None = ...,
        signature_contains: str | None = ...,
        path_prefix: str | None = ...,
        limit: int = ...,
    ) -> answers.StructureAnswer: ...

    def repo_overview(self) -> answers.OverviewAnswer: ...

    def gather_task_context(self, task: str, *, token_budget: int = ...) -> answers.ContextAnswer: ...

    def index_status(self) -> answers.StatusAnswer: ...

    def refresh_index(self) -> answers.RefreshAnswer: ...

    def result_texts(self, results: Sequence[answers.SearchResult]) -> Mapping[tuple[str | None, str], str]:
        """The texts of ``results``' files, keyed by (repository or None, path), read in one go per store."""
        ...

    def close(self) -> None: ...
