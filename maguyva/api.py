"""The Maguyva library API: one object per indexed repository, behind the MCP tools and the CLI.

Every answer is a typed model (``maguyva.answers``) whose hits cite ``path:line``; answers are
bounded in size (default ≈ 8k tokens, hard cap 25k) and say so when they were truncated.
``Maguyva`` answers ``maguyva.tools.protocol.Retrieval`` (the eleven tools, declared in
``maguyva.tools.contract``); ranked search lives here, the other tools in ``maguyva.tools``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from maguyva.answer_json import DEFAULT_TOKENS, bound
from maguyva.errors import MaguyvaError
from maguyva.retrieve import structure
from maguyva.retrieve.hits import Hit
from maguyva.store.base import Store
from maguyva.store.batch import SymbolsOf

# Start-up: the answer models (pydantic) and the retrievers of ranked search are imported by the
# methods that use them, so `maguyva grep` / `maguyva symbol` (``search_text_json`` /
# ``find_symbol_json``) load neither; tests/test_cli_imports.py checks the import set.
if TYPE_CHECKING:  # the file ranker needs numpy: imported on the first ranked question, not by grep/symbol
    from maguyva import answers
    from maguyva.models import FileRecord
    from maguyva.retrieve.bm25f import FileIndex
    from maguyva.retrieve.hits import Retriever
    from maguyva.retrieve.message import MessageLines
    from maguyva.retrieve.query import ParsedQuery

# ``Maguyva.open``'s embedding settings: the repository's, read on first use (a grep never needs them)
FROM_CONFIG: Any = object()
DEMOTED_FLAGS = frozenset({"vendor", "build", "archive", "generated"})


@dataclass
class IndexCache:
    """What ``Maguyva`` remembers of its index between questions, each read on first use; a refresh of
    the index replaces the whole object, so nothing read from the old index survives it."""

    files: int | None = None  # how many files the index holds
    index: Any = None  # the file ranker's BM25F index (maguyva.retrieve.bm25f.FileIndex)
    prompts: frozenset[str] | None = None  # the repository's issue-template prompts
    records: dict | None = None  # every file's record, read in one query
    # the centrality rows asked for so far ((path, symbol or None) → row or None), fetched a list at a time
    central: dict = field(default_factory=dict)
    semantic_problem: str | None = None  # why semantic search is unavailable (said in an answer's notes)


@dataclass
class Maguyva:
    """Retrieval over one repository's index."""

    root: Path
    store: Store
    store_location: str
    embedder: Any = None  # maguyva.embed.base.Embedder; created lazily from the settings when None
    embedding_settings: Any = None  # maguyva.embed.settings.EmbeddingSettings, None, or FROM_CONFIG
    cache: IndexCache = field(default_factory=IndexCache)

    # ---- construction ------------------------------------------------------------------------

    @classmethod
    def open(
        cls, root: str | os.PathLike[str], store: str | None = None, *, readonly: bool = True
    ) -> Maguyva:
        from maguyva.store.location import locating

        located = locating(root, store)  # git answers while the store's modules are imported
        from maguyva.store import open_store

        root_path, location = located()  # the git top level when started in a subdirectory
        if readonly and isinstance(location, Path) and not location.exists():
            raise MaguyvaError(f"no index at {location}: run `orkestra code index` in {root_path} first")
        opened = open_store(location, readonly=readonly)
        recorded = opened.recorded_root()
        if recorded is not None and Path(recorded) in root_path.parents:  # a --store index's own root
            root_path = Path(recorded)
        return cls(root_path, opened, str(location), embedding_settings=FROM_CONFIG)

    def close(self) -> None:
        self.store.close()

    # ---- helpers -----------------------------------------------------------------------------

    def _file_count(self) -> int:
        if self.cache.files is None:
            self.cache.files = max(1, len(self.store.known_paths()))
        return self.cache.files

    def _prefetch_centrality(self, keys: Iterable[tuple[str, str | None]]) -> None:
        """Read the centrality of every (path, symbol) in ``keys`` and of their files, in one store call."""
        asked = list(keys)
        central = self.cache.central
        wanted = {(path, symbol) for path, symbol in asked} | {(path, None) for path, _ in asked}
        missing = [key for key in wanted if key not in central]
        if missing:
            found = self.store.centralities(missing)
            central.update({key: found.get(key) for key in missing})

    def _centrality(self, path: str, symbol: str | None = None) -> float:
        """PageRank scaled so the average node scores 1 (the boost formula's unit)."""
        central = self.cache.central
        if (path, symbol) not in central or (path, None) not in central:
            self._prefetch_centrality([(path, symbol)])
        row = central[(path, symbol)] or (central[(path, None)] if symbol else None)
        return row.pagerank * self._file_count() if row else 0.0

    def _record(self, path: str) -> FileRecord | None:
        if self.cache.records is None:
            self.cache.records = self.store.file_records(self.store.known_paths())
        return self.cache.records.get(path)

    def _demoted(self, hit: Hit) -> bool:
        record = self._record(hit.path)
        return bool(record and DEMOTED_FLAGS.intersection(record.flags))

    def _embedding_settings(self) -> Any:
        """The embedding settings given, or (``FROM_CONFIG``) the repository's, read now."""
        if self.embedding_settings is FROM_CONFIG:
            from maguyva.embed.settings import settings_for

            self.embedding_settings = settings_for(self.root)
        return self.embedding_settings

    def _semantic_embedder(self) -> Any:
        """The embedder when this index has vectors for it; else None (and why, for the response)."""
        from maguyva.embed.pipeline import model_key

        settings = self._embedding_settings()
        if self.embedder is None and (settings is None or settings.backend == "none"):
            self.cache.semantic_problem = "no embeddings backend configured"
            return None
        key = model_key(self.embedder or settings)
        if self.store.vector_coverage(key)[0] == 0:
            self.cache.semantic_problem = f"no {key} vectors in the index (run `orkestra code embed`)"
            return None
        if self.embedder is None:
            from maguyva.embed.base import EmbeddingError, shared_embedder

            try:
                self.embedder = shared_embedder(settings)
            except EmbeddingError as exc:
                self.cache.semantic_problem = str(exc)
                return None
        return self.embedder

    def available_modalities(self) -> tuple[str, ...]:
        if self._semantic_embedder() is not None:
            return ("semantic", "text", "structure", "graph")
        return ("text", "structure", "graph")

    # ---- search ------------------------------------------------------------------------------

    def intelligent_search(
        self,
        query: str,
        *,
        limit: int = 10,
        preset: str = "default",
        modalities: Sequence[str] | None = None,
        path_prefix: str | None = None,
        max_tokens: int = DEFAULT_TOKENS,
    ) -> answers.SearchAnswer:
        """Classify the question, run the retrievers its intent calls for, rank files, cite.

        ``limit`` counts files: each result is a file's best place, with more places of the same
        file under ``more``. A routed retriever that finds nothing falls back to the file ranker,
        and the answer says so in ``notes``.
        """
        from maguyva.answers import SearchAnswer
        from maguyva.retrieve.fuse import direct, fuse, plan_route
        from maguyva.retrieve.intent import classify
        from maguyva.retrieve.query import parse as parse_query
        from maguyva.tools.results import fused_result

        if not query.strip():
            raise MaguyvaError("query is empty")
        parsed = parse_query(query)  # the one parse every reader of the question reads
        intent = classify(parsed)
        message = self._message(parsed)
        terms = parsed.terms
        route = plan_route(
            intent, preset=preset, available=self.available_modalities(), modalities=modalities
        )
        notes = list(route.notes)
        depth = max(limit * 3, 20)
        # a task text goes to the file ranker: text, structure and graph would only re-find the ranker's
        # files, but embeddings (when the index has them) add what the words miss
        asked = (
            [m for m in route.weights if m == "semantic"]
            if parsed.is_task and not modalities
            else list(route.weights)
        )
        if message.files and not modalities:  # where the message is written is known: no literal search
            asked = [m for m in asked if m != "text"]
        # each routed retriever, asked the same way (maguyva.retrieve.hits.Retriever)
        ranked = {
            m: self._retrieve(self._retriever(m, intent.name), parsed, depth, path_prefix) for m in asked
        }
        self._prefetch_centrality((h.path, h.symbol) for hits in ranked.values() for h in hits)
        if modalities:
            strategy = route.strategy
            fused = (
                direct(ranked[next(iter(route.weights))], demoted=self._demoted, limit=limit)
                if strategy == "direct"
                else fuse(
                    ranked,
                    route,
                    centrality=lambda h: self._centrality(h.path, h.symbol),
                    demoted=self._demoted,
                    limit=limit,
                )
            )
            results = [fused_result(f) for f in fused]
        elif route.strategy == "direct" and ranked.get(next(iter(route.weights))) and not message.files:
            strategy = "direct"
            results = [
                fused_result(f)
                for f in direct(ranked[next(iter(route.weights))], demoted=self._demoted, limit=limit)
            ]
        else:
            if message.files:
                notes.append(
                    "read as a pasted message: cited where its text is written "
                    f"({', '.join(repr(f) for f in message.fragments[:3])})"
                )
            elif route.strategy == "direct":
                notes.append(
                    f"{next(iter(route.weights))} found nothing for the fast path; fell back to the "
                    f"file ranker"
                )
            strategy = "ranked"
            if message.files:  # the values filled in (a name, a URL, a number) are the user's, not the code's
                from maguyva.retrieve.message import fixed_text

                parsed = parse_query(fixed_text(query))
            written = message if message.files else self._quoted(parsed)
            results = self._ranked(parsed, intent.name, ranked, route.weights, path_prefix, limit, written)
        if not results:
            notes.append(
                "nothing matched"
                + (f" under {path_prefix!r}" if path_prefix else "")
                + "; try search_text for a literal, or find_symbol with find_similar=true"
            )
        if intent.name in ("find_references", "impact_analysis") and "graph" in ranked:
            from maguyva.retrieve.graph import total

            counted = total(self.store, terms)
            if counted is not None:
                verb = "call or use" if intent.name == "find_references" else "depend on"
                notes.append(
                    f"{counted[0]} definition(s) or file(s) in all {verb} {counted[1]} directly (the "
                    f"package's own code first, then examples and tests); find_references or "
                    f"analyze_dependencies list them all"
                )
        if "semantic" not in route.weights and self.cache.semantic_problem:
            notes.append(f"semantic: {self.cache.semantic_problem}")
        answer = SearchAnswer(
            query=query,
            intent=intent.name,
            confidence=intent.confidence,
            fusion_strategy=strategy,
            modalities_used=sorted(ranked),  # the retrievers that ran (a task text: the ranker's own)
            weights={m: round(w, 4) for m, w in sorted(route.weights.items())},
            k=route.k,
            notes=notes,
            results=results,
        )
        return bound(answer, "results", max_tokens)

    def _ranked(
        self,
        parsed: ParsedQuery,
        intent: str,
        ranked: dict[str, list[Hit]],
        weights: dict[str, float],
        path_prefix: str | None,
        limit: int,
        message: MessageLines | None = None,
    ) -> list[answers.SearchResult]:
        """The file ranker (``maguyva.retrieve.rank``) with the routed retrievers as one of its signals."""
        from maguyva.retrieve.rank import rank_files
        from maguyva.tools.results import file_result

        if parsed.is_task and self._issue_prompts():  # the repository's issue-template prompts say nothing
            from maguyva.retrieve.boilerplate import without_prompts
            from maguyva.retrieve.query import parse as parse_query

            parsed = parse_query(without_prompts(parsed.text, self._issue_prompts()))
        scores, named = rank_files(
            self.store,
            self._file_index(),
            parsed,
            kinds=self._file_kind,
            centrality=self._file_centrality,
            retrievers=ranked,
            retriever_weights=weights,
            path_prefix=path_prefix,
            limit=limit,
            message=message.files if message else None,
        )
        places = {h.path: h for hits in ranked.values() for h in reversed(hits)}
        words = parsed.stems  # the question's weighted words, as the ranker read them
        store = SymbolsOf(self.store, [f.path for f in scores])  # every result file's symbols in one read
        written = message.lines if message else {}
        index = self._file_index()
        return [
            file_result(
                index, store, f, named.get(f.path, []), places.get(f.path), parsed, words, written.get(f.path)
            )
            for f in scores
        ]

    def _message(self, parsed: ParsedQuery) -> MessageLines:
        """Where a pasted message is written in code (empty when the query is no message)."""
        from maguyva.retrieve.message import MessageLines, find, is_message

        if not is_message(parsed):
            return MessageLines()
        return find(self.store, parsed.text, self._file_kind)

    def _quoted(self, parsed: ParsedQuery) -> MessageLines:
        """Where the phrases a short question quotes are written in code."""
        from maguyva.retrieve.message import quoted

        return quoted(self.store, parsed, self._file_kind)

    def _issue_prompts(self) -> frozenset[str]:
        if self.cache.prompts is None:
            from maguyva.retrieve.boilerplate import store_templates

            self.cache.prompts = store_templates(self.store)
        return self.cache.prompts

    def _file_index(self) -> FileIndex:
        if self.cache.index is None:
            from maguyva.retrieve.cache import load_file_index

            self.cache.index = load_file_index(self.store, self.store_location)
        return self.cache.index

    def _file_centrality(self, path: str) -> float:
        """A file's scaled PageRank, kept with the ranker's index (it asks for hundreds per question)."""
        index = self._file_index()
        position = index.position.get(path)
        return float(index.pagerank[position]) * len(index.paths) if position is not None else 0.0

    def _file_kind(self, path: str) -> str | None:
        """Why a file is demoted (``maguyva.retrieve.rank.file_kind``), kept with the ranker's index."""
        index = self._file_index()
        position = index.position.get(path)
        if position is not None:
            return str(index.kinds[position]) or None
        from maguyva.retrieve.rank import file_kind

        record = self._record(path)
        return file_kind(path, record.flags if record else (), record.language if record else None)

    def _retriever(self, modality: str, intent: str) -> Retriever:
        """The retriever of one modality, built for one question (each module is imported when asked)."""
        if modality == "text":
            from maguyva.retrieve.text import TextRetriever

            return TextRetriever(self.store)
        if modality == "structure":
            return structure.StructureRetriever(self.store, self._centrality, self._prefetch_centrality)
        if modality == "graph":
            from maguyva.retrieve.graph import GraphRetriever

            return GraphRetriever(self.store, intent)
        from maguyva.retrieve.semantic import SemanticRetriever

        return SemanticRetriever(self.store, self._semantic_embedder())

    def _retrieve(
        self, retriever: Retriever, query: ParsedQuery, depth: int, path_prefix: str | None = None
    ) -> list[Hit]:
        """One retriever's hits, restricted to ``path_prefix`` inside the retriever (asked deeper so it fills)."""
        ask = depth * 4 if path_prefix else depth
        hits = retriever.retrieve(query, ask)
        if path_prefix:
            hits = [h for h in hits if h.path.startswith(path_prefix)]
        return hits[:depth]

    # ---- the other tools (maguyva.tools) -----------------------------------------------------

    def find_symbol(
        self,
        symbol_name: str,
        *,
        kind: str | None = None,
        find_similar: bool = False,
        exact_match: bool = False,
        limit: int = 20,
    ) -> answers.SymbolAnswer:
        """Exact by default: a missing name gives an empty list unless ``find_similar`` (never with exact_match).
        Built from its JSON (``find_symbol_json``: what ``maguyva symbol`` prints without pydantic)."""
        from maguyva.answers import SymbolAnswer

        return SymbolAnswer.model_validate(
            self.find_symbol_json(
                symbol_name, kind=kind, find_similar=find_similar, exact_match=exact_match, limit=limit
            )
        )

    def find_symbol_json(self, symbol_name: str, **options: Any) -> dict:
        """``find_symbol``'s answer as its JSON, without building the model (the CLI's fast path); the
        options and their defaults are ``find_symbol``'s (``maguyva.tools.contract``)."""
        from maguyva.tools.contract import defaults
        from maguyva.tools.symbols import find_symbol_json

        return find_symbol_json(self.store, symbol_name, **(defaults("find_symbol") | options))

    def find_references(
        self,
        symbol_name: str,
        *,
        limit: int = 50,
        include_possible: bool = False,
        max_tokens: int = DEFAULT_TOKENS,
    ) -> answers.ReferencesAnswer:
        """Every in-repo reference to a symbol (calls, imports, inheritance, type uses), at the use site.

        Each carries its ``resolution`` (resolved, inferred); ``include_possible`` adds the calls of
        that name whose receiver's type is not known (``ambiguous``, marked ``possible``)."""
        from maguyva.tools.symbols import find_references

        return find_references(
            self.store, symbol_name, limit=limit, include_possible=include_possible, max_tokens=max_tokens
        )

    def analyze_dependencies(
        self,
        target: str,
        *,
        direction: str = "both",
        depth: int = 2,
        limit: int = 100,
        include_ambiguous: bool = False,
        max_tokens: int = DEFAULT_TOKENS,
    ) -> answers.DependenciesAnswer:
        """Callers, callees, or the impact (blast radius to ``depth``) of a path or a symbol.

        Callers and callees carry their ``resolution``; ``include_ambiguous`` adds possible callers
        (calls of the name on receivers of unknown type) and lists ambiguous callees with candidates."""
        from maguyva.tools.symbols import analyze_dependencies

        return analyze_dependencies(
            self.store,
            target,
            direction=direction,
            depth=depth,
            limit=limit,
            include_ambiguous=include_ambiguous,
            max_tokens=max_tokens,
        )

    def get_file(
        self,
        path: str,
        *,
        start_line: int | None = None,
        end_line: int | None = None,
        include_metadata: bool = False,
        max_tokens: int = DEFAULT_TOKENS,
    ) -> answers.FileAnswer:
        """A file's lines (optionally a range), numbered; confined to the repository (``maguyva.tools.reading``)."""
        from maguyva.tools.reading import get_file

        located = self._file_content(path, ranged=start_line is not None or end_line is not None)
        return get_file(
            self.store,
            located,
            start_line=start_line,
            end_line=end_line,
            include_metadata=include_metadata,
            max_tokens=max_tokens,
        )

    def _file_content(self, path: str, *, ranged: bool) -> tuple[str, str | None, Path | None]:
        """(repo-relative path, the text from the index, the file on disk): a team store has no disk."""
        from maguyva.tools.reading import file_content

        return file_content(self.root, self.store, path, ranged=ranged)

    def search_text(
        self,
        pattern: str,
        *,
        regex: bool = False,
        case_sensitive: bool = False,
        path_prefix: str | None = None,
        limit: int = 50,
        max_tokens: int = DEFAULT_TOKENS,
    ) -> answers.TextAnswer:
        """Literal (trigram index) or regex search; one hit per matching line. Built from its JSON
        (``search_text_json``: what ``maguyva grep`` prints without pydantic)."""
        from maguyva.answers import TextAnswer

        return TextAnswer.model_validate(
            self.search_text_json(
                pattern,
                regex=regex,
                case_sensitive=case_sensitive,
                path_prefix=path_prefix,
                limit=limit,
                max_tokens=max_tokens,
            )
        )

    def search_text_json(self, pattern: str, **options: Any) -> dict:
        """``search_text``'s answer as its JSON, without building the model (the CLI's fast path); the
        options and their defaults are ``search_text``'s (``maguyva.tools.contract``)."""
        from maguyva.tools.contract import defaults
        from maguyva.tools.text import search_text_json

        return search_text_json(self.store, pattern, **(defaults("search_text") | options))

    def search_structure(
        self,
        *,
        kind: str | None = None,
        name: str | None = None,
        signature_contains: str | None = None,
        path_prefix: str | None = None,
        limit: int = 50,
    ) -> answers.StructureAnswer:
        """Definitions filtered by kind, name (glob, e.g. ``parse_*``) and signature text."""
        from maguyva.tools.text import search_structure

        return search_structure(
            self.store,
            kind=kind,
            name=name,
            signature_contains=signature_contains,
            path_prefix=path_prefix,
            limit=limit,
        )

    def repo_overview(self, *, hubs: int = 15) -> answers.OverviewAnswer:
        """Languages, top-level layout, hubs by centrality and likely entry points."""
        from maguyva.tools.overview import repo_overview

        return repo_overview(self.store, self.root, hubs=hubs)

    def gather_task_context(self, task: str, *, token_budget: int = 4_000) -> answers.ContextAnswer:
        """Ranked, cited snippets for a task description, packed into ``token_budget`` tokens."""
        from maguyva.tools.context import gather_task_context

        return gather_task_context(self, task, token_budget)

    def result_texts(self, results: Sequence[answers.SearchResult]) -> Mapping[tuple[str | None, str], str]:
        """The texts of ``results``' files in one store call, keyed as ``maguyva.tools.context.text_key``."""
        from maguyva.tools.context import text_key

        texts = self.store.file_texts({r.path for r in results}) if results else {}
        return {text_key(r): texts[r.path] for r in results if r.path in texts}

    # ---- index -------------------------------------------------------------------------------

    def index_status(self) -> answers.StatusAnswer:
        """Snapshot commit and time, counts per language, and files added, changed or deleted since."""
        from maguyva.tools.overview import index_status

        return index_status(self.store, self.root, self.store_location, self._embedding_settings())

    def refresh_index(self) -> answers.RefreshAnswer:
        """Bring the index up to date incrementally (only changed files are re-processed); what was
        remembered of the old index (``IndexCache``) is dropped whole."""
        from maguyva.answers import RefreshAnswer
        from maguyva.index.pipeline import index_repository

        summary = index_repository(self.root, self.store_location)
        self.cache = IndexCache()
        return RefreshAnswer.model_validate(summary.to_dict())
