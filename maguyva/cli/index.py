"""``maguyva index`` and ``maguyva status``: build the code map and see what it holds."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from maguyva.cli.options import FormatOption, PathAlias, RepoOption, StoreOption, repo_of
from maguyva.cli.output import emit_path, emit_table, run, show_report

LANGUAGE_COLUMNS = ("language", "files", "symbols", "edges")


def index(
    path: PathAlias = None,
    repo: RepoOption = ".",
    full: Annotated[bool, typer.Option("--full", help="Rebuild from scratch instead of updating.")] = False,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Preview files per language and skips; write nothing.")
    ] = False,
    store: StoreOption = None,
    max_bytes: Annotated[
        int, typer.Option("--max-bytes", min=1, help="Skip files larger than this.")
    ] = 1_000_000,
    fmt: FormatOption = None,
) -> None:
    """Index or incrementally update the code map of a repository.

    Symbols, references, edges, chunks and centrality, stored outside the working tree. The
    JSON answers are described in docs/cli.md ("index").

    \b
    Example:
      maguyva index
      maguyva index --dry-run --format json
      maguyva index --repo ../other-repo --store /tmp/other.db --full
    """

    def action() -> None:
        from maguyva.index import pipeline

        where = repo_of(repo, path)
        if dry_run:
            plan = pipeline.plan_index(where, store, full, max_bytes)
            show_report(plan.to_dict(), fmt, lambda: _plan_tables(plan))
            return
        with _progress() as report:
            summary = pipeline.index_repository(where, store, full, report, max_bytes=max_bytes)
        show_report(summary.to_dict(), fmt, lambda: _summary_tables(summary))

    run(action)


def status(
    path: PathAlias = None, repo: RepoOption = ".", store: StoreOption = None, fmt: FormatOption = None
) -> None:
    """Show the index's snapshot, counts and work not in the map.

    Snapshot commit and time, files, symbols and edges per language, the files added, changed
    or deleted since the last index run (not_in_map), and the embeddings' backend and coverage. Exit 1 when there is no index yet. The JSON answer is
    described in docs/cli.md ("status").

    \b
    Example:
      maguyva status
      maguyva status --format json | jq '.not_in_map'
    """

    def action() -> None:
        from maguyva.status import index_status

        report = index_status(repo_of(repo, path), store).to_dict()
        show_report(report, fmt, lambda: _status_tables(report))

    run(action)


def _language_rows(languages: dict) -> list[list]:
    return [[lang, v["files"], v["symbols"], v["edges"]] for lang, v in languages.items()]


def _summary_tables(summary) -> None:
    emit_table(
        f"{summary.mode} index: {summary.files} files in {summary.seconds} s",
        LANGUAGE_COLUMNS,
        _language_rows(summary.languages),
    )
    emit_path("store", summary.store)  # on its own line: a table title would break it mid-word


def _plan_tables(plan) -> None:
    emit_table(
        f"would index {sum(plan.languages.values())} files",
        ("language", "files"),
        sorted(plan.languages.items()),
    )
    emit_path("into", plan.store)
    emit_table("skipped", ("path", "reason"), [[s["path"], s["reason"]] for s in plan.skipped])


def _status_tables(report: dict) -> None:
    emit_table(
        f"index at {report['commit'] or '(no commit)'} on {report['indexed_at']}"
        f"{' (stale)' if report['stale'] else ''}",
        LANGUAGE_COLUMNS,
        _language_rows(report["languages"]),
    )
    emit_table(
        "not in the map",
        ("change", "path"),
        [[change, p] for change, paths in report["not_in_map"].items() for p in paths],
    )
    vectors = report["embeddings"]
    emit_table(
        "embeddings",
        ("backend", "model", "vectors", "coverage %"),
        [[vectors["backend"], vectors["model"], vectors["vectors"], vectors["coverage"]]],
    )


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
