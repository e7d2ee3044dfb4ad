"""The one retriever protocol and the one result type every retriever returns (fusion wraps it:
``maguyva.retrieve.fuse.FusedHit``).

The four retrievers (``text.TextRetriever``, ``structure.StructureRetriever``,
``graph.GraphRetriever``, ``semantic.SemanticRetriever``) are built with what they read (the store,
an embedder, a centrality) and then all asked the same way: ``retrieve(query, limit)``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

if TYPE_CHECKING:
    from maguyva.retrieve.query import ParsedQuery

MODALITIES = ("semantic", "text", "structure", "graph")


@dataclass(frozen=True, slots=True)
class Hit:
    """One place in the repository that answers a query; always citable as ``path:line``."""

    path: str
    line: int
    end_line: int
    symbol: str | None
    kind: str  # symbol kind, "chunk", "line", "file", "section"
    snippet: str
    score: float  # the retriever's own score (not comparable across modalities)
    modality: str  # one of MODALITIES, or "fusion"
    repo: str = ""  # set by multi-repo stores

    @property
    def citation(self) -> str:
        prefix = f"{self.repo}:" if self.repo else ""
        return f"{prefix}{self.path}:{self.line}"

    @classmethod
    def at_edge_source(cls, edge) -> Hit:
        """The reference site of a graph edge (where the call, import or inheritance is written)."""
        return cls(
            edge.src_path,
            edge.src_line,
            edge.src_line,
            edge.src_symbol,
            edge.kind,
            f"{edge.kind} {edge.name}",
            1.0,
            "graph",
        )

    def with_score(self, score: float, modality: str | None = None) -> Hit:
        return replace(self, score=score, modality=modality or self.modality)


@runtime_checkable
class Retriever(Protocol):
    """One modality's search: the places answering a parsed query, best first."""

    modality: ClassVar[str]  # one of MODALITIES

    def retrieve(self, query: ParsedQuery, limit: int) -> list[Hit]: ...
