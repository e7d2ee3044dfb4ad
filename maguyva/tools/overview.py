"""``repo_overview`` and ``index_status``: one repository's languages, layout, hubs by centrality, entry
points, and the state of its index."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from maguyva.answers import OverviewAnswer, StatusAnswer
    from maguyva.store.base import Store

ENTRY_NAMES = (
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


def repo_overview(store: Store, root: Path | str, *, hubs: int) -> OverviewAnswer:
    """Languages, top-level layout, the ``hubs`` most central files and symbols, likely entry points."""
    from maguyva.answers import DirCount, HubFile, HubSymbol, LanguageCount, OverviewAnswer, Snapshot

    paths = sorted(store.known_paths())
    layout: dict[str, int] = {}
    for path in paths:
        top = path.split("/", 1)[0] if "/" in path else "."
        layout[top] = layout.get(top, 0) + 1
    top_files = store.top_central(hubs, files=True)
    top_symbols = store.top_central(hubs)
    defined = store.symbols_in_paths(c.path for c in top_symbols)
    snapshot = store.snapshot()
    return OverviewAnswer(
        root=str(root),
        files=len(paths),
        languages=[LanguageCount(**s.as_row()) for s in store.language_stats()],
        layout=[DirCount(dir=d, files=n) for d, n in sorted(layout.items(), key=lambda kv: (-kv[1], kv[0]))],
        hub_files=[
            HubFile(citation=f"{c.path}:1", path=c.path, pagerank=round(c.pagerank, 6), in_degree=c.in_degree)
            for c in top_files
        ],
        hub_symbols=[
            HubSymbol(
                symbol=c.symbol,
                path=c.path,
                pagerank=round(c.pagerank, 6),
                in_degree=c.in_degree,
                citation=symbol_citation(defined[c.path], c.path, c.symbol),
            )
            for c in top_symbols
        ],
        entry_points=[p for p in paths if p.rsplit("/", 1)[-1] in ENTRY_NAMES][:20],
        snapshot=Snapshot(**snapshot.as_dict()) if snapshot else None,
    )


def symbol_citation(defined: Sequence[Any], path: str, symbol: str | None) -> str:
    """``path:line`` of ``symbol``'s definition among ``defined`` (the file's first line when not there)."""
    for s in defined:
        if s.qualified_name == symbol:
            return f"{path}:{s.line}"
    return f"{path}:1"


def index_status(store: Store, root: Path, location: str, embedding_settings: Any) -> StatusAnswer:
    """Snapshot commit and time, counts per language, and files added, changed or deleted since."""
    from maguyva.answers import StatusAnswer
    from maguyva.git import uncommitted_paths
    from maguyva.status import read_status

    report = read_status(store, root, location, embedding_settings=embedding_settings)
    return StatusAnswer.model_validate(report.tool_dict(uncommitted_paths(root)))
