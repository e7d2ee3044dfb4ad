"""How Maguyva answers: one Pydantic model per answer, bounded to a token budget.

Every library call (``maguyva.api``) returns one of the answer models below; the MCP tools
publish their JSON schemas as ``outputSchema`` and the CLI prints ``model_dump(mode="json")``.
A key that does not apply to an answer (``truncated``, ``repo``, ``demoted_as`` …) is
``MISSING``: absent from the JSON, not ``null``, so the JSON keeps the shape it had as a dict.
Answers read like their JSON too (``answer["results"][0]["citation"]``), for scripts.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pydantic import MISSING, BaseModel, ConfigDict

# building and bounding the answers' JSON: importable without pydantic, from ``maguyva.answer_json``
from maguyva.answer_json import DEFAULT_TOKENS, MAX_TOKENS, bound, estimate_tokens, hit_dict  # noqa: F401


def _untitled(schema: dict[str, Any]) -> None:
    """No generated titles: the schemas are read by a model, and cost tokens."""
    schema.pop("title", None)
    for prop in schema.get("properties", {}).values():
        prop.pop("title", None)


class Answer(BaseModel):
    """An answer or a part of one: a model that also reads like its JSON (``answer["key"]``)."""

    model_config = ConfigDict(json_schema_extra=lambda schema, _cls: _untitled(schema))

    def __getitem__(self, key: str) -> Any:
        value = getattr(self, key) if key in type(self).model_fields else MISSING
        if value is MISSING:
            raise KeyError(key)
        return value

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key, MISSING) is not MISSING

    def keys(self) -> Iterator[str]:
        return iter(self.model_dump(mode="json"))

    def dump(self) -> dict[str, Any]:
        """The answer's JSON (what the CLI prints and MCP sends as structured content)."""
        return self.model_dump(mode="json")

    def summary(self) -> str:
        """One line for the model's text content (the structured content carries the answer)."""
        return type(self).__name__


# ---- the parts ----------------------------------------------------------------------------------


class Place(Answer):
    """A cited line span; ``repo`` is set in a team workspace (citations read ``repo:path:line``)."""

    citation: str
    line: int
    end_line: int
    symbol: str | None
    kind: str | None
    repo: str | MISSING = MISSING


class Hit(Place):
    path: str
    snippet: str
    score: float
    modality: str


class SearchResult(Hit):
    found_by: list[str]
    demoted: bool
    signals: dict[str, float] | MISSING = MISSING
    demoted_as: str | MISSING = MISSING
    boost: float | MISSING = MISSING
    more: list[Place] | MISSING = MISSING


class SymbolMatch(Hit):
    qualified_name: str
    signature: str | None
    doc: str | None
    inherited_by: str | MISSING = MISSING
    inherited_from: str | MISSING = MISSING


class StructureMatch(Hit):
    signature: str | None


class Reference(Hit):
    target: str
    resolution: str
    possible: bool | MISSING = MISSING
    reason: str | MISSING | None = MISSING


class DependencyEntry(Answer):
    """A caller or callee (a hit), an external or ambiguous callee (``name``), or an impacted place (``depth``)."""

    relation: str
    citation: str
    repo: str | MISSING = MISSING
    path: str | MISSING = MISSING
    line: int | MISSING = MISSING
    end_line: int | MISSING = MISSING
    symbol: str | MISSING | None = MISSING
    kind: str | MISSING | None = MISSING
    snippet: str | MISSING = MISSING
    score: float | MISSING = MISSING
    modality: str | MISSING = MISSING
    name: str | MISSING = MISSING
    resolution: str | MISSING = MISSING
    possible: bool | MISSING = MISSING
    reason: str | MISSING | None = MISSING
    depth: int | MISSING = MISSING
    via: str | MISSING | None = MISSING


class Line(Answer):
    line: int
    text: str


class FileMetadata(Answer):
    language: str | None
    flags: list[str]
    indexed: bool
    stale: bool
    symbols: list[Hit]


class LanguageCount(Answer):
    language: str
    files: int
    symbols: int
    edges: int


class Snapshot(Answer):
    commit: str | None
    created_at: str
    dirty: list[str]


class DirCount(Answer):
    dir: str
    files: int


class HubFile(Answer):
    citation: str
    path: str
    pagerank: float
    in_degree: int
    repo: str | MISSING = MISSING


class HubSymbol(HubFile):
    symbol: str | None


class Snippet(Answer):
    citation: str
    symbol: str | None
    kind: str | None
    score: float
    text: str
    repo: str | MISSING = MISSING


class ChangedFile(Answer):
    path: str
    state: str


class Embeddings(Answer):
    backend: str
    model: str | None
    dims: int
    vectors: int
    chunks: int | None
    coverage: float | None


# ---- the answers (one per tool) -------------------------------------------------------------------


class Bounded(Answer):
    """An answer whose list was cut to the token budget says so."""

    truncated: bool | MISSING = MISSING
    truncation_note: str | MISSING = MISSING


class SearchAnswer(Bounded):
    query: str
    intent: str
    confidence: float
    fusion_strategy: str
    modalities_used: list[str]
    weights: dict[str, float]
    k: int
    notes: list[str]
    results: list[SearchResult]
    repos: list[str] | MISSING = MISSING

    def summary(self) -> str:
        top = f"; top: {self.results[0].citation}" if self.results else ""
        return (
            f"{len(self.results)} result(s) for {self.query!r} ({self.intent}, {self.fusion_strategy}){top}"
        )


class SymbolAnswer(Answer):
    symbol_name: str
    match: str
    count: int
    symbols: list[SymbolMatch]

    def summary(self) -> str:
        return f"{self.count} {self.match} definition(s) of {self.symbol_name!r}"


class ReferencesAnswer(Bounded):
    symbol_name: str
    definitions: list[str]
    count: int
    references: list[Reference]

    def summary(self) -> str:
        return f"{self.count} reference(s) to {self.symbol_name!r} ({len(self.definitions)} definition(s))"


class DependenciesAnswer(Bounded):
    target: str
    resolved: list[str]
    direction: str
    count: int
    entries: list[DependencyEntry]
    files_affected: int | MISSING = MISSING

    def summary(self) -> str:
        return f"{self.count} {self.direction} entr{'y' if self.count == 1 else 'ies'} for {self.target!r}"


class FileAnswer(Bounded):
    path: str
    citation: str
    start_line: int
    end_line: int
    total_lines: int
    lines: list[Line]
    metadata: FileMetadata | MISSING = MISSING
    repo: str | MISSING = MISSING

    def summary(self) -> str:
        return f"{self.citation}-{self.end_line} ({self.total_lines} lines in the file)"


class TextAnswer(Bounded):
    pattern: str
    regex: bool
    count: int
    results: list[Hit]

    def summary(self) -> str:
        return f"{self.count} matching line(s) for {self.pattern!r}"


class StructureAnswer(Answer):
    count: int
    results: list[StructureMatch]

    def summary(self) -> str:
        return f"{self.count} definition(s)"


class RepoOverview(Answer):
    root: str
    files: int
    languages: list[LanguageCount]
    layout: list[DirCount]
    hub_files: list[HubFile]
    hub_symbols: list[HubSymbol]
    entry_points: list[str]
    snapshot: Snapshot | None
    repo: str | MISSING = MISSING


class OverviewAnswer(RepoOverview):
    """One repository's overview, or a workspace's (``workspace`` and one overview per repository)."""

    root: str | MISSING = MISSING
    files: int | MISSING = MISSING
    languages: list[LanguageCount] | MISSING = MISSING
    layout: list[DirCount] | MISSING = MISSING
    hub_files: list[HubFile] | MISSING = MISSING
    hub_symbols: list[HubSymbol] | MISSING = MISSING
    entry_points: list[str] | MISSING = MISSING
    snapshot: Snapshot | MISSING | None = MISSING
    workspace: str | MISSING = MISSING
    repositories: list[RepoOverview] | MISSING = MISSING

    def summary(self) -> str:
        if self.repositories is not MISSING:
            return f"workspace {self.workspace}: {len(self.repositories)} repositories"
        return f"{self.files} files in {self.root}"


class ContextAnswer(Answer):
    task: str
    intent: str
    token_budget: int
    tokens_used: int
    snippets: list[Snippet]
    omitted: int

    def summary(self) -> str:
        return f"{len(self.snippets)} snippet(s), {self.tokens_used} of {self.token_budget} tokens"


class RepoStatus(Answer):
    snapshot: Snapshot | None
    languages: list[LanguageCount]
    store: str
    repo: str | MISSING = MISSING
    embeddings: Embeddings | MISSING | None = MISSING
    not_in_map: list[ChangedFile] | MISSING = MISSING
    not_in_map_count: int | MISSING = MISSING
    uncommitted: list[str] | MISSING = MISSING


class StatusAnswer(RepoStatus):
    """One repository's index status, or a workspace's (one status per repository)."""

    snapshot: Snapshot | MISSING | None = MISSING
    languages: list[LanguageCount] | MISSING = MISSING
    store: str | MISSING = MISSING
    workspace: str | MISSING = MISSING
    repositories: list[RepoStatus] | MISSING = MISSING

    def summary(self) -> str:
        if self.repositories is not MISSING:
            return f"workspace {self.workspace}: {len(self.repositories)} repositories"
        commit = self.snapshot.commit if self.snapshot else None
        changed = (
            "" if self.not_in_map_count is MISSING else f", {self.not_in_map_count} file(s) not in the map"
        )
        return f"index at {commit or 'no snapshot'}{changed}"


class RefreshAnswer(Answer):
    root: str
    store: str
    mode: str
    files: int
    added: int
    changed: int
    deleted: int
    renamed: int
    unchanged: int
    reresolved: int
    symbols: int
    edges: int
    unresolved: int
    skipped: int
    seconds: float
    commit: str | None
    errors: list[str]
    languages: dict[str, Any]

    def summary(self) -> str:
        return f"{self.mode} index: {self.added} added, {self.changed} changed, {self.deleted} deleted"
