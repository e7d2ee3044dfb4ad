"""Team workspaces: several repositories in one PostgreSQL store, queried together or one at a time.

A workspace is a scope of several repositories' stores: each tool runs the one-repository
``Maguyva`` retrieval in every repository the scope selects, and the answers are merged. Ranked
lists (``intelligent_search``) are fused by rank (Reciprocal Rank Fusion,
``maguyva.retrieve.fuse.fuse_lists``): each repository's scores are its own and are never
compared across repositories. Task context is packed by the same code as for one repository.

In a workspace every place is repository-qualified: citations read ``repo:path:line``, and any
path or path-prefix argument may be ``repo:path`` (``api:`` alone selects the repository
``api``). A ``TeamWorkspace`` is bound to one workspace: repository names are looked up inside
it and every store query is keyed by repository id, so nothing outside it can be named.
There is no checkout on a team server; files are read from the index, never from disk.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Callable

from maguyva.answers import (DEFAULT_TOKENS, MAX_TOKENS, Answer, DependenciesAnswer, FileAnswer, OverviewAnswer,
                             Place, ReferencesAnswer, SearchAnswer, SearchResult, StatusAnswer, StructureAnswer,
                             SymbolAnswer, TextAnswer, bound)
from maguyva.api import Maguyva
from maguyva.retrieve.fuse import fuse_lists
from maguyva.errors import MaguyvaError
from maguyva.files import in_vcs_dir
from maguyva.store.postgres.location import PostgresLocation

def open_api(root: str | Path, store: str | None = None) -> "Maguyva | TeamWorkspace":
    """``Maguyva.open``, or a ``TeamWorkspace`` when the store names a whole workspace (``repo=*``)."""
    from maguyva.embed.base import settings_for
    from maguyva.store.location import store_path

    location = store_path(Path(root).resolve(), store)
    if isinstance(location, PostgresLocation) and location.whole_workspace:
        return TeamWorkspace(location, embedding_settings=settings_for(Path(root).resolve()))
    return Maguyva.open(root, store)


def workspace_status(store: PostgresLocation | str) -> dict:
    """Every repository of a workspace with its published snapshot (commit, time) and languages."""
    team = TeamWorkspace(store)
    try:
        return team.index_status()
    finally:
        team.close()


REFRESH_HINT = "the team index is published from CI: run `orkestra code index --store URL` there"


def hosted_path(path: str) -> str:
    """A repo-relative POSIX path from a tool argument, refusing anything that could leave the repository."""
    if not path or "\0" in path:
        raise MaguyvaError("path is empty")
    pure = PurePosixPath(path.replace("\\", "/"))
    if pure.is_absolute() or ".." in pure.parts:
        raise MaguyvaError(f"{path!r} is outside the repository")
    parts = [p for p in pure.parts if p != "."]
    if in_vcs_dir(parts):
        raise MaguyvaError(f"{path!r} is inside .git, which is not part of the code")
    if not parts:
        raise MaguyvaError("path is empty")
    return "/".join(parts)


@dataclass
class HostedMaguyva(Maguyva):
    """One repository of a team store: the same retrieval, with files read from the index only."""

    repo: str = ""

    def _file_content(self, path: str, *, ranged: bool) -> tuple[str, str, Path | None]:
        relative = hosted_path(path)
        content = self.store.file_text(relative)
        if content is None:
            raise MaguyvaError(f"no file {relative!r} in repository {self.repo!r}")
        return relative, content, None

    def repo_overview(self, *, hubs: int = 15) -> OverviewAnswer:
        return super().repo_overview(hubs=hubs).model_copy(update={"root": self.repo})

    def index_status(self) -> StatusAnswer:
        snapshot = self.store.snapshot()
        return StatusAnswer.model_validate({"repo": self.repo, "store": self.store_location,
                "snapshot": snapshot and {"commit": snapshot.commit, "created_at": snapshot.created_at,
                                          "dirty": list(snapshot.dirty)},
                "languages": [{"language": s.language, "files": s.files, "symbols": s.symbols, "edges": s.edges}
                              for s in self.store.language_stats()]})

    def refresh_index(self) -> dict:
        raise MaguyvaError(REFRESH_HINT)


class TeamWorkspace:
    """Retrieval over every repository of one workspace: ``Maguyva``'s methods, with ``repo:`` places."""

    def __init__(self, location: PostgresLocation | str, embedder: Any = None, embedding_settings: Any = None):
        from maguyva.store.postgres import catalog

        self.location = PostgresLocation.parse(location)
        self.workspace = self.location.workspace
        self.embedder, self.embedding_settings = embedder, embedding_settings
        self.conn = catalog.connect(self.location.conninfo, create=False)
        self.repos: dict[str, HostedMaguyva] = {}
        if not self._refresh_repos():
            self.close()
            raise MaguyvaError(f"workspace {self.workspace!r} has no indexed repositories "
                               f"(run `orkestra code index --store URL` in CI first)")

    def close(self) -> None:
        self.conn.close()

    def _refresh_repos(self) -> dict[str, HostedMaguyva]:
        """Pick up repositories indexed since the last call (CI may publish a new one at any time)."""
        from maguyva.store.postgres import catalog
        from maguyva.store.postgres.store import PostgresStore

        for name in catalog.workspace_repos(self.conn, self.workspace):
            if name not in self.repos:
                place = self.location.for_repo(name)
                store = PostgresStore(place, readonly=True, conn=self.conn)
                self.repos[name] = HostedMaguyva(Path(name), store, str(place), embedder=self.embedder,
                                                 embedding_settings=self.embedding_settings, repo=name)
        return self.repos

    def _select(self, qualified: str | None) -> tuple[list[HostedMaguyva], str | None]:
        """The repositories a ``repo:path`` argument names (all for a plain path) and the path within them."""
        repos = self._refresh_repos()
        if qualified is None or ":" not in qualified:
            return list(repos.values()), qualified
        name, _, rest = qualified.partition(":")
        if name not in repos:
            raise MaguyvaError(f"no repository {name!r} in workspace {self.workspace!r} "
                               f"(repositories: {', '.join(repos) or 'none'})")
        return [repos[name]], rest or None

    def _each(self, qualified: str | None, call: Callable[[HostedMaguyva, str | None], Answer]) -> list[dict]:
        """``call`` in every selected repository: each answer's JSON, its citations qualified by the repository."""
        targets, rest = self._select(qualified)
        return [{**qualify(call(api, rest).dump(), api.repo), "repo": api.repo} for api in targets]

    # ---- the eleven tools ----
    def intelligent_search(self, query: str, *, limit: int = 10, preset: str = "default", modalities=None,
                           path_prefix: str | None = None, max_tokens: int = DEFAULT_TOKENS) -> SearchAnswer:
        """Each repository's ranking, fused by rank (RRF with the route's k): raw scores are not comparable."""
        answers = self._each(path_prefix, lambda api, rest: api.intelligent_search(
            query, limit=limit, preset=preset, modalities=modalities, path_prefix=rest, max_tokens=MAX_TOKENS))
        merged = fuse_lists([a["results"] for a in answers], k=answers[0]["k"], limit=limit)
        notes = list(dict.fromkeys(n for a in answers for n in a["notes"]))
        answer = {**answers[0], "notes": notes, "results": merged, "repos": [a["repo"] for a in answers]}
        for key in ("repo", "truncated", "truncation_note"):
            answer.pop(key, None)
        return bound(SearchAnswer.model_validate(answer), "results", max_tokens)

    def find_symbol(self, symbol_name: str, *, kind: str | None = None, find_similar: bool = False,
                    exact_match: bool = False, limit: int = 20) -> SymbolAnswer:
        found = self._each(None, lambda api, _: api.find_symbol(symbol_name, kind=kind, exact_match=exact_match,
                                                                 limit=limit))
        if not any(a["count"] for a in found) and find_similar and not exact_match:
            found = self._each(None, lambda api, _: api.find_symbol(symbol_name, kind=kind, find_similar=True,
                                                                     limit=limit))
        symbols = [s for a in found for s in a["symbols"]][:limit]
        return SymbolAnswer.model_validate({
            "symbol_name": symbol_name, "match": "similar" if any(a["match"] == "similar" for a in found) else "exact",
            "count": len(symbols), "symbols": symbols})

    def find_references(self, symbol_name: str, *, limit: int = 50, max_tokens: int = DEFAULT_TOKENS
                        ) -> ReferencesAnswer:
        found = self._each(None, lambda api, _: api.find_references(symbol_name, limit=limit, max_tokens=MAX_TOKENS))
        refs = [r for a in found for r in a["references"]][:limit]
        answer = {"symbol_name": symbol_name, "definitions": [d for a in found for d in a["definitions"]],
                  "count": len(refs), "references": refs}
        return bound(ReferencesAnswer.model_validate(answer), "references", max_tokens)

    def analyze_dependencies(self, target: str, *, direction: str = "both", depth: int = 2, limit: int = 100,
                             max_tokens: int = DEFAULT_TOKENS) -> DependenciesAnswer:
        targets, rest = self._select(target)
        answers, problems = [], []
        for api in targets:
            try:
                answers.append(qualify(api.analyze_dependencies(rest, direction=direction, depth=depth,
                                                                limit=limit, max_tokens=MAX_TOKENS).dump(), api.repo))
            except MaguyvaError as exc:
                problems.append(str(exc))
        if not answers:
            raise MaguyvaError(problems[0])
        entries = [e for a in answers for e in a["entries"]][:limit]
        answer = {"target": target, "resolved": [r for a in answers for r in a["resolved"]],
                  "direction": direction, "count": len(entries), "entries": entries}
        if direction == "impact":
            answer["files_affected"] = len({(e["repo"], e["path"]) for e in entries})
        return bound(DependenciesAnswer.model_validate(answer), "entries", max_tokens)

    def get_file(self, path: str, *, start_line: int | None = None, end_line: int | None = None,
                 include_metadata: bool = False, max_tokens: int = DEFAULT_TOKENS) -> FileAnswer:
        targets, rest = self._select(path)
        relative = hosted_path(rest or "")
        holders = [api for api in targets if api.store.file_record(relative) is not None]
        if len(holders) != 1:
            where = ", ".join(f"{api.repo}:{relative}" for api in holders)
            raise MaguyvaError(f"{relative!r} is in several repositories ({where}); ask for one as repo:path"
                               if holders else f"no file {relative!r} in workspace {self.workspace!r}")
        api = holders[0]
        return FileAnswer.model_validate(qualify(api.get_file(
            relative, start_line=start_line, end_line=end_line, include_metadata=include_metadata,
            max_tokens=max_tokens).dump(), api.repo))

    def search_text(self, pattern: str, *, regex: bool = False, case_sensitive: bool = False,
                    path_prefix: str | None = None, limit: int = 50, max_tokens: int = DEFAULT_TOKENS) -> TextAnswer:
        found = self._each(path_prefix, lambda api, rest: api.search_text(
            pattern, regex=regex, case_sensitive=case_sensitive, path_prefix=rest, limit=limit, max_tokens=MAX_TOKENS))
        results = [r for a in found for r in a["results"]][:limit]
        return bound(TextAnswer.model_validate({"pattern": pattern, "regex": regex, "count": len(results),
                                                "results": results}), "results", max_tokens)

    def search_structure(self, *, kind: str | None = None, name: str | None = None,
                         signature_contains: str | None = None, path_prefix: str | None = None,
                         limit: int = 50) -> StructureAnswer:
        found = self._each(path_prefix, lambda api, rest: api.search_structure(
            kind=kind, name=name, signature_contains=signature_contains, path_prefix=rest, limit=limit))
        results = [r for a in found for r in a["results"]][:limit]
        return StructureAnswer.model_validate({"count": len(results), "results": results})

    def repo_overview(self) -> OverviewAnswer:
        return OverviewAnswer.model_validate({"workspace": self.workspace,
                                              "repositories": self._each(None, lambda api, _: api.repo_overview())})

    gather_task_context = Maguyva.gather_task_context  # the one packer, over this scope's fused search

    def _place_text(self, result: SearchResult, place: Place) -> str:
        return self.repos[result.repo]._span_text(result.path, place.line, place.end_line)

    def _prefetch_texts(self, results: list[SearchResult]) -> None:
        for name, api in self.repos.items():  # one read per repository the results come from
            api._prefetch_texts([r for r in results if r.repo == name])

    def index_status(self) -> StatusAnswer:
        return StatusAnswer.model_validate({"workspace": self.workspace,
                                            "repositories": self._each(None, lambda api, _: api.index_status())})

    def refresh_index(self) -> dict:
        raise MaguyvaError(REFRESH_HINT)


def qualify(answer: dict, repo: str) -> dict:
    """Prefix every citation in ``answer`` with ``repo:`` and tag cited entries with their repository."""
    out: dict = {}
    for key, value in answer.items():
        if key == "citation" and isinstance(value, str):
            out[key], out["repo"] = f"{repo}:{value}", repo
        elif key in ("definitions", "resolved") and isinstance(value, list):
            out[key] = [f"{repo}:{v}" for v in value]
        elif isinstance(value, dict):
            out[key] = qualify(value, repo)
        elif isinstance(value, list):
            out[key] = [qualify(v, repo) if isinstance(v, dict) else v for v in value]
        else:
            out[key] = value
    return out
