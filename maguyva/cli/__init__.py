"""The ``maguyva`` command line: a thin Typer layer over the library (``maguyva.cli.app``).

``orkestra code …`` mounts the same app. Options and printing live in ``options.py`` and
``output.py``; each command module holds the commands of one area.
"""

from __future__ import annotations


def main() -> None:
    """Console-script entry point: ``maguyva index|status|search|…``."""
    import sys

    from maguyva.cli.app import app_for
    from maguyva.cli.argv import refuse_undecodable

    refuse_undecodable(sys.argv[1:], "maguyva")
    app_for(sys.argv[1:])(prog_name="maguyva")
