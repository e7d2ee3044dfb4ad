"""The ``maguyva`` console script: the same commands as ``orkestra code``."""

from __future__ import annotations


def main() -> None:
    """Console-script entry point: ``maguyva index|status|serve …``."""
    from orkestra.cli.code import app

    app(prog_name="maguyva")
