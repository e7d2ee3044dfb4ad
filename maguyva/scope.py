"""One retrieval object over a scope: the repositories a question is asked over, one store or many.

A ``Scope`` names its repositories (``repos``: name → the one-store ``Maguyva``); ``ScopedMaguyva``
answers the eleven tools over it. Every place is repository-qualified: citations read
``repo:path:line``, and a path or path-prefix argument may be ``repo:path`` (``api:`` alone
selects the repository ``api``); a name outside the scope is refused. Each tool runs the
one-store retrieval in every selected repository and merges the answers: ranked lists are fused
by rank (Reciprocal Rank Fusion, ``maguyva.retrieve.fuse.fuse_lists``), since one repository's
scores are never comparable with another's; task context is packed by ``Maguyva``'s own code.

A team workspace (``maguyva.workspace.WorkspaceScope``) is a scope over a PostgreSQL store;
``Scope("local", {"api": Maguyva.open(...), "web": Maguyva.open(...)})`` is one over stores
opened here (several local SQLite indexes, say).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import PurePosixPath

from maguyva.answers import (
    DEFAULT_TOKENS,
    MAX_TOKENS,
    Answer,
    ContextAnswer,
    DependenciesAnswer,
    FileAnswer,
    OverviewAnswer,
    ReferencesAnswer,
    RefreshAnswer,
    SearchAnswer,
    SearchResult,
    StatusAnswer,
    StructureAnswer,
    SymbolAnswer,
    TextAnswer,
    bound,
)
from maguyva.api import Maguyva
from maguyva.errors import MaguyvaError
from maguyva.files import in_vcs_dir
from maguyva.retrieve.fuse import fuse_lists
from maguyva.tools.context import gather_task_context


class Scope:
    """Named repositories, each a one-store ``Maguyva``; subclasses may discover more on ``refresh``."""

    def __init__(self, name: str, repos: Mapping[str, Maguyva] | None = None, label: str | None = None):
        self.name = name
        self.label = label or f"scope {name!r}"  # how errors name it: "workspace 'acme'"
        self.repos: dict[str, Maguyva] = dict(repos or {})

    def refresh(self) -> dict[str, Maguyva]:
        """The repositories now in scope (a workspace picks up ones published since the last call)."""
        return self.repos

    def select(self, qualified: str | None) -> tuple[list[tuple[str, Maguyva]], str | None]:
        """The repositories a ``repo:path`` argument names (all for a plain path) and the path within them."""
        repos = self.refresh()
        if qualified is None or ":" not in qualified:
            return list(repos.items()), qualified
        name, _, rest = qualified.partition(":")
        if name not in repos:
            raise MaguyvaError(
                f"no repository {name!r} in {self.label} (repositories: {', '.join(repos) or 'none'})"
            )
        return [(name, repos[name])], rest or None

    def refresh_index(self) -> RefreshAnswer:
        raise MaguyvaError(f"{self.label} spans several indexes: refresh each repository's index on its own")

    def close(self) -> None:
        for api in self.repos.values():
            api.close()


class ScopedMaguyva:
    """``Maguyva``'s eleven tools over a ``Scope``, with ``repo:`` places; answers are the same models."""

    def __init__(self, scope: Scope):
        self.scope = scope

    def close(self) -> None:
        self.scope.close()

    def _each(self, qualified: str | None, call: Callable[[Maguyva, str | None], Answer]) -> list[dict]:
        """``call`` in every selected repository: each answer's JSON, its citations qualified by the repository."""
        targets, rest = self.scope.select(qualified)
        return [{**qualify(call(api, rest).dump(), name), "repo": name} for name, api in targets]

    # ---- the eleven tools ----
    def intelligent_search(
        self,
        query: str,
        *,
        limit: int = 10,
        preset: str = "default",
        modalities=None,
        path_prefix: str | None = None,
        max_tokens: int = DEFAULT_TOKENS,
    ) -> SearchAnswer:
        """Each repository's ranking, fused by rank (RRF with the route's k): raw scores are not comparable."""
        answers = self._each(
            path_prefix,
            lambda api, rest: api.intelligent_search(
                query,
                limit=limit,
                preset=preset,
                modalities=modalities,
                path_prefix=rest,
                max_tokens=MAX_TOKENS,
            ),
        )
        merged = fuse_lists([a["results"] for a in answers], k=answers[0]["k"], limit=limit)
        notes = list(dict.fromkeys(n for a in answers for n in a["notes"]))
        answer = {**answers[0], "notes": notes, "results": merged, "repos": [a["repo"] for a in answers]}
        for key in ("repo", "truncated", "truncation_note"):
            answer.pop(key, None)
        return bound(SearchAnswer.model_validate(answer), "results", max_tokens)

    def find_symbol(
        self,
        symbol_name: str,
        *,
        kind: str | None = None,
        find_similar: bool = False,
        exact_match: bool = False,
        limit: int = 20,
    ) -> SymbolAnswer:
        found = self._each(
            None, lambda api, _: api.find_symbol(symbol_name, kind=kind, exact_match=exact_match, limit=limit)
        )
        if not any(a["count"] for a in found) and find_similar and not exact_match:
            found = self._each(
                None, lambda api, _: api.find_symbol(symbol_name, kind=kind, find_similar=True, limit=limit)
            )
        symbols = [s for a in found for s in a["symbols"]][:limit]
        return SymbolAnswer(
            symbol_name=symbol_name,
            match="similar" if any(a["match"] == "similar" for a in found) else "exact",
            count=len(symbols),
            symbols=symbols,
        )

    def find_references(
        self,
        symbol_name: str,
        *,
        limit: int = 50,
        include_possible: bool = False,
        max_tokens: int = DEFAULT_TOKENS,
    ) -> ReferencesAnswer:
        found = self._each(
            None,
            lambda api, _: api.find_references(
                symbol_name, limit=limit, include_possible=include_possible, max_tokens=MAX_TOKENS
            ),
        )
        refs = [r for a in found for r in a["references"]][:limit]
        answer = ReferencesAnswer(
            symbol_name=symbol_name,
            definitions=[d for a in found for d in a["definitions"]],
            count=len(refs),
            references=refs,
        )
        return bound(answer, "references", max_tokens)

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
        targets, rest = self.scope.select(target)
        answers, problems = [], []
        for name, api in targets:  # a target need only exist in one of the repositories
            try:
                answers.append(
                    qualify(
                        api.analyze_dependencies(
                            rest,
                            direction=direction,
                            depth=depth,
                            limit=limit,
                            include_ambiguous=include_ambiguous,
                            max_tokens=MAX_TOKENS,
                        ).dump(),
                        name,
                    )
                )
            except MaguyvaError as exc:
                problems.append(str(exc))
        if not answers:
            raise MaguyvaError(problems[0])
        entries = [e for a in answers for e in a["entries"]][:limit]
        impact = (
            {"files_affected": len({(e["repo"], e["path"]) for e in entries})}
            if direction == "impact"
            else {}
        )
        answer = DependenciesAnswer(
            target=target,
            resolved=[r for a in answers for r in a["resolved"]],
            direction=direction,
            count=len(entries),
            entries=entries,
            **impact,
        )
        return bound(answer, "entries", max_tokens)

    def get_file(
        self,
        path: str,
        *,
        start_line: int | None = None,
        end_line: int | None = None,
        include_metadata: bool = False,
        max_tokens: int = DEFAULT_TOKENS,
    ) -> FileAnswer:
        targets, rest = self.scope.select(path)
        relative = hosted_path(rest or "")
        holders = [(name, api) for name, api in targets if api.store.file_record(relative) is not None]
        if len(holders) != 1:
            where = ", ".join(f"{name}:{relative}" for name, _ in holders)
            raise MaguyvaError(
                f"{relative!r} is in several repositories ({where}); ask for one as repo:path"
                if holders
                else f"no file {relative!r} in {self.scope.label}"
            )
        name, api = holders[0]
        return FileAnswer.model_validate(
            qualify(
                api.get_file(
                    relative,
                    start_line=start_line,
                    end_line=end_line,
                    include_metadata=include_metadata,
                    max_tokens=max_tokens,
                ).dump(),
                name,
            )
        )

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
        found = self._each(
            path_prefix,
            lambda api, rest: api.search_text(
                pattern,
                regex=regex,
                case_sensitive=case_sensitive,
                path_prefix=rest,
                limit=limit,
                max_tokens=MAX_TOKENS,
            ),
        )
        results = [r for a in found for r in a["results"]][:limit]
        answer = TextAnswer(pattern=pattern, regex=regex, count=len(results), results=results)
        return bound(answer, "results", max_tokens)

    def search_structure(
        self,
        *,
        kind: str | None = None,
        name: str | None = None,
        signature_contains: str | None = None,
        path_prefix: str | None = None,
        limit: int = 50,
    ) -> StructureAnswer:
        found = self._each(
            path_prefix,
            lambda api, rest: api.search_structure(
                kind=kind, name=name, signature_contains=signature_contains, path_prefix=rest, limit=limit
            ),
        )
        results = [r for a in found for r in a["results"]][:limit]
        return StructureAnswer(count=len(results), results=results)

    def repo_overview(self) -> OverviewAnswer:
        return OverviewAnswer(
            workspace=self.scope.name, repositories=self._each(None, lambda api, _: api.repo_overview())
        )

    def gather_task_context(self, task: str, *, token_budget: int = 4_000) -> ContextAnswer:
        """The one packer (``maguyva.tools.context``), over this scope's fused search."""
        return gather_task_context(self, task, token_budget)

    def result_texts(self, results: Sequence[SearchResult]) -> Mapping[tuple[str | None, str], str]:
        """One read per repository the results come from, keyed by (repository, path)."""
        texts: dict[tuple[str | None, str], str] = {}
        for name, api in self.scope.repos.items():
            texts.update(api.result_texts([r for r in results if r.get("repo") == name]))
        return texts

    def index_status(self) -> StatusAnswer:
        return StatusAnswer(
            workspace=self.scope.name, repositories=self._each(None, lambda api, _: api.index_status())
        )

    def refresh_index(self) -> RefreshAnswer:
        return self.scope.refresh_index()


def hosted_path(path: str) -> str:
    """A repo-relative POSIX path from a tool argument, refusing anything that could leave the repository."""
    if not path:
        raise MaguyvaError("path is empty")
    if "\0" in path:
        raise MaguyvaError(f"{path!r} holds a NUL character (\\x00), which no file name can")
    pure = PurePosixPath(path.replace("\\", "/"))
    if pure.is_absolute() or ".." in pure.parts:
        raise MaguyvaError(f"{path!r} is outside the repository")
    parts = [p for p in pure.parts if p != "."]
    if in_vcs_dir(parts):
        raise MaguyvaError(f"{path!r} is inside .git, which is not part of the code")
    if not parts:
        raise MaguyvaError("path is empty")
    return "/".join(parts)


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
