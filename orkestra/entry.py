"""The ``orkestra`` console script (and ``python -m orkestra``).

``orkestra sync`` and ``orkestra sync --check`` on a tree unchanged since an in-sync sync are
answered here from stat data (``orkestra.render.freshness``), without importing the CLI framework,
yaml or pydantic: a no-op sync costs little more than the interpreter's start-up. Every other
command line, and any doubt (no stamp, a changed path, an error), goes to the typer app in
``orkestra.cli``; both print the result with ``orkestra.render.summary`` (tests/test_sync_noop.py
compares the two). ``ORKESTRA_NO_FASTPATH=1`` turns this off.
"""

from __future__ import annotations

import os
import sys

# completion needs the whole tree; ORKESTRA_CODE_VIA_TREE=1 forces it (tests compare the two answers)
_TREE_VARS = {"_ORKESTRA_COMPLETE", "ORKESTRA_CODE_VIA_TREE"}
# the command lines answered from the stamp -> whether they only plan (--check) or would apply
FAST_SYNCS = {("sync",): False, ("sync", "--check"): True}


def main() -> None:
    from maguyva.cli.argv import refuse_undecodable

    refuse_undecodable(sys.argv[1:], "orkestra")
    line = _noop_sync(tuple(sys.argv[1:]))
    if line is not None:
        sys.stdout.write(line + "\n")
        return
    if _maguyva_command(sys.argv[1:]):
        return
    from orkestra.cli import main as cli_main

    cli_main()


def _maguyva_command(argv: list[str]) -> bool:
    """``orkestra code <command> …`` runs Maguyva's command directly (the same app ``orkestra code``
    mounts, with the same usage lines), without building the orkestra tree around it."""
    if len(argv) < 2 or argv[0] != "code" or _TREE_VARS.intersection(os.environ):
        return False
    from maguyva.cli.app import COMMANDS, app_for

    if argv[1] not in COMMANDS:  # help, a group, a typo: the full tree answers
        return False
    app_for(argv[1:])(args=argv[1:], prog_name="orkestra code")
    return True


def _noop_sync(argv: tuple[str, ...]) -> str | None:
    planned = FAST_SYNCS.get(argv)
    if planned is None or os.environ.get("ORKESTRA_NO_FASTPATH"):
        return None
    try:
        from orkestra.render.freshness import unchanged_by_stat

        if not unchanged_by_stat(None):
            return None
        from orkestra.render.summary import summary

        return summary(planned)  # nothing to do: what the CLI prints for an empty plan
    except Exception:  # noqa: BLE001 - the full command reports whatever is wrong
        return None


if __name__ == "__main__":
    main()
