"""The ``orkestra`` console script (and ``python -m orkestra``).

``orkestra sync`` and ``orkestra sync --check`` on a tree unchanged since an in-sync sync are
answered here from stat data (``orkestra.render.noop``), without importing the CLI framework,
yaml or pydantic: a no-op sync costs little more than the interpreter's start-up. Every other
command line, and any doubt (no stamp, a changed path, an error), goes to the typer app in
``orkestra.cli``, which prints exactly what this module would have printed
(tests/test_sync_noop.py compares the two). ``ORKESTRA_NO_FASTPATH=1`` turns this off.
"""

from __future__ import annotations

import os
import sys

# argv -> the line `orkestra.cli.sync` prints for a sync that found nothing to do
NOOP_LINES = {("sync",): "wrote 0 file(s), deleted 0; already in sync", ("sync", "--check"): "in sync"}


def main() -> None:
    line = _noop_sync(tuple(sys.argv[1:]))
    if line is not None:
        sys.stdout.write(line + "\n")
        return
    from orkestra.cli import main as cli_main

    cli_main()


def _noop_sync(argv: tuple[str, ...]) -> str | None:
    line = NOOP_LINES.get(argv)
    if line is None or os.environ.get("ORKESTRA_NO_FASTPATH"):
        return None
    try:
        from orkestra.render.noop import unchanged_by_stat

        return line if unchanged_by_stat(None) else None
    except Exception:  # noqa: BLE001 - the full command reports whatever is wrong
        return None


if __name__ == "__main__":
    main()
