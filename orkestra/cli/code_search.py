"""`orkestra code search|symbol|refs|deps|file|grep|structure|overview|context|serve`.

The CLI twin of the Maguyva MCP tools: the same library calls, JSON on stdout.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import typer

REPO = typer.Option(".", "--repo", help="Repository root (default: the current directory).")
STORE = typer.Option(None, "--store", help="Index location: a SQLite path or postgresql://…?workspace=W&repo=R "
                                           "(repo=* spans the workspace); default .git/maguyva/index.db.")


def _run(repo: str, store: Optional[str], call: Callable[[Any], dict], table: Optional[str] = None) -> None:
    from orkestra.cli.output import emit_json, emit_table, run

    def action() -> int:
        from maguyva.workspace import open_api

        api = open_api(repo, store)
        try:
            result = call(api)
        finally:
            api.close()
        rows = result.get(table) if table else None
        if rows is not None and _wants_table():
            emit_table(table, ["citation", "kind", "symbol", "snippet"],
                       [[r.get("citation"), r.get("kind"), r.get("symbol"), (r.get("snippet") or "")[:80]]
                        for r in rows])
        else:
            emit_json(result)
        return 0

    run(action)


_FORMAT: dict[str, str] = {"value": "json"}


def _wants_table() -> bool:
    return _FORMAT["value"] == "table"


def _format(value: str) -> str:
    if value not in ("json", "table"):
        raise typer.BadParameter("choose json or table")
    _FORMAT["value"] = value
    return value


FORMAT = typer.Option("json", "--format", callback=_format, help="json (default) or table.")


def mount(app: typer.Typer) -> None:
    """Register the retrieval commands and `serve` on the `code` group."""

    @app.command("search")
    def search(query: str = typer.Argument(..., help="A question, identifier, quoted literal or error text."),
               limit: int = typer.Option(10, "--limit", "-n", min=1, max=200),
               preset: str = typer.Option("default", "--preset", help="quick | default | thorough"),
               modality: Optional[List[str]] = typer.Option(None, "--modality", help="Repeatable: semantic, text, "
                                                                                       "structure, graph."),
               path_prefix: Optional[str] = typer.Option(None, "--path"),
               repo: str = REPO, store: Optional[str] = STORE, fmt: str = FORMAT) -> None:
        """Intent-routed, fused search with path:line citations (the intelligent_search tool).

        Example: orkestra code search "who calls plan_route" --limit 5
        """
        _run(repo, store, lambda api: api.intelligent_search(query, limit=limit, preset=preset,
                                                             modalities=modality or None, path_prefix=path_prefix),
             "results")

    @app.command("symbol")
    def symbol(name: str = typer.Argument(..., help="Symbol name or qualified name."),
               kind: Optional[str] = typer.Option(None, "--kind"),
               similar: bool = typer.Option(False, "--similar", help="Opt in to fuzzy matches."),
               exact: bool = typer.Option(False, "--exact", help="Strict matching, no fallbacks."),
               repo: str = REPO, store: Optional[str] = STORE, fmt: str = FORMAT) -> None:
        """Find a symbol's definitions; exact by default (the find_symbol tool).

        Example: orkestra code symbol Workspace.load
        """
        _run(repo, store, lambda api: api.find_symbol(name, kind=kind, find_similar=similar, exact_match=exact),
             "symbols")

    @app.command("refs")
    def refs(name: str = typer.Argument(..., help="Symbol name or qualified name."),
             limit: int = typer.Option(50, "--limit", "-n", min=1),
             possible: bool = typer.Option(False, "--possible", help="Also calls of the name on receivers of "
                                                                     "unknown type (resolution ambiguous)."),
             repo: str = REPO, store: Optional[str] = STORE, fmt: str = FORMAT) -> None:
        """Every in-repo reference to a symbol (the find_references tool), each with its resolution.

        Example: orkestra code refs classify
        """
        _run(repo, store, lambda api: api.find_references(name, limit=limit, include_possible=possible), "references")

    @app.command("deps")
    def deps(target: str = typer.Argument(..., help="A repo path or a symbol."),
             direction: str = typer.Option("both", "--direction", help="callers | callees | both | impact"),
             depth: int = typer.Option(2, "--depth", min=1, max=6),
             ambiguous: bool = typer.Option(False, "--ambiguous", help="Add possible callers and ambiguous "
                                                                       "callees (receiver type unknown)."),
             repo: str = REPO, store: Optional[str] = STORE) -> None:
        """Callers, callees or blast radius of a path or symbol (the analyze_dependencies tool).

        Example: orkestra code deps maguyva/api.py --direction impact
        """
        _run(repo, store, lambda api: api.analyze_dependencies(target, direction=direction, depth=depth,
                                                               include_ambiguous=ambiguous))

    @app.command("file")
    def file(path: str = typer.Argument(..., help="Repo-relative path."),
             start: Optional[int] = typer.Option(None, "--start", min=1),
             end: Optional[int] = typer.Option(None, "--end", min=1),
             metadata: bool = typer.Option(False, "--metadata"),
             repo: str = REPO, store: Optional[str] = STORE) -> None:
        """Numbered lines of a file, confined to the repository (the get_file tool).

        Example: orkestra code file maguyva/api.py --start 1 --end 40
        """
        _run(repo, store, lambda api: api.get_file(path, start_line=start, end_line=end, include_metadata=metadata))

    @app.command("grep")
    def grep(pattern: str = typer.Argument(..., help="Literal text, or a regex with --regex."),
             regex: bool = typer.Option(False, "--regex"),
             case_sensitive: bool = typer.Option(False, "--case-sensitive"),
             limit: int = typer.Option(50, "--limit", "-n", min=1),
             repo: str = REPO, store: Optional[str] = STORE, fmt: str = FORMAT) -> None:
        """Literal or regex text search over the index (the search_text tool).

        Example: orkestra code grep "no such table"
        """
        _run(repo, store, lambda api: api.search_text(pattern, regex=regex, case_sensitive=case_sensitive,
                                                      limit=limit), "results")

    @app.command("structure")
    def structure(kind: Optional[str] = typer.Option(None, "--kind"),
                  name: Optional[str] = typer.Option(None, "--name", help="Name glob, e.g. 'test_*'."),
                  signature: Optional[str] = typer.Option(None, "--signature", help="Text in the signature."),
                  repo: str = REPO, store: Optional[str] = STORE, fmt: str = FORMAT) -> None:
        """Definitions by kind, name glob and signature text (the search_structure tool).

        Example: orkestra code structure --kind class --name '*Error'
        """
        _run(repo, store, lambda api: api.search_structure(kind=kind, name=name, signature_contains=signature),
             "results")

    @app.command("overview")
    def overview(repo: str = REPO, store: Optional[str] = STORE) -> None:
        """Languages, layout, hubs by centrality, entry points (the repo_overview tool).

        Example: orkestra code overview | jq '.hub_files[:5]'
        """
        _run(repo, store, lambda api: api.repo_overview())

    @app.command("context")
    def context(task: str = typer.Argument(..., help="The task, in plain words."),
                budget: int = typer.Option(4000, "--budget", min=300, max=25000, help="Token budget."),
                repo: str = REPO, store: Optional[str] = STORE) -> None:
        """Ranked, cited snippets for a task within a token budget (the gather_task_context tool).

        Example: orkestra code context "add a retry to the voyage client" --budget 3000
        """
        _run(repo, store, lambda api: api.gather_task_context(task, token_budget=budget))

    @app.command("serve")
    def serve(repo: str = REPO, store: Optional[str] = STORE,
              http: bool = typer.Option(False, "--http", help="Streamable HTTP at /mcp instead of stdio."),
              host: str = typer.Option("127.0.0.1", "--host", help="Bind address (loopback by default)."),
              port: int = typer.Option(8765, "--port"),
              no_auth: bool = typer.Option(False, "--no-auth", help="Serve a non-loopback --host without a key "
                                           "(warns on start).")) -> None:
        """Run the Maguyva MCP server (stdio by default; --http for streamable HTTP).

        Over HTTP a SQLite index binds 127.0.0.1 by default. With $MAGUYVA_API_KEY set every request
        needs 'Authorization: Bearer <key>'. Any other --host needs that key, or --no-auth (which
        warns on start); otherwise it exits 2. A PostgreSQL team store always needs workspace keys.

        Example: orkestra code serve --http --port 8765   (clients connect to http://127.0.0.1:8765/mcp)
        """
        from orkestra.cli.output import run

        def action() -> int:
            import os
            import sys

            from maguyva.server.app import serve as serve_repo
            from maguyva.server.auth import KEY_ENV

            serve_repo(repo, store, http=http, host=host, port=port, key=os.environ.get(KEY_ENV), no_auth=no_auth,
                       warn=lambda message: print(message, file=sys.stderr, flush=True))
            return 0

        run(action)

    _mount_embed(app)


def _mount_embed(app: typer.Typer) -> None:
    """Register `code embed` on the `code` group."""

    @app.command("embed")
    def embed(repo: str = REPO, store: Optional[str] = STORE,
              estimate: bool = typer.Option(False, "--estimate", help="Print chunks, tokens and cost; embed nothing."),
              backend: Optional[str] = typer.Option(None, "--backend", help="voyage | local (default: orkestra.yaml "
                                                                            "maguyva.embeddings.backend).")) -> None:
        """Embed the index's chunks (binary-quantised) for semantic search; cached, never paid twice.

        Example: orkestra code embed --estimate && orkestra code embed
        """
        from orkestra.cli.output import emit_json, run

        def action() -> int:
            import sys
            from pathlib import Path

            from maguyva.embed.base import EmbeddingError, EmbeddingSettings, make_embedder, settings_for
            from maguyva.embed.cache import EmbeddingCache, default_cache_path
            from maguyva.embed.pipeline import embed_index
            from maguyva.embed.pipeline import estimate as estimate_cost
            from maguyva.store import open_store
            from maguyva.store.location import store_path

            settings = settings_for(repo)
            if backend:
                settings = EmbeddingSettings.from_config({"backend": backend})
            if settings.backend == "none":
                raise EmbeddingError("embeddings are off: set maguyva.embeddings.backend in orkestra.yaml "
                                     "(voyage or local) or pass --backend")
            index = open_store(store_path(Path(repo).resolve(), store))
            try:
                with EmbeddingCache(default_cache_path()) as cache:
                    if estimate:
                        emit_json(estimate_cost(index, settings, cache).to_dict())
                        return 0
                    embedder = make_embedder(settings)
                    summary = embed_index(index, embedder, cache, progress=_progress_printer(sys.stderr))
                    emit_json(summary.to_dict())
            finally:
                index.close()
            return 0

        run(action)


def _progress_printer(stream):
    """A rich progress bar on a terminal, nothing otherwise."""
    if not stream.isatty():
        return None
    from rich.progress import Progress

    progress = Progress(transient=True)
    task = {"id": None}

    def update(done: int, total: int) -> None:
        if task["id"] is None:
            progress.start()
            task["id"] = progress.add_task("embedding", total=total)
        progress.update(task["id"], completed=done)
        if done >= total:
            progress.stop()

    return update
