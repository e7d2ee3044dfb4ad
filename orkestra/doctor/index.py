"""The ``index`` check: no code index, an unsafe store, or files changed since the index."""

from __future__ import annotations

from pathlib import Path

from orkestra.doctor.finding import Finding


def check_index(root: Path, *, probe: bool = True) -> list[Finding]:
    from maguyva.errors import MaguyvaError, NotARepositoryError
    from maguyva.store.location import locating

    try:
        _, location = locating(root, None)()
    except NotARepositoryError:
        return []  # no git: nothing to index by default (the server says so on each call)
    except MaguyvaError as exc:
        return [
            Finding(
                "index",
                "error",
                str(exc),
                "fix maguyva.store in orkestra.yaml (docs/cli.md)",
                "orkestra.yaml",
            )
        ]
    if not isinstance(location, Path):
        return []  # a team store is the team server's to keep
    if not location.exists():
        return [
            Finding(
                "index",
                "warning",
                f"no code index at {location}: the maguyva server answers every tool with an error until there is one",
                "`orkestra code index`",
                fixable=True,
            )
        ]
    if not probe:
        return []
    try:
        from maguyva.api import Maguyva

        api = Maguyva.open(root)
        try:
            status = api.index_status()
        finally:
            api.close()
    except MaguyvaError as exc:
        return [Finding("index", "error", f"the index cannot be read: {exc}", "`orkestra code index --full`")]
    changed = status.not_in_map_count or 0
    if not changed:
        return []
    return [
        Finding(
            "index",
            "warning",
            f"the index is stale: {changed} file(s) changed since it was built",
            "`orkestra code index` (incremental)",
            fixable=True,
        )
    ]
