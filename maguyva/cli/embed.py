"""``maguyva embed``: vectors for semantic search (``maguyva.embed.repository`` does the work)."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from maguyva.cli.options import FormatOption, RepoOption, StoreOption
from maguyva.cli.output import run, show


def embed(
    repo: RepoOption = ".",
    store: StoreOption = None,
    estimate: Annotated[
        bool, typer.Option("--estimate", help="Print chunks, tokens and cost; embed nothing.")
    ] = False,
    backend: Annotated[
        str | None,
        typer.Option(
            "--backend", help="voyage or local (default: maguyva.embeddings.backend in orkestra.yaml)."
        ),
    ] = None,
    fmt: FormatOption = None,
) -> None:
    """Embed the index's chunks for semantic search.

    Vectors are binary-quantised and cached apart from the index: never paid twice.

    \b
    Example:
      maguyva embed --estimate
      maguyva embed --backend local
    """

    def action() -> None:
        from maguyva.embed.repository import embed_repository, estimate_repository

        if estimate:
            show(estimate_repository(repo, store, backend=backend), fmt)
            return
        show(embed_repository(repo, store, backend=backend, progress=_progress_printer(sys.stderr)), fmt)

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
