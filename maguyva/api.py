"""The Maguyva library API: one object per indexed repository, behind the MCP tools and the CLI.

Every answer is a typed model (``maguyva.answers``) whose hits cite ``path:line``; answers are
bounded in size (default ≈ 8k tokens, hard cap 25k) and say so when they were truncated.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from maguyva.answer_json import DEFAULT_TOKENS, MAX_TOKENS, bound, bound_json, estimate_tokens, hit_dict
from maguyva.errors import MaguyvaError
from maguyva.files import confine, read_lines
from maguyva.retrieve import structure
from maguyva.retrieve.hits import Hit
from maguyva.store.base import Store
from maguyva.store.batch import SymbolsOf
from maguyva.store.lines import split_lines

# Start-up: the answer models (pydantic) and the retrievers of ranked search are imported by the
# methods that use them, so `maguyva grep` / `maguyva symbol` (``search_text_json`` /
# ``find_symbol_json``) load neither; tests/test_cli_imports.py checks the import set.
if TYPE_CHECKING:  # the file ranker needs numpy: imported on the first ranked question, not by grep/symbol
    from maguyva.answers import (
        ContextAnswer,
        DependenciesAnswer,
        FileAnswer,
        OverviewAnswer,
        Place,
        ReferencesAnswer,
        RefreshAnswer,
        SearchAnswer,
        SearchResult,
        StatusAnswer,
        StructureAnswer,
        SymbolAnswer,
        TextAnswer,
    )
    from maguyva.models import FileRecord
    from maguyva.retrieve.bm25f import FileIndex
    from maguyva.retrieve.fuse import FusedHit
    from maguyva.retrieve.message import MessageLines
    from maguyva.retrieve.query import ParsedQuery
    from maguyva.retrieve.rank import FileScore

MAX_FILE_BYTES = 1_000_000
MAX_FILTER_CHARS = 2_000  # a search_structure filter (as a regex pattern: maguyva.retrieve.safe_regex)
# ``Maguyva.open``'s embedding settings: the repository's, read on first use (a grep never needs them)
FROM_CONFIG: Any = object()
DEMOTED_FLAGS = frozenset({"vendor", "build", "archive", "generated"})


@dataclass
class Maguyva:
    """Retrieval over one repository's index."""

    root: Path
    store: Store
    store_location: str
    embedder: Any = None  # maguyva.embed.base.Embedder; created lazily from the settings when None
    embedding_settings: Any = None  # maguyva.embed.settings.EmbeddingSettings, None, or FROM_CONFIG
    _files: int | None = None
    _semantic_problem: str | None = None
    _index: Any = None  # the file ranker's BM25F index, built on first use
    _prompts: frozenset | None = None  # the repository's issue-template prompts, read on first use
    # batched reads, remembered for this index: every file's record (one query, on first use) and the
    # centrality rows asked for so far ((path, symbol or None) → row or None), fetched a list at a time
    _records: dict | None = None
    _central: dict = field(default_factory=dict)
    _texts: dict = field(default_factory=dict)  # the texts of one answer's files (gather_task_context)

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
        if self._files is None:
            self._files = max(1, len(self.store.known_paths()))
        return self._files

    def _prefetch_centrality(self, keys: Iterable[tuple[str, str | None]]) -> None:
        """Read the centrality of every (path, symbol) in ``keys`` and of their files, in one store call."""
        asked = list(keys)
        wanted = {(path, symbol) for path, symbol in asked} | {(path, None) for path, _ in asked}
        missing = [key for key in wanted if key not in self._central]
        if missing:
            found = self.store.centralities(missing)
            self._central.update({key: found.get(key) for key in missing})

    def _centrality(self, path: str, symbol: str | None = None) -> float:
        """PageRank scaled so the average node scores 1 (the boost formula's unit)."""
        if (path, symbol) not in self._central or (path, None) not in self._central:
            self._prefetch_centrality([(path, symbol)])
        row = self._central[(path, symbol)] or (self._central[(path, None)] if symbol else None)
        return row.pagerank * self._file_count() if row else 0.0

    def _record(self, path: str) -> FileRecord | None:
        if self._records is None:
            self._records = self.store.file_records(self.store.known_paths())
        return self._records.get(path)

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
            self._semantic_problem = "no embeddings backend configured"
            return None
        key = model_key(self.embedder or settings)
        if self.store.vector_coverage(key)[0] == 0:
            self._semantic_problem = f"no {key} vectors in the index (run `orkestra code embed`)"
            return None
        if self.embedder is None:
            from maguyva.embed.base import EmbeddingError, shared_embedder

            try:
                self.embedder = shared_embedder(settings)
            except EmbeddingError as exc:
                self._semantic_problem = str(exc)
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
    ) -> SearchAnswer:
        """Classify the question, run the retrievers its intent calls for, rank files, cite.

        ``limit`` counts files: each result is a file's best place, with more places of the same
        file under ``more``. A routed retriever that finds nothing falls back to the file ranker,
        and the answer says so in ``notes``.
        """
        from maguyva.answers import SearchAnswer
        from maguyva.retrieve.fuse import direct, fuse, plan_route
        from maguyva.retrieve.intent import classify, extract_terms
        from maguyva.retrieve.query import parse as parse_query

        if not query.strip():
            raise MaguyvaError("query is empty")
        parsed = parse_query(query)
        intent = classify(query)
        message = self._message(parsed)
        terms = extract_terms(query) if not parsed.is_task else []
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
        ranked = {m: self._retrieve(m, intent.name, query, terms, depth, path_prefix) for m in asked}
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
            results = [self._fused_dict(f) for f in fused]
        elif route.strategy == "direct" and ranked.get(next(iter(route.weights))) and not message.files:
            strategy = "direct"
            results = [
                self._fused_dict(f)
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
        if "semantic" not in route.weights and self._semantic_problem:
            notes.append(f"semantic: {self._semantic_problem}")
        answer = {
            "query": query,
            "intent": intent.name,
            "confidence": intent.confidence,
            "fusion_strategy": strategy,
            "modalities_used": sorted(ranked),  # the retrievers that ran (a task text: the ranker's own)
            "weights": {m: round(w, 4) for m, w in sorted(route.weights.items())},
            "k": route.k,
            "notes": notes,
            "results": results,
        }
        return bound(SearchAnswer.model_validate(answer), "results", max_tokens)

    def _ranked(
        self,
        parsed: ParsedQuery,
        intent: str,
        ranked: dict[str, list[Hit]],
        weights: dict[str, float],
        path_prefix: str | None,
        limit: int,
        message: MessageLines | None = None,
    ) -> list[dict]:
        """The file ranker (``maguyva.retrieve.rank``) with the routed retrievers as one of its signals."""
        from maguyva.retrieve.rank import query_terms, rank_files

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
        words = query_terms(parsed)
        store = SymbolsOf(self.store, [f.path for f in scores])  # every result file's symbols in one read
        written = message.lines if message else {}
        return [
            self._file_result(
                store, f, named.get(f.path, []), places.get(f.path), parsed, words, written.get(f.path)
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

    def _file_result(
        self,
        store: Any,
        scored: FileScore,
        named: list,
        found: Hit | None,
        parsed: ParsedQuery,
        words: dict[str, float],
        literal_lines: dict[int, float] | None = None,
    ) -> dict:
        from maguyva.retrieve.places import best_places

        index = self._file_index()
        chosen = best_places(
            store,
            scored.path,
            named,
            found,
            parsed,
            words,
            scores=index.symbol_scores_of(scored.path),
            literal_lines=literal_lines,
        )
        first, more = chosen[0], chosen[1:]
        return hit_dict(
            first,
            score=round(scored.score, 6),
            found_by=sorted(scored.signals),
            signals=scored.signals,
            demoted=scored.demotion is not None,
            **({"demoted_as": scored.demotion} if scored.demotion else {}),
            more=[
                {
                    "citation": h.citation,
                    "line": h.line,
                    "end_line": h.end_line,
                    "symbol": h.symbol,
                    "kind": h.kind,
                }
                for h in more
            ],
        )

    def _issue_prompts(self) -> frozenset[str]:
        if self._prompts is None:
            from maguyva.retrieve.boilerplate import store_templates

            self._prompts = store_templates(self.store)
        return self._prompts

    def _file_index(self) -> FileIndex:
        if self._index is None:
            from maguyva.retrieve.cache import load_file_index

            self._index = load_file_index(self.store, self.store_location)
        return self._index

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

    def _fused_dict(self, fused: FusedHit) -> dict:
        return hit_dict(
            fused.hit,
            score=round(fused.score, 6),
            found_by=sorted(fused.ranks),
            boost=round(fused.boost, 3),
            demoted=fused.demoted,
        )

    def _retrieve(
        self,
        modality: str,
        intent: str,
        query: str,
        terms: list[str],
        depth: int,
        path_prefix: str | None = None,
    ) -> list[Hit]:
        """One retriever's hits, restricted to ``path_prefix`` inside the retriever (asked deeper so it fills)."""
        from maguyva.retrieve import graph, text

        ask = depth * 4 if path_prefix else depth
        if modality == "text":
            hits = text.search(self.store, query, terms, limit=ask)
        elif modality == "structure":
            hits = structure.search(
                self.store,
                terms,
                query,
                limit=ask,
                centrality=self._centrality,
                prefetch=self._prefetch_centrality,
            )
        elif modality == "graph":
            hits = graph.search(self.store, intent, terms, limit=ask)
        else:
            from maguyva.retrieve import semantic

            hits = semantic.search(self.store, self._semantic_embedder(), query, limit=ask)
        if path_prefix:
            hits = [h for h in hits if h.path.startswith(path_prefix)]
        return hits[:depth]

    # ---- symbols -----------------------------------------------------------------------------

    def find_symbol(
        self,
        symbol_name: str,
        *,
        kind: str | None = None,
        find_similar: bool = False,
        exact_match: bool = False,
        limit: int = 20,
    ) -> SymbolAnswer:
        """Exact by default: a missing name gives an empty list unless ``find_similar`` (never with exact_match)."""
        from maguyva.answers import SymbolAnswer

        return SymbolAnswer.model_validate(
            self.find_symbol_json(
                symbol_name, kind=kind, find_similar=find_similar, exact_match=exact_match, limit=limit
            )
        )

    def find_symbol_json(
        self,
        symbol_name: str,
        *,
        kind: str | None = None,
        find_similar: bool = False,
        exact_match: bool = False,
        limit: int = 20,
    ) -> dict:
        """``find_symbol``'s answer as its JSON, without building the model (the CLI's fast path)."""
        found = structure.find(self.store, symbol_name, kind=kind, limit=limit)
        if exact_match:
            found = [s for s in found if symbol_name in (s.name, s.qualified_name)]
        fuzzy = False
        if not found and find_similar and not exact_match:
            found = structure.similar(self.store, symbol_name, kind=kind, limit=limit)
            fuzzy = bool(found)
        symbols = [
            hit_dict(
                structure.symbol_hit(s, 1.0),
                qualified_name=s.qualified_name,
                signature=s.signature,
                doc=s.doc,
            )
            for s in found
        ]
        if found and not fuzzy and "." in symbol_name:
            from maguyva.retrieve import inherited

            origin = {
                (m.path, m.qualified_name): cls
                for m, cls in inherited.find(self.store, symbol_name, kind=kind)
            }
            for entry in symbols:
                cls = origin.get((entry["path"], entry["qualified_name"]))
                if cls is not None:  # asked on a subclass, defined on a base
                    entry["inherited_by"] = cls.qualified_name
                    entry["inherited_from"] = entry["qualified_name"].rsplit(".", 1)[0]
        return {
            "symbol_name": symbol_name,
            "match": "similar" if fuzzy else "exact",
            "count": len(symbols),
            "symbols": symbols,
        }

    def find_references(
        self,
        symbol_name: str,
        *,
        limit: int = 50,
        include_possible: bool = False,
        max_tokens: int = DEFAULT_TOKENS,
    ) -> ReferencesAnswer:
        """Every in-repo reference to a symbol (calls, imports, inheritance, type uses), at the use site.

        Each carries its ``resolution`` (resolved, inferred); ``include_possible`` adds the calls of
        that name whose receiver's type is not known (``ambiguous``, marked ``possible``)."""
        from maguyva.answers import ReferencesAnswer
        from maguyva.retrieve import graph

        targets = graph.resolve_targets(self.store, symbol_name)
        refs = []
        for target in targets:
            refs += [
                _edge_hit(e, target=target.symbol or target.path)
                for e in graph.incoming(self.store, target, limit, possible=include_possible)
            ]
        answer = {
            "symbol_name": symbol_name,
            "definitions": [f"{t.path}:{t.line}" for t in targets],
            "count": len(refs),
            "references": refs[:limit],
        }
        return bound(ReferencesAnswer.model_validate(answer), "references", max_tokens)

    def analyze_dependencies(
        self,
        target: str,
        *,
        direction: str = "both",
        depth: int = 2,
        limit: int = 100,
        include_ambiguous: bool = False,
        max_tokens: int = DEFAULT_TOKENS,
    ) -> DependenciesAnswer:
        """Callers, callees, or the impact (blast radius to ``depth``) of a path or a symbol.

        Callers and callees carry their ``resolution``; ``include_ambiguous`` adds possible callers
        (calls of the name on receivers of unknown type) and lists ambiguous callees with candidates."""
        from maguyva.answers import DependenciesAnswer
        from maguyva.retrieve import graph

        if direction not in ("callers", "callees", "both", "impact"):
            raise MaguyvaError(f"unknown direction {direction!r} (callers, callees, both, impact)")
        targets = graph.resolve_targets(self.store, target)
        if not targets:
            raise MaguyvaError(
                f"{target!r} is neither an indexed path nor a known symbol; "
                f"try find_symbol with find_similar=true"
            )
        answer: dict[str, Any] = {
            "target": target,
            "resolved": [f"{t.path}:{t.line}" for t in targets],
            "direction": direction,
        }
        entries: list[dict] = []
        for node in targets:
            if direction in ("callers", "both"):
                entries += [
                    _edge_hit(e, relation="caller")
                    for e in graph.incoming(self.store, node, limit, possible=include_ambiguous)
                ]
            if direction in ("callees", "both"):
                entries += [
                    hit_dict(h, relation="callee", resolution=e.resolution)
                    for h, e in graph.callee_edges(self.store, node, limit)
                ]
                entries += [
                    {
                        "relation": "ambiguous" if e.resolution == "ambiguous" else "external",
                        "name": e.name,
                        "kind": e.kind,
                        "citation": f"{e.src_path}:{e.src_line}",
                        "resolution": e.resolution,
                        "reason": e.reason,
                    }
                    for e in graph.external_callees(self.store, node)[:limit]
                    if include_ambiguous or e.resolution != "ambiguous"
                ]
            if direction == "impact":
                for item in graph.impact(self.store, node, depth=depth, limit=limit):
                    entries.append(
                        {
                            "relation": "impacted",
                            "citation": f"{item.path}:{item.line}",
                            "path": item.path,
                            "line": item.line,
                            "symbol": item.symbol,
                            "depth": item.depth,
                            "via": item.via,
                        }
                    )
        if direction == "impact":
            answer["files_affected"] = len({e["path"] for e in entries})
        answer["count"] = len(entries)
        answer["entries"] = entries
        return bound(DependenciesAnswer.model_validate(answer), "entries", max_tokens)

    # ---- files and text ----------------------------------------------------------------------

    def get_file(
        self,
        path: str,
        *,
        start_line: int | None = None,
        end_line: int | None = None,
        include_metadata: bool = False,
        max_tokens: int = DEFAULT_TOKENS,
    ) -> FileAnswer:
        """A file's lines (optionally a range), numbered; confined to the repository.

        A file on disk is streamed (``maguyva.files.read_lines``): a range of a huge file costs the
        bytes it returns, never the file's size in memory.
        """
        from maguyva.answers import FileAnswer

        ranged = start_line is not None or end_line is not None
        relative, content, on_disk = self._file_content(path, ranged=ranged)
        first = max(1, start_line or 1)
        record = self.store.file_record(relative) if include_metadata else None
        cut, digest = None, None
        if on_disk is not None:
            budget = max(200, min(max_tokens, MAX_TOKENS))  # what ``bound`` keeps at most, in tokens
            try:
                piece = read_lines(
                    on_disk, first, end_line, min(MAX_FILE_BYTES, 3 * budget), digest=record is not None
                )
            except OSError as exc:
                raise MaguyvaError(f"{relative}: cannot read: {exc.strerror}") from None
            lines, total, cut, digest = piece.lines, piece.total, piece.cut, piece.digest
            if piece.partial:  # one line longer than the budget: cut to what its JSON can hold
                lines[-1] = _fit_json(lines[-1], 3 * budget)
        else:
            every = split_lines(content or "")
            lines, total = every[first - 1 : end_line], len(every)
        last = min(total, end_line or total)
        if first > last and total:
            raise MaguyvaError(f"line range {first}-{last} is outside {relative} (1-{total})")
        if cut is not None:
            last = first + len(lines) - 1 if lines else first
        numbered = [{"line": first + n, "text": text} for n, text in enumerate(lines)]
        answer: dict[str, Any] = {
            **({"truncated": True, "truncation_note": f"{cut}; ask for a narrower range"} if cut else {}),
            "path": relative,
            "citation": f"{relative}:{first}",
            "start_line": first,
            "end_line": last,
            "total_lines": total,
            "lines": numbered,
        }
        if include_metadata:
            answer["metadata"] = {
                "language": record.language if record else None,
                "flags": list(record.flags) if record else [],
                "indexed": record is not None,
                "stale": record is not None and digest is not None and record.content_hash != digest,
                "symbols": [hit_dict(structure.symbol_hit(s, 1.0)) for s in self.store.symbols_in(relative)][
                    :100
                ],
            }
        bounded = bound(FileAnswer.model_validate(answer), "lines", max_tokens)
        if bounded.truncated is True:
            bounded = bounded.model_copy(
                update={"end_line": bounded.lines[-1].line if bounded.lines else first}
            )
        return bounded

    def _file_content(self, path: str, *, ranged: bool) -> tuple[str, str | None, Path | None]:
        """(repo-relative path, the text from the index, the file on disk): one of the two is None.

        A file on disk is preferred (and streamed by ``get_file``); one larger than ``MAX_FILE_BYTES``
        is read only by line range.
        """
        full = confine(self.root, path)
        relative = full.relative_to(self.root).as_posix()
        try:
            if full.is_file():
                if full.stat().st_size > MAX_FILE_BYTES and not ranged:
                    raise MaguyvaError(
                        f"{relative} is larger than {MAX_FILE_BYTES} bytes; ask for a line range"
                    )
                return relative, None, full
        except OSError as exc:  # unreadable, or a name too long for the file system: the index may hold it
            if exc.errno != errno.ENAMETOOLONG:
                raise MaguyvaError(f"{relative}: cannot read: {exc.strerror}") from None
        content = self.store.file_text(relative)
        if content is None:
            raise MaguyvaError(f"no file {relative!r} in the repository")
        return relative, content, None

    def search_text(
        self,
        pattern: str,
        *,
        regex: bool = False,
        case_sensitive: bool = False,
        path_prefix: str | None = None,
        limit: int = 50,
        max_tokens: int = DEFAULT_TOKENS,
    ) -> TextAnswer:
        """Literal (trigram index) or regex search; one hit per matching line."""
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

    def search_text_json(
        self,
        pattern: str,
        *,
        regex: bool = False,
        case_sensitive: bool = False,
        path_prefix: str | None = None,
        limit: int = 50,
        max_tokens: int = DEFAULT_TOKENS,
    ) -> dict:
        """``search_text``'s answer as its JSON, without building the model (the CLI's fast path)."""
        from maguyva.retrieve import text

        stopped = None
        if regex:
            found = text.regex(self.store, pattern, limit=limit * 4, case_sensitive=case_sensitive)
            hits, stopped = found.hits, found.stopped
        else:
            hits = text.literal(self.store, pattern, limit=limit * 4)
            if case_sensitive:
                hits = [h for h in hits if pattern in h.snippet]
        if path_prefix:
            hits = [h for h in hits if h.path.startswith(path_prefix)]
        answer = {
            **({"truncated": True, "truncation_note": stopped} if stopped else {}),
            "pattern": pattern,
            "regex": regex,
            "count": len(hits[:limit]),
            "results": [hit_dict(h) for h in hits[:limit]],
        }
        return bound_json(answer, "results", max_tokens)

    def search_structure(
        self,
        *,
        kind: str | None = None,
        name: str | None = None,
        signature_contains: str | None = None,
        path_prefix: str | None = None,
        limit: int = 50,
    ) -> StructureAnswer:
        """Definitions filtered by kind, name (glob, e.g. ``parse_*``) and signature text."""
        from maguyva.answers import StructureAnswer

        if not (kind or name or signature_contains):
            raise MaguyvaError("give at least one of kind, name, signature_contains")
        filters = {
            "kind": kind,
            "name": name,
            "signature_contains": signature_contains,
            "path_prefix": path_prefix,
        }
        for field_name, value in filters.items():  # SQLite refuses LIKE/GLOB patterns over 50,000 bytes
            if value is not None and len(value) > MAX_FILTER_CHARS:
                raise MaguyvaError(
                    f"{field_name} is {len(value)} characters, the limit is {MAX_FILTER_CHARS}; shorten it"
                )
        symbols = self.store.query_symbols(
            kind=kind, name_glob=name, signature_like=signature_contains, path_prefix=path_prefix, limit=limit
        )
        return StructureAnswer(
            count=len(symbols),
            results=[hit_dict(structure.symbol_hit(s, 1.0), signature=s.signature) for s in symbols],
        )

    # ---- repository context ------------------------------------------------------------------

    def repo_overview(self, *, hubs: int = 15) -> OverviewAnswer:
        """Languages, top-level layout, hubs by centrality and likely entry points."""
        from maguyva.answers import OverviewAnswer

        stats = self.store.language_stats()
        paths = sorted(self.store.known_paths())
        layout: dict[str, int] = {}
        for path in paths:
            top = path.split("/", 1)[0] if "/" in path else "."
            layout[top] = layout.get(top, 0) + 1
        entry_names = (
            "__main__.py",
            "main.py",
            "cli.py",
            "app.py",
            "server.py",
            "index.js",
            "main.go",
            "main.rs",
            "Main.java",
            "Program.cs",
            "setup.py",
            "pyproject.toml",
            "package.json",
        )
        entries = [p for p in paths if p.rsplit("/", 1)[-1] in entry_names][:20]
        top_files = self.store.top_central(hubs, files=True)
        top_symbols = self.store.top_central(hubs)
        defined = self.store.symbols_in_paths(c.path for c in top_symbols)
        snapshot = self.store.snapshot()
        return OverviewAnswer.model_validate(
            {
                "root": str(self.root),
                "files": len(paths),
                "languages": [s.as_row() for s in stats],
                "layout": [
                    {"dir": d, "files": n} for d, n in sorted(layout.items(), key=lambda kv: (-kv[1], kv[0]))
                ],
                "hub_files": [
                    {
                        "citation": f"{c.path}:1",
                        "path": c.path,
                        "pagerank": round(c.pagerank, 6),
                        "in_degree": c.in_degree,
                    }
                    for c in top_files
                ],
                "hub_symbols": [
                    {
                        "symbol": c.symbol,
                        "path": c.path,
                        "pagerank": round(c.pagerank, 6),
                        "in_degree": c.in_degree,
                        "citation": _symbol_citation(defined[c.path], c.path, c.symbol),
                    }
                    for c in top_symbols
                ],
                "entry_points": entries,
                "snapshot": snapshot.as_dict() if snapshot else None,
            }
        )

    def gather_task_context(self, task: str, *, token_budget: int = 4_000) -> ContextAnswer:
        """Ranked, cited snippets for a task description, packed into ``token_budget`` tokens."""
        from maguyva.answers import ContextAnswer

        budget = max(300, min(token_budget, MAX_TOKENS))
        found = self.intelligent_search(task, limit=25, preset="thorough", max_tokens=MAX_TOKENS)
        snippets: list[dict] = []
        used = estimate_tokens({"task": task, "snippets": []})
        skipped = 0
        # every file's best place first, then the files' further places while the budget allows
        places = [(r, r) for r in found.results] + [(r, m) for r in found.results for m in r.get("more", [])]
        self._prefetch_texts(found.results)
        for rank, (result, place) in enumerate(places):
            body = self._place_text(result, place)
            item = {
                "citation": place.citation,
                "symbol": place.symbol,
                "kind": place.kind,
                "score": result.score,
                "text": body,
                **({"repo": result.repo} if "repo" in result else {}),
            }
            cost = estimate_tokens(item)
            if used + cost > budget:
                short = {**item, "text": "\n".join(body.splitlines()[:8])}
                cost = estimate_tokens(short)
                if used + cost > budget:
                    skipped += rank < len(found.results)
                    continue
                item = short
            snippets.append(item)
            used += cost
        self._prefetch_texts([])
        return ContextAnswer(
            task=task,
            intent=found.intent,
            token_budget=budget,
            tokens_used=used,
            snippets=snippets,
            omitted=skipped,
        )

    def _prefetch_texts(self, results: Sequence[SearchResult]) -> None:
        """Read the texts of ``results``' files in one store call, for ``_span_text`` (none: forget them)."""
        self._texts = self.store.file_texts({r.path for r in results}) if results else {}

    def _place_text(self, result: SearchResult, place: Place) -> str:
        return self._span_text(result.path, place.line, place.end_line)

    def _span_text(self, path: str, line: int, end_line: int, max_lines: int = 60) -> str:
        content = self._texts[path] if path in self._texts else self.store.file_text(path) or ""
        lines = split_lines(content)
        end = min(max(end_line, line), line + max_lines - 1)
        return "\n".join(f"{n}: {lines[n - 1]}" for n in range(line, min(end, len(lines)) + 1))

    # ---- index -------------------------------------------------------------------------------

    def index_status(self) -> StatusAnswer:
        """Snapshot commit and time, counts per language, and files added, changed or deleted since."""
        from maguyva.answers import StatusAnswer
        from maguyva.index.git import uncommitted_paths
        from maguyva.status import read_status

        report = read_status(
            self.store, self.root, self.store_location, embedding_settings=self._embedding_settings()
        )
        return StatusAnswer.model_validate(report.tool_dict(uncommitted_paths(self.root)))

    def refresh_index(self) -> RefreshAnswer:
        """Bring the index up to date incrementally (only changed files are re-processed)."""
        from maguyva.answers import RefreshAnswer
        from maguyva.index.pipeline import index_repository

        summary = index_repository(self.root, self.store_location)
        self._files, self._index = None, None
        self._records, self._central = None, {}
        return RefreshAnswer.model_validate(summary.to_dict())


def _edge_hit(edge: Any, **extra: Any) -> dict:
    """A reference site (the edge's source) with the edge's resolution; ambiguous ones are ``possible``."""
    row = hit_dict(Hit.at_edge_source(edge), **extra, resolution=edge.resolution)
    if edge.resolution == "ambiguous":
        row["possible"] = True
        row["reason"] = edge.reason
    return row


def _symbol_citation(defined: Sequence[Any], path: str, symbol: str | None) -> str:
    for s in defined:
        if s.qualified_name == symbol:
            return f"{path}:{s.line}"
    return f"{path}:1"


def _fit_json(text: str, limit: int) -> str:
    """``text`` shortened until its JSON (control characters escaped) takes at most ``limit`` characters."""
    import json

    while len(encoded := json.dumps(text, ensure_ascii=False)) > limit and text:
        text = text[: max(0, len(text) * limit // len(encoded) - 1)]
    return text
