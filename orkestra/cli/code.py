"""`orkestra code …` (and the `maguyva` console script): the Maguyva code index.

Search and serve commands are added by their own modules; ``lang-report`` is mounted from
``code_quality.py``.
"""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from orkestra.cli import code_graph, code_quality, code_search, code_team
from orkestra.cli.output import Format, emit_json, emit_table, run

app = typer.Typer(help="Maguyva: index the repository's code and query it.", no_args_is_help=True,
                  rich_markup_mode=None)
code_quality.mount(app)
code_search.mount(app)
code_team.mount(app)
code_graph.mount(app)

PathArgument = Annotated[str, typer.Argument(metavar="PATH", help="Repository (or directory) to index.")]
StoreOption = Annotated[Optional[str], typer.Option(
    "--store", help="Index file, or postgresql://…?workspace=W&repo=R (default: $MAGUYVA_STORE, "
                    "maguyva.store in orkestra.yaml, else <git dir>/maguyva/index.db).")]
FormatOption = Annotated[Format, typer.Option("--format", help="json (default, for tools) or table (for people).")]


@app.command("index")
def index(
    path: PathArgument = ".",
    full: Annotated[bool, typer.Option("--full", help="Rebuild from scratch instead of updating.")] = False,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Preview files per language and skips; write nothing.")] = False,
    store: StoreOption = None,
    max_bytes: Annotated[int, typer.Option("--max-bytes", min=1, help="Skip files larger than this.")] = 1_000_000,
    fmt: FormatOption = Format.json,
) -> None:
    """Index (or incrementally update) the code map: symbols, references, edges, chunks, centrality.

    JSON: {"root", "store", "mode", "files", "added", "changed", "deleted", "renamed", "unchanged",
    "reresolved", "symbols", "edges", "unresolved", "skipped", "seconds", "commit", "errors",
    "languages": {<language>: {"files", "symbols", "edges"}}}.
    With --dry-run: {"root", "store", "languages": {<language>: files}, "flagged": {<flag>: files},
    "skipped": [{"path", "reason"}], "added", "changed", "deleted", "unchanged"}.

    \b
    Example:
      orkestra code index
      orkestra code index --dry-run | jq '.languages'
      orkestra code index ../other-repo --store /tmp/other.db --full
    """

    def action() -> None:
        from maguyva.index import pipeline

        if dry_run:
            plan = pipeline.plan_index(path, store, full, max_bytes)
            if fmt is Format.table:
                emit_table(f"would index {sum(plan.languages.values())} files into {plan.store}",
                           ("language", "files"), sorted(plan.languages.items()))
                emit_table("skipped", ("path", "reason"), [[s["path"], s["reason"]] for s in plan.skipped])
            else:
                emit_json(plan.to_dict())
            return
        with _progress() as report:
            summary = pipeline.index_repository(path, store, full, report, max_bytes=max_bytes)
        if fmt is Format.table:
            emit_table(f"{summary.mode} index: {summary.files} files in {summary.seconds} s ({summary.store})",
                       ("language", "files", "symbols", "edges"),
                       [[lang, v["files"], v["symbols"], v["edges"]] for lang, v in summary.languages.items()])
        else:
            emit_json(summary.to_dict())

    run(action)


@app.command("status")
def status(
    path: PathArgument = ".",
    store: StoreOption = None,
    fmt: FormatOption = Format.json,
) -> None:
    """Snapshot commit and time, files/symbols/edges per language, and work not in the map.

    JSON: {"root", "store", "commit", "indexed_at", "uncommitted_at_index": [path],
    "languages": {<language>: {"files", "symbols", "edges"}}, "totals": {"files", "symbols", "edges"},
    "not_in_map": {"added": [path], "changed": [path], "deleted": [path]}, "stale": bool,
    "embeddings": {"backend", "model", "dims", "vectors", "chunks", "coverage"}} (coverage in %).
    Exit 1 when there is no index yet.

    \b
    Example:
      orkestra code status | jq '.not_in_map'
      orkestra code status --format table
    """

    def action() -> None:
        from maguyva.index import pipeline

        report = pipeline.index_status(path, store).to_dict()
        report["embeddings"] = _embedding_status(path, store)
        if fmt is Format.table:
            emit_table(f"index at {report['commit'] or '(no commit)'} on {report['indexed_at']}"
                       f"{' (stale)' if report['stale'] else ''}",
                       ("language", "files", "symbols", "edges"),
                       [[lang, v["files"], v["symbols"], v["edges"]] for lang, v in report["languages"].items()])
            emit_table("not in the map", ("change", "path"),
                       [[change, p] for change, paths in report["not_in_map"].items() for p in paths])
            vectors = report["embeddings"]
            emit_table("embeddings", ("backend", "model", "vectors", "coverage %"),
                       [[vectors["backend"], vectors["model"], vectors["vectors"], vectors["coverage"]]])
        else:
            emit_json(report)

    run(action)


def _embedding_status(path: str, store: Optional[str]) -> dict:
    """The embeddings backend, model and coverage % of the index (semantic search)."""
    from pathlib import Path

    from maguyva.embed.base import settings_for
    from maguyva.embed.pipeline import embedding_status
    from maguyva.store import open_store
    from maguyva.store.location import repository_root, store_path

    root = repository_root(Path(path), store)
    index = open_store(store_path(root, store), readonly=True)
    try:
        return embedding_status(index, settings_for(root))
    finally:
        index.close()


class _progress:
    """A rich progress bar on stderr when it is a terminal; otherwise no callback at all."""

    def __enter__(self):
        if not sys.stderr.isatty():
            return None
        from rich.console import Console
        from rich.progress import Progress

        # no refresh thread: a second thread would keep the indexer from forking its worker pool
        self.bar = Progress(console=Console(stderr=True), transient=True, auto_refresh=False)
        self.bar.__enter__()
        self.tasks: dict[str, int] = {}
        return self.update

    def update(self, stage: str, done: int, total: int) -> None:
        if stage not in self.tasks:
            self.tasks[stage] = self.bar.add_task(stage, total=total or 1)
        self.bar.update(self.tasks[stage], completed=done, total=total or 1, refresh=True)

    def __exit__(self, *exc) -> None:
        if hasattr(self, "bar"):
            self.bar.__exit__(*exc)
